#!/usr/bin/env python3
"""tools/compare_bench.py on hand-made CSVs: a row of ours 10% slower with the anchors steady fails;
the same move where an anchor at that point moved as far is marked noise (and still fails: the
tolerance is the rule); --min-n leaves small rows out; --merge takes the median of three runs."""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools', 'compare_bench.py')
HEADER = 'operation,implementation,n,param,median_ms,gbps,items_per_s,gflops,ratio_to_anchor,pct_of_copy,block_size,anchor,ok\n'


def csv_of(rows):
    return '# gpu: test\n' + HEADER + ''.join(f'{op},{impl},{n},{param},{ms},,,,,,0,{anchor},1\n'
                                              for op, impl, n, param, ms, anchor in rows)


def run(directory, base, new, *flags):
    paths = []
    for name, rows in (('base.csv', base), ('new.csv', new)):
        paths.append(os.path.join(directory, name))
        with open(paths[-1], 'w') as f:
            f.write(csv_of(rows))
    done = subprocess.run([sys.executable, TOOL, *paths, *flags], capture_output=True, text=True)
    return done.returncode, done.stdout


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        steady = [('scan', 'cub', 1 << 24, '', 1.0, 1), ('scan', 'single_pass', 1 << 24, '', 1.0, 0)]
        slower = [('scan', 'cub', 1 << 24, '', 1.0, 1), ('scan', 'single_pass', 1 << 24, '', 1.1, 0)]
        rc, out = run(d, steady, slower)
        if rc != 1 or 'outside' not in out or 'noise:' in out:
            failures.append(f'10% slower with steady anchors: rc {rc}\n{out}')
        drifting = [('scan', 'cub', 1 << 24, '', 1.12, 1), ('scan', 'single_pass', 1 << 24, '', 1.1, 0)]
        rc, out = run(d, steady, drifting)
        if rc != 1 or 'noise: anchors moved 12.0%' not in out:
            failures.append(f'10% slower where the anchor moved 12%: rc {rc}\n{out}')
        small = [('scan', 'cub', 1024, '', 1.0, 1), ('scan', 'single_pass', 1024, '', 1.0, 0)]
        small_slower = [('scan', 'cub', 1024, '', 1.0, 1), ('scan', 'single_pass', 1024, '', 1.5, 0)]
        rc, out = run(d, steady + small, steady + small_slower, '--min-n', str(1 << 20))
        if rc != 0:
            failures.append(f'--min-n 2^20 with only a 2^10 row slower: rc {rc}\n{out}')
        runs = []
        for i, ms in enumerate((1.0, 5.0, 2.0)):
            runs.append(os.path.join(d, f'run{i}.csv'))
            with open(runs[-1], 'w') as f:
                f.write(csv_of([('scan', 'single_pass', 1 << 24, '', ms, 0)]))
        merged = subprocess.run([sys.executable, TOOL, '--merge', *runs], capture_output=True, text=True).stdout
        if ',2.000000,' not in merged:
            failures.append(f'--merge of 1, 5, 2 ms is not their median 2:\n{merged}')
    print('\n'.join(failures) if failures else 'compare_bench: every case as expected')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

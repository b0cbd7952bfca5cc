#!/usr/bin/env python3
"""tools/compare_bench.py on hand-made CSVs: a row of ours 10% slower with the anchors steady fails;
the same move where an anchor at that point moved as far is marked noise (and still fails: the
tolerance is the rule); --min-n leaves small rows out; --merge takes the median of three runs.
--ratios: every time of one CSV twice the other's (another harness's clock, the same speed-ups)
passes; ours 10% faster against a steady CUB fails; rows whose block sizes differ are matched, but
the sweep's (another block, another point) are not; a row in one CSV alone is counted, not compared."""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools', 'compare_bench.py')
HEADER = 'operation,implementation,n,param,median_ms,gbps,items_per_s,gflops,ratio_to_anchor,pct_of_copy,block_size,anchor,ok\n'


def csv_of(rows):
    """rows of (operation, implementation, n, param, ms, anchor[, block size])."""
    return '# gpu: test\n' + HEADER + ''.join(f'{r[0]},{r[1]},{r[2]},{r[3]},{r[4]},,,,,,{r[6] if len(r) > 6 else 0},'
                                              f'{r[5]},1\n' for r in rows)


def run(directory, base, new, *flags):
    paths = []
    for name, rows in (('base.csv', base), ('new.csv', new)):
        paths.append(os.path.join(directory, name))
        with open(paths[-1], 'w') as f:
            f.write(csv_of(rows))
    done = subprocess.run([sys.executable, TOOL, *paths, *flags], capture_output=True, text=True)
    return done.returncode, done.stdout


def check_ratios(d, failures):
    # sc_bench's: single_pass 1.25x CUB (block 256), the sweep's 1.11x at block 128; merge_keys/ours has
    # no library at its point (no speed-up). NVBench's: every time doubled, no block size but the sweep's.
    sc = [('scan', 'cub', 1 << 24, '', 1.0, 1), ('scan', 'single_pass', 1 << 24, '', 0.8, 0, 256),
          ('sweep_scan', 'single_pass', 1 << 24, '', 0.9, 0, 128), ('merge_keys', 'ours', 1 << 24, '', 1.0, 0)]
    nv = [('scan', 'cub', 1 << 24, '', 2.0, 1), ('scan', 'single_pass', 1 << 24, '', 1.6, 0),
          ('sweep_scan', 'single_pass', 1 << 24, '', 1.8, 0, 128), ('merge_keys', 'ours', 1 << 24, '', 2.0, 0)]
    rc, out = run(d, sc, nv, '--ratios')
    if rc != 0 or '2 speed-ups of ours compared, 0 outside' not in out:
        failures.append(f'--ratios, every time doubled: rc {rc}\n{out}')
    faster = [nv[0], ('scan', 'single_pass', 1 << 24, '', 1.44, 0)] + nv[2:]  # 1.39x CUB: 11% more
    rc, out = run(d, sc, faster, '--ratios')
    if rc != 1 or '2 speed-ups of ours compared, 1 outside' not in out:
        failures.append(f'--ratios, ours 11% faster against a steady CUB: rc {rc}\n{out}')
    other_block = nv[:2] + [('sweep_scan', 'single_pass', 1 << 24, '', 1.8, 0, 256), nv[3]]
    rc, out = run(d, sc, other_block, '--ratios')
    if rc != 0 or '1 speed-ups of ours compared, 0 outside' not in out or 'alone, 1 in' not in out:
        failures.append(f'--ratios, the sweep at another block size is another point: rc {rc}\n{out}')


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
        check_ratios(d, failures)
    print('\n'.join(failures) if failures else 'compare_bench: every case as expected')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

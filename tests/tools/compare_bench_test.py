#!/usr/bin/env python3
"""tools/compare_bench.py on hand-made CSVs in nvbench_to_csv.py's columns (block_size 0 but the
sweep's, as NVBench's rows have it).

Two builds: a row of ours 10% slower with the anchors steady fails; the same move where an anchor at
that point moved as far is marked noise (and still fails: the tolerance is the rule); --min-n leaves
small rows out; a row of ours within the tolerance whose check failed in NEW (ok 0) fails; the
sweep's rows at another block size are not matched, and every row in one CSV alone is counted.
--merge: the median of three runs; a point missing from a run (a part cut short there) is the median
of the runs that have it and is counted on stderr, a point of a later run alone is kept, ok is 0
where a run says 0, the ratios are recomputed on the merged times, the columns are anchors.COLUMNS;
no file at all is a usage error.
--ratios: every time of one CSV twice the other's (another harness's clock, the same speed-ups)
passes; ours 10% faster against a steady CUB fails; rows whose block sizes differ are matched, but
the sweep's (another block, another point) are not; a row in one CSV alone is counted, not compared."""
import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
TOOL = os.path.join(ROOT, 'tools', 'compare_bench.py')
sys.path.insert(0, os.path.join(ROOT, 'bench', 'plot'))
import anchors  # noqa: E402  (the columns nvbench_to_csv.py writes)


def csv_of(rows):
    """rows of (operation, implementation, n, param, ms, anchor[, block size[, ok]])."""
    lines = [','.join(anchors.COLUMNS)]
    for r in rows:
        block, ok = (r[6] if len(r) > 6 else 0), (r[7] if len(r) > 7 else 1)
        lines.append(f'{r[0]},{r[1]},{r[2]},{r[3]},{r[4]},,,,,,{block},{r[5]},{ok},')
    return '# gpu: test\n' + '\n'.join(lines) + '\n'


def write(path, rows):
    with open(path, 'w') as f:
        f.write(csv_of(rows))
    return path


def run(directory, base, new, *flags):
    paths = [write(os.path.join(directory, 'base.csv'), base), write(os.path.join(directory, 'new.csv'), new)]
    done = subprocess.run([sys.executable, TOOL, *paths, *flags], capture_output=True, text=True)
    return done.returncode, done.stdout


def merge(directory, *runs):
    paths = [write(os.path.join(directory, f'run{i}.csv'), rows) for i, rows in enumerate(runs)]
    done = subprocess.run([sys.executable, TOOL, '--merge', *paths], capture_output=True, text=True)
    lines = done.stdout.splitlines()
    body = [line for line in lines if not line.startswith('#')]
    return done.returncode, lines, list(csv.DictReader(body)), done.stderr


def check_builds(d, failures):
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
    unchecked = [steady[0], ('scan', 'single_pass', 1 << 24, '', 1.0, 0, 0, 0)]
    rc, out = run(d, steady, unchecked)
    if rc != 1 or 'check failed in NEW' not in out or '1 failed their check in NEW' not in out:
        failures.append(f'ours as fast but its check failed in NEW: rc {rc}\n{out}')
    # The sweep at block 128 in both, at 256 in BASE alone; a part NEW lacks (merge_keys).
    sweep = [('sweep_scan', 'single_pass', 1 << 24, '', 0.9, 0, 128)]
    base = steady + sweep + [('sweep_scan', 'single_pass', 1 << 24, '', 0.8, 0, 256),
                             ('merge_keys', 'ours', 1 << 24, '', 1.0, 0)]
    rc, out = run(d, base, steady + sweep)
    if rc != 0 or '2 rows of ours compared, 0 outside' not in out or '2 rows in' not in out or 'alone, 0 in' not in out:
        failures.append(f'the sweep at another block size and a part NEW lacks, alone in BASE: rc {rc}\n{out}')


def check_merge(d, failures):
    cub, ours = ('scan', 'cub', 1 << 24, ''), ('scan', 'single_pass', 1 << 24, '')
    rc, lines, rows, err = merge(d, *[[ours + (ms, 0)] for ms in (1.0, 5.0, 2.0)])
    if rc != 0 or [r['median_ms'] for r in rows] != ['2.000000'] or err:
        failures.append(f'--merge of 1, 5, 2 ms is not their median 2 (nothing on stderr): rc {rc}\n{lines}\n{err}')
    if lines[:2] != ['# gpu: test', ','.join(anchors.COLUMNS)]:
        failures.append(f'--merge: not the first file\'s comments, then anchors.COLUMNS: {lines[:2]}')
    # Run 1 lacks ours (its part cut short), run 2 says ours failed its check, run 3 alone has sort_keys.
    sort = ('sort_keys', 'cub', 1 << 24, 'uniform', 3.0, 1)
    rc, lines, rows, err = merge(d, [cub + (1.0, 1)], [cub + (1.2, 1), ours + (0.8, 0, 0, 0)],
                                 [cub + (1.1, 1), ours + (0.6, 0), sort])
    got = [(r['operation'], r['implementation'], r['median_ms'], r['ratio_to_anchor'], r['fastest_library'], r['ok'])
           for r in rows]
    expected = [('scan', 'cub', '1.100000', '1.0000', 'cub', '1'),
                ('scan', 'single_pass', '0.700000', '1.5714', 'cub', '0'),
                ('sort_keys', 'cub', '3.000000', '1.0000', 'cub', '1')]
    if rc != 0 or got != expected:
        failures.append(f'--merge with points missing from runs: rc {rc}\n  got      {got}\n  expected {expected}')
    said = 'compare_bench.py --merge: 2 of 3 points not in all 3 runs (operations scan, sort_keys)'
    if not err.startswith(said):
        failures.append(f'--merge with points missing from runs: stderr does not begin {said!r}:\n{err}')
    done = subprocess.run([sys.executable, TOOL, '--merge'], capture_output=True, text=True)
    if done.returncode != 2 or 'usage' not in done.stderr or done.stdout:
        failures.append(f'--merge of no file: rc {done.returncode} (2 expected)\n{done.stderr}')


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
        check_builds(d, failures)
        check_merge(d, failures)
        check_ratios(d, failures)
    print('\n'.join(failures) if failures else 'compare_bench: every case as expected')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

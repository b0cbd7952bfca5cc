#!/usr/bin/env python3
"""bench/nvbench/nvbench_to_csv.py on hand-made NVBench JSON files (tests/tools/fixtures/nvbench_*.json,
laid out as NVBench's json_printer writes them: numbers of summaries and axis values as strings, a
power-of-two axis's value as 2^k itself, a skipped state's summaries null).

nvbench_clean.json: a copy at 2^20 and 2^24, scan/cub on a power-of-two axis n and scan/single_pass on
a plain one at 2^20 and 2^22 (block 256), compact/cub and compact/single_pass with a param axis and a
type axis, its byte and item rates at the mean time as NVBench writes them. Its CSV must have
sc_bench's columns and these exact rows (ms from seconds, rates at the median, pct_of_copy at
the same n or of the largest copy, the ratios anchors.py gives), no warning, exit 0; anchors.py must
accept it and recompute the same ratios. The same file with one check 0, or without one check, or
with a state's max_noise below its noise, must exit 1, 1 and 0 with the warning.
nvbench_problems.json: a skipped state (left out, its reason named), a median missing (the mean, with
a warning), a noisy state (and one under the run's --max-noise 1 that is not), a failed check, a
state without sc/check/ok, a throttled state, and a meta timestamp (not NVBench's: the date's
source where one is given). nvbench_two_devices.json and nvbench_no_benchmark.json exit 1 and write
nothing."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')
TOOL = os.path.join(ROOT, 'bench', 'nvbench', 'nvbench_to_csv.py')
ANCHORS = os.path.join(ROOT, 'bench', 'plot', 'anchors.py')
FIXTURES = os.path.join(HERE, 'fixtures')
MTIME = 1796180100  # the clean fixture's copy is dated here: no timestamp in its meta

# nvbench_clean.json's CSV rows, worked out by hand from its summaries.
CLEAN_ROWS = [
    'copy,cudaMemcpyAsync,1048576,,0.004000,2097.15,262144000000,,,100.00,0,0,1,',
    'copy,cudaMemcpyAsync,16777216,,0.050000,2684.35,335544320000,,,100.00,0,0,1,',
    'scan,cub,1048576,,0.010000,838.86,104857600000,,1.0000,40.00,0,1,1,cub',
    'scan,cub,4194304,,0.020000,1677.72,209715200000,,1.0000,62.50,0,1,1,cub',
    'scan,single_pass,1048576,,0.008000,1048.58,131072000000,,1.2500,50.00,256,0,1,cub',
    'scan,single_pass,4194304,,0.025000,1342.18,167772160000,,0.8000,50.00,256,0,1,cub',
    'compact,cub,1048576,5;T=I32,0.010000,,104857600000,,1.0000,,0,1,1,cub',
    'compact,single_pass,1048576,5;T=I32,0.005000,1200.00,209715200000,,2.0000,57.22,128,0,1,cub',
]


def run(*args):
    done = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def report_columns():
    """bench/report.h's kCsvColumns, the columns sc_bench writes (its string literals joined)."""
    with open(os.path.join(ROOT, 'bench', 'report.h')) as f:
        text = f.read()
    literal = re.search(r'kCsvColumns\[\] =\s*((?:"[^"]*"\s*)+);', text).group(1)
    return ''.join(re.findall(r'"([^"]*)"', literal)).replace('\\n', '')


def split(text):
    """(comment lines, column line, row lines, rows as dicts) of a CSV's text."""
    lines = text.splitlines()
    comments = [line for line in lines if line.startswith('#')]
    body = [line for line in lines if not line.startswith('#')]
    return comments, body[0] if body else '', body[1:], list(csv.DictReader(body))


def row(rows, operation, implementation, n):
    return next((r for r in rows if (r['operation'], r['implementation'], r['n']) == (operation, implementation, n)),
                None)


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def state_of(doc, bench, n):
    b = next(b for b in doc['benchmarks'] if b['name'] == bench)
    return next(s for s in b['states'] if any(a['name'] == 'n' and a['value'] == n for a in s['axis_values']))


def check_clean(d, failures):
    path, out = os.path.join(d, 'clean.json'), os.path.join(d, 'clean.csv')
    shutil.copy(os.path.join(FIXTURES, 'nvbench_clean.json'), path)
    os.utime(path, (MTIME, MTIME))
    rc, _, err = run(path, '--out', out)
    if rc != 0:
        failures.append(f'clean fixture: exit {rc}, expected 0\n{err}')
    if err != '8 rows, 0 skipped, 0 noisy, 0 throttled, 0 failed checks\n':
        failures.append(f'clean fixture: stderr is not the summary line alone:\n{err}')
    if not os.path.exists(out):
        failures.append('clean fixture: no CSV written')
        return
    with open(out) as f:
        comments, columns, lines, rows = split(f.read())
    date = time.strftime('%Y-%m-%d %H:%M', time.localtime(MTIME))
    if comments[:1] != [f'# gpu: NVIDIA H200, {date}']:
        failures.append(f'clean fixture: first line is not "# gpu: NVIDIA H200, {date}" (the mtime): {comments}')
    second = comments[1] if len(comments) > 1 else ''
    if not (second.startswith('# NVIDIA H200 (sm_90), 132 SMs, L2 60.0 MiB, 139.8 GiB; NVBench 0.1.0')
            and 'from NVBench JSON' in second):
        failures.append(f'clean fixture: device line is not the GPU, its SMs, L2, memory and NVBench: {second!r}')
    if columns != report_columns():
        failures.append(f'clean fixture: columns\n  {columns}\nare not bench/report.h\'s\n  {report_columns()}')
    named = [
        ('n of the power-of-two axis 2^22 is 4194304', row(rows, 'scan', 'cub', '4194304'), 'n', '4194304'),
        ('median_ms is the median in ms (1e-05 s)', row(rows, 'scan', 'cub', '1048576'), 'median_ms', '0.010000'),
        ('pct_of_copy at the same n (2^20)', row(rows, 'scan', 'single_pass', '1048576'), 'pct_of_copy', '50.00'),
        ('pct_of_copy of the largest copy (2^24) where no copy at 2^22', row(rows, 'scan', 'cub', '4194304'),
         'pct_of_copy', '62.50'),
        ('ratio_to_anchor: cub 0.01 ms / single_pass 0.008 ms', row(rows, 'scan', 'single_pass', '1048576'),
         'ratio_to_anchor', '1.2500'),
        ('fastest_library', row(rows, 'scan', 'single_pass', '4194304'), 'fastest_library', 'cub'),
        ('anchor 1 for cub', row(rows, 'scan', 'cub', '1048576'), 'anchor', '1'),
        ('anchor 0 for ours', row(rows, 'scan', 'single_pass', '1048576'), 'anchor', '0'),
        ('block_size from the axis block', row(rows, 'compact', 'single_pass', '1048576'), 'block_size', '128'),
        ('param from the axis param, the type axis appended', row(rows, 'compact', 'cub', '1048576'), 'param',
         '5;T=I32'),
        ('gbps blank without bytes_per_second', row(rows, 'compact', 'cub', '1048576'), 'gbps', ''),
        ('items_per_s from item_rate', row(rows, 'copy', 'cudaMemcpyAsync', '16777216'), 'items_per_s',
         '335544320000'),
    ]
    for what, r, column, expected in named:
        if r is None or r[column] != expected:
            failures.append(f'clean fixture: {what}: {column} is {r and r[column]!r}, expected {expected!r}')
    if lines != CLEAN_ROWS:
        failures.append('clean fixture: rows differ:\n  got\n    ' + '\n    '.join(lines) +
                        '\n  expected\n    ' + '\n    '.join(CLEAN_ROWS))
    check_anchors_accept(d, out, rows, failures)


def check_anchors_accept(d, out, rows, failures):
    """anchors.py reads the CSV and, recomputing every ratio over it, finds the ones written."""
    merged = os.path.join(d, 'merged.csv')
    done = subprocess.run([sys.executable, ANCHORS, out, '--out', merged], capture_output=True, text=True)
    if done.returncode != 0 or 'libraries: cub' not in done.stderr:
        failures.append(f'anchors.py on the CSV: exit {done.returncode}\n{done.stderr}')
        return
    with open(merged) as f:
        again = split(f.read())[3]
    columns = ('ratio_to_anchor', 'fastest_library', 'anchor')
    if [[r[c] for c in columns] for r in again] != [[r[c] for c in columns] for r in rows]:
        failures.append('anchors.py recomputes other ratios, fastest libraries or anchors than the CSV has')


def check_clean_variants(d, failures):
    """The clean fixture with one check 0, one check missing, one state's max_noise under its noise."""
    def variant(name, change):
        doc = fixture('nvbench_clean.json')
        change(state_of(doc, 'scan/single_pass', '1048576'))
        path = os.path.join(d, name + '.json')
        with open(path, 'w') as f:
            json.dump(doc, f)
        rc, out, err = run(path)
        return rc, row(split(out)[3], 'scan', 'single_pass', '1048576'), err

    def set_check(state, value):
        next(s for s in state['summaries'] if s['tag'] == 'sc/check/ok')['data'][0]['value'] = value

    rc, r, err = variant('failed_check', lambda s: set_check(s, '0'))
    if rc != 1 or r is None or r['ok'] != '0' or 'check failed' not in err or '1 failed checks' not in err:
        failures.append(f'one check 0: exit {rc} (1 expected), ok {r and r["ok"]}\n{err}')
    rc, r, err = variant('unchecked',
                         lambda s: s.update(summaries=[x for x in s['summaries'] if x['tag'] != 'sc/check/ok']))
    if rc != 1 or r is None or r['ok'] != '0' or 'no sc/check/ok' not in err:
        failures.append(f'one check missing: exit {rc} (1 expected), ok {r and r["ok"]}\n{err}')
    # Older NVBench wrote max_noise into each state: 0.05% under the state's 0.1% noise.
    rc, r, err = variant('state_max_noise', lambda s: s.update(max_noise=0.0005))
    noisy = [line for line in err.splitlines() if 'noisy:' in line]
    if rc != 0 or len(noisy) != 1 or 'scan/single_pass [Device=0 n=1048576 block=256]' not in noisy[0]:
        failures.append(f'a state\'s max_noise 0.05% under its noise 0.1%: exit {rc}, noisy lines {noisy}\n{err}')


def check_problems(failures):
    rc, out, err = run(os.path.join(FIXTURES, 'nvbench_problems.json'))  # to stdout
    comments, _, _, rows = split(out)
    lines = err.splitlines()
    if rc != 1:
        failures.append(f'problems fixture: exit {rc}, expected 1 (a failed check, a missing one)')
    if comments[:1] != ['# gpu: NVIDIA H200, 2026-12-02 03:35']:
        failures.append(f'problems fixture: the date is not meta.timestamp\'s 2026-12-02 03:35: {comments[:1]}')
    if any(r['n'] == '268435456' for r in rows) or not any(
            'scan/cub [Device=0 n=2^28]: skipped: Not enough device memory for n = 2^28' in line for line in lines):
        failures.append(f'problems fixture: the skipped state (2^28) is in the CSV or not named with its reason\n{err}')
    noisy = [line for line in lines if 'noisy:' in line]
    if len(noisy) != 1 or 'scan/single_pass [Device=0 n=1048576]' not in noisy[0]:
        failures.append(f'problems fixture: noisy lines are not just single_pass at 2^20 (3% > --max-noise 1%; '
                        f'cub at 2^20 has 0.8%): {noisy}')
    throttled = [line for line in lines if 'throttled:' in line]
    if len(throttled) != 1 or 'scan/lookback [Device=0 n=2^22]' not in throttled[0]:
        failures.append(f'problems fixture: throttled lines are not just lookback at 2^22 (clock 62%): {throttled}')
    mean = row(rows, 'scan', 'cub', '4194304')
    if mean is None or mean['median_ms'] != '0.021000' or not any(
            'scan/cub [Device=0 n=2^22]' in line and 'mean' in line for line in lines):
        failures.append(f'problems fixture: without a median, median_ms is not the mean 0.021 ms with a warning: '
                        f'{mean and mean["median_ms"]}\n{err}')
    expected_ok = {('scan', 'lookback', '1048576'): '0', ('scan', 'single_pass', '4194304'): '0',
                   ('scan', 'single_pass', '1048576'): '1', ('scan', 'lookback', '4194304'): '1'}
    for key, ok in expected_ok.items():
        r = row(rows, *key)
        if r is None or r['ok'] != ok:
            failures.append(f'problems fixture: {key} ok is {r and r["ok"]}, expected {ok}')
    if not any('scan/lookback [Device=0 n=2^20]: no sc/check/ok' in line for line in lines):
        failures.append(f'problems fixture: no warning for the state without sc/check/ok\n{err}')
    if lines[-1:] != ['8 rows, 1 skipped, 1 noisy, 1 throttled, 2 failed checks']:
        failures.append(f'problems fixture: last stderr line is not the summary: {lines[-1:]}')


def check_refused(d, failures):
    for name, reason in (('nvbench_two_devices.json', 'more than one device'),
                         ('nvbench_no_benchmark.json', 'no benchmark')):
        out = os.path.join(d, name + '.csv')
        rc, _, err = run(os.path.join(FIXTURES, name), '--out', out)
        if rc != 1 or reason not in err or os.path.exists(out):
            failures.append(f'{name}: exit {rc} (1 expected), CSV written: {os.path.exists(out)}\n{err}')


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        check_clean(d, failures)
        check_clean_variants(d, failures)
        check_problems(failures)
        check_refused(d, failures)
    print('\n'.join(failures) if failures else 'nvbench_to_csv: every case as expected')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""bench/nvbench/nvbench_to_csv.py on hand-made NVBench JSON files (tests/tools/fixtures/nvbench_*.json,
laid out as NVBench's json_printer writes them: numbers of summaries and axis values as strings, a
power-of-two axis's value as 2^k itself, a skipped state's summaries null).

nvbench_clean.json: a copy at 2^20 and 2^24, scan/cub on a power-of-two axis n and scan/single_pass on
a plain one at 2^20 and 2^22 (block 256), compact/cub and compact/single_pass with a param axis and a
type axis, its byte and item rates at the mean time as NVBench writes them. Its CSV must have
the columns of sc_bench's CSVs in bench/results (SC_BENCH_COLUMNS) and these exact rows (ms from
seconds, rates at the median, pct_of_copy at the same n or of the largest copy, the ratios to the
fastest library), no warning, exit 0; anchors.annotate on the CSV's own times, as plot.py and
compare_bench.py recompute them, must find the ratios, fastest libraries and anchor column written
(a CSV with one ratio changed must not pass that check). The same file with one check 0, or without
one check, or with a state's max_noise below its noise, must exit 1, 1 and 0 with the warning.
nvbench_problems.json: a skipped state (left out, its reason named), a median missing (the mean, with
a warning), a noisy state (and one under the run's --max-noise 1 that is not), a failed check, a
state without sc/check/ok, a throttled state, and a meta timestamp (not NVBench's: the date's
source where one is given). nvbench_two_devices.json and nvbench_no_benchmark.json exit 1 and write
nothing.
nvbench_family_a.json and nvbench_family_b.json: two families' runs on one H200, as one process per
family writes them. a: a copy, scan/cub and scan/single_pass at 2^24, under its own --max-noise 2 (its
scan/cub's 1% noise is not noisy there). b: unique/cub (1% noise, noisy under the default 0.5%) and
unique/ours at 2^24, and spmv_float/auto and spmv_float/cusparse_alg1 on a param axis of two matrices,
without an axis n: n is their sc/n, and auto's rows are named by their sc/implementation, a kernel of
each matrix; auto's small_fem state has an sc/flops (2 per nonzero), its row's gflops, the others none;
and bfs/cpu_1_thread, a CPU-only benchmark (its nv/cpu_only/ times and rate; the header says so; its
state's device, 7, what NVBench writes of the none it has, left unread: still one GPU), and bfs/ours
with an sc/levels (a second row, bfs_per_level: n the levels, the time per level); and
spmv_float_graph/cusparse_alg1, a run of 10 calls (sc/calls_per_run: its time per call, its rates and
gflops the run's). A 0 there leaves the state out. Both files in one CSV, given as a b and as b a: each file's rows in the order given;
pct_of_copy of b's rows is of a's copy, the ratios of the SpMV rows are to cuSPARSE at each matrix, the
date is the later file's (a's) either way, the second line says "from 2 NVBench JSON files"; b alone has
no pct_of_copy. Refused, exit 1, nothing written: nvbench_other_gpu.json (an A100) with a, b on an
"NVIDIA H200" of other SMs, a and b with two UUIDs, a given twice (each point twice), a file missing,
cut short (not JSON), a JSON list, or nvbench_no_benchmark.json. b under device id 1, or a with a UUID
and b without, is still a's GPU. b's states with an sc/n other than their axis n, an empty
sc/implementation, or neither n nor sc/n are left out, each named: exit 1, the other rows written."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')
TOOL = os.path.join(ROOT, 'bench', 'nvbench', 'nvbench_to_csv.py')
FIXTURES = os.path.join(HERE, 'fixtures')
sys.path.insert(0, os.path.join(ROOT, 'bench', 'plot'))
import anchors  # noqa: E402  (the libraries and the ratio to the fastest of them, as the CSV's readers take them)

# The columns of the CSVs that sc_bench wrote into bench/results from 2026-11-23 on, which the tools
# read beside nvbench_to_csv.py's (written out here, not taken from anchors.COLUMNS, which the tool writes).
SC_BENCH_COLUMNS = ('operation,implementation,n,param,median_ms,gbps,items_per_s,gflops,ratio_to_anchor,'
                    'pct_of_copy,block_size,anchor,ok,fastest_library')
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

# nvbench_family_a.json's rows, then nvbench_family_b.json's, worked out by hand from their summaries:
# pct_of_copy of a's copy at 2^24 (2684.35 GB/s), the largest; the SpMV rows' n of sc/n.
FAMILY_A_ROWS = [
    'copy,cudaMemcpyAsync,16777216,,0.050000,2684.35,335544320000,,,100.00,0,0,1,',
    'scan,cub,16777216,,0.080000,1677.72,209715200000,,1.0000,62.50,0,1,1,cub',
    'scan,single_pass,16777216,,0.065000,2064.89,258111015385,,1.2308,76.92,256,0,1,cub',
]
FAMILY_B_ROWS = [
    'unique,cub,16777216,mean 4,0.100000,1006.63,167772160000,,1.0000,37.50,0,1,1,cub',
    'unique,ours,16777216,mean 4,0.075000,1342.18,223696213333,,1.3333,50.00,0,0,1,cub',
    'spmv_float,auto:vector_csr/16,146880,small_fem,0.010000,122.42,14688000000,29.38,1.2500,4.56,0,0,1,'
    'cusparse_alg1',
    'spmv_float,auto:merge_path,20963328,poisson_2d_2048,0.200000,1090.19,104816640000,,0.8000,40.61,0,0,1,'
    'cusparse_alg1',
    'spmv_float,cusparse_alg1,146880,small_fem,0.012500,97.94,11750400000,,1.0000,3.65,0,1,1,cusparse_alg1',
    'spmv_float,cusparse_alg1,20963328,poisson_2d_2048,0.160000,1362.74,131020800000,,1.0000,50.77,0,1,1,'
    'cusparse_alg1',
    'bfs,cpu_1_thread,1000000,luxembourg_osm,2.000000,,1050000000,,,,0,0,1,',
    'bfs,ours,1000000,luxembourg_osm,2.500000,,400000000,,,,0,0,1,',
    'bfs_per_level,ours,1000,luxembourg_osm,0.002500,,,,,,0,0,1,',
    'spmv_float_graph,cusparse_alg1,146880,small_fem,0.012500,97.94,11750400000,23.50,1.0000,3.65,0,1,1,'
    'cusparse_alg1',
]
MACHINE = '# NVIDIA H200 (sm_90), 132 SMs, L2 60.0 MiB, 139.8 GiB; NVBench 0.1.0 (66212f1), '
NOISY_UNIQUE = ('nvbench_to_csv.py: unique/cub [Device=0 n=2^24 param=mean 4]: noisy: relative stdev 1.00% '
                'above max-noise 0.50% (relative IQR 1.50%)')
H200 = 'NVIDIA H200 (sm_version 900, number_of_sms 132, global_memory_size 150110011392)'


def run(*args):
    done = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


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
    if columns != SC_BENCH_COLUMNS:
        failures.append(f'clean fixture: columns\n  {columns}\nare not sc_bench\'s\n  {SC_BENCH_COLUMNS}')
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
    check_recomputed('clean fixture', rows, failures)
    # The check itself: one ratio changed (single_pass at 2^20: 1.25 written) must be the one it finds.
    changed = [dict(r, ratio_to_anchor='1.2600') if r is row(rows, 'scan', 'single_pass', '1048576') else r
               for r in rows]
    found = recomputed_differences(changed)
    if [(r['implementation'], r['n']) for r, _ in found] != [('single_pass', '1048576')]:
        failures.append(f'a ratio changed from 1.2500 to 1.2600 is not the one difference found: {found}')


def recomputed_differences(rows):
    """[(row, recomputed)] of the rows (a CSV's, dicts of strings) whose ratio_to_anchor, fastest_library
    or anchor differ from what anchors.annotate gives on the CSV's own times (as plot.py and
    compare_bench.py recompute them) and from anchors.is_library of the implementation."""
    typed = anchors.annotate([dict(operation=r['operation'], implementation=r['implementation'], n=int(r['n']),
                                   param=r['param'], ms=float(r['median_ms']), anchor=r['anchor'] == '1')
                              for r in rows])
    found = []
    for r, t in zip(rows, typed):
        again = {'ratio_to_anchor': '' if t['ratio'] is None else f"{t['ratio']:.4f}",
                 'fastest_library': t['fastest'] or '',
                 'anchor': '1' if anchors.is_library(r['implementation']) else '0'}
        if any(r[column] != value for column, value in again.items()):
            found.append((r, again))
    return found


def check_recomputed(what, rows, failures):
    for r, again in recomputed_differences(rows):
        failures.append(f"{what}: {r['operation']}/{r['implementation']} n={r['n']} param={r['param']!r}: "
                        f"the CSV's ratio, fastest library and anchor are not those recomputed from its times: "
                        f"{ {c: r[c] for c in again} } against {again}")


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


def families(d):
    """Copies of the two family fixtures in `d`, a dated two hours after b (the mtimes: no timestamp)."""
    paths = []
    for name, mtime in (('nvbench_family_a.json', MTIME + 7200), ('nvbench_family_b.json', MTIME)):
        path = os.path.join(d, name)
        shutil.copy(os.path.join(FIXTURES, name), path)
        os.utime(path, (mtime, mtime))
        paths.append(path)
    return paths


def check_families(d, failures):
    a, b = families(d)
    date = time.strftime('%Y-%m-%d %H:%M', time.localtime(MTIME + 7200))  # a's, the later
    for order, expected in (((a, b), FAMILY_A_ROWS + FAMILY_B_ROWS), ((b, a), FAMILY_B_ROWS + FAMILY_A_ROWS)):
        what = 'families ' + ' '.join(os.path.basename(p) for p in order)
        out = os.path.join(d, 'families.csv')
        rc, _, err = run(*order, '--out', out)
        if rc != 0 or err != NOISY_UNIQUE + '\n13 rows, 0 skipped, 1 noisy, 0 throttled, 0 failed checks\n':
            failures.append(f'{what}: exit {rc} (0 expected), stderr is not unique/cub\'s noise (a\'s scan/cub '
                            f'is under a\'s --max-noise 2) and the summary of 13 rows:\n{err}')
        if not os.path.exists(out):
            failures.append(f'{what}: no CSV written')
            continue
        with open(out) as f:
            comments, columns, lines, rows = split(f.read())
        header = [f'# gpu: NVIDIA H200, {date}',
                  MACHINE + "from 2 NVBench JSON files; median of the cold GPU times; of the CPU times, CPU-only "
                  "benchmarks'"]
        if comments != header:
            failures.append(f'{what}: header is not the later date (a\'s) and "from 2 NVBench JSON files":\n'
                            f'  {comments}\n  expected {header}')
        if columns != SC_BENCH_COLUMNS:
            failures.append(f'{what}: columns are not sc_bench\'s: {columns}')
        if lines != expected:
            failures.append(f'{what}: rows differ:\n  got\n    ' + '\n    '.join(lines) +
                            '\n  expected\n    ' + '\n    '.join(expected))
        check_recomputed(what, rows, failures)
        os.remove(out)  # the next order must write its own
    rc, out, err = run(b)
    comments, _, _, rows = split(out)
    pct = [r['pct_of_copy'] for r in rows]
    b_header = MACHINE + "from NVBench JSON; median of the cold GPU times; of the CPU times, CPU-only benchmarks'"
    if rc != 0 or comments[1:] != [b_header] or pct != [''] * 10:
        failures.append(f'family b alone: exit {rc}, second line {comments[1:]}, pct_of_copy {pct} '
                        f'(blank expected: its copy is a\'s)\n{err}')


def refused(what, rc, err, out, expected, failures):
    """A run that must exit 1 with stderr `expected` exactly and write no CSV at `out`."""
    if rc != 1 or err != expected or os.path.exists(out) or 'Traceback' in err:
        failures.append(f'{what}: exit {rc} (1 expected), CSV written: {os.path.exists(out)}, stderr\n  {err!r}\n'
                        f'expected\n  {expected!r}')


def variant_of_b(d, name, change):
    doc = fixture('nvbench_family_b.json')
    change(doc)
    path = os.path.join(d, name + '.json')
    with open(path, 'w') as f:
        json.dump(doc, f)
    return path


def spmv_state(doc, bench, matrix):
    b = next(b for b in doc['benchmarks'] if b['name'] == bench)
    return next(s for s in b['states'] if s['axis_values'][0]['value'] == matrix)


def set_summary(state, tag, value):
    next(s for s in state['summaries'] if s['tag'] == tag)['data'][0]['value'] = value


def check_family_gpus(d, failures):
    """Files of one GPU pass, by its properties not its id; of two GPUs, they are refused."""
    a, b = families(d)
    out = os.path.join(d, 'gpus.csv')
    other = os.path.join(FIXTURES, 'nvbench_other_gpu.json')
    a100 = 'NVIDIA A100-SXM4-80GB (sm_version 800, number_of_sms 108, global_memory_size 85095874560)'
    rc, _, err = run(a, other, '--out', out)
    refused('a with nvbench_other_gpu.json (an A100)', rc, err, out,
            f"nvbench_to_csv.py: {a} ran on {H200}, {other} on {a100}: one CSV is one GPU's\n", failures)

    def more_sms(doc):
        doc['devices'][0]['number_of_sms'] = 114
    fewer = variant_of_b(d, 'b_114_sms', more_sms)
    rc, _, err = run(a, fewer, '--out', out)
    refused('a with b on an "NVIDIA H200" of 114 SMs', rc, err, out,
            f"{NOISY_UNIQUE}\nnvbench_to_csv.py: {a} ran on {H200}, {fewer} on "
            f"{H200.replace('number_of_sms 132', 'number_of_sms 114')}: one CSV is one GPU's\n", failures)

    def device_1(doc):
        doc['devices'][0]['id'] = 1
        for bench in doc['benchmarks']:
            bench['devices'] = [1]
            for state in bench['states']:
                state['device'] = 1
    renumbered = variant_of_b(d, 'b_device_1', device_1)
    rc, _, err = run(a, renumbered, '--out', out)
    if rc != 0 or not os.path.exists(out) or split(open(out).read())[2] != FAMILY_A_ROWS + FAMILY_B_ROWS:
        failures.append(f'a with b under device id 1 (the same H200): exit {rc} (0 expected), or other rows\n{err}')
    if os.path.exists(out):
        os.remove(out)

    # A UUID in both files tells two boards of one model apart; in one file only, the model decides.
    def uuid(value):
        return lambda doc: doc['devices'][0].update(uuid=value)
    with open(a) as f:
        doc_a = json.load(f)
    doc_a['devices'][0]['uuid'] = 'GPU-0a1b2c3d'
    a_uuid = os.path.join(d, 'a_uuid.json')
    with open(a_uuid, 'w') as f:
        json.dump(doc_a, f)
    b_uuid = variant_of_b(d, 'b_uuid', uuid('GPU-4e5f6a7b'))
    rc, _, err = run(a_uuid, b_uuid, '--out', out)
    refused('a and b of two UUIDs', rc, err, out,
            f"{NOISY_UNIQUE}\nnvbench_to_csv.py: {a_uuid} ran on NVIDIA H200 (uuid GPU-0a1b2c3d), {b_uuid} on NVIDIA H200 "
            f"(uuid GPU-4e5f6a7b): one CSV is one GPU's\n", failures)
    rc, _, err = run(a_uuid, b, '--out', out)
    if rc != 0 or not os.path.exists(out):
        failures.append(f'a with a UUID, b without: exit {rc} (0 expected: the model is the same)\n{err}')
    if os.path.exists(out):
        os.remove(out)


def check_family_refused(d, failures):
    """The same points twice, a file that cannot be read, is not JSON or has no benchmark."""
    a, _ = families(d)
    out = os.path.join(d, 'refused.csv')
    rc, _, err = run(a, a, '--out', out)
    refused('a given twice', rc, err, out,
            f"nvbench_to_csv.py: copy/cudaMemcpyAsync n=16777216 param='' block_size=0 is in {a} and in {a} "
            f"(and 2 more points): two rows for one point\n", failures)
    missing = os.path.join(d, 'missing.json')
    rc, _, err = run(a, missing, '--out', out)
    refused('a missing file', rc, err, out,
            f'nvbench_to_csv.py: {missing}: cannot be read: No such file or directory\n', failures)
    garbled = os.path.join(d, 'garbled.json')
    with open(garbled, 'w') as f:
        f.write('{"benchmarks": [')  # a run cut short while writing
    rc, _, err = run(garbled, a, '--out', out)
    refused('a file cut short', rc, err, out,
            f'nvbench_to_csv.py: {garbled}: not JSON: Expecting value: line 1 column 17 (char 16)\n', failures)
    listed = os.path.join(d, 'list.json')
    with open(listed, 'w') as f:
        f.write('[]')
    rc, _, err = run(a, listed, '--out', out)
    refused('a JSON list', rc, err, out,
            f'nvbench_to_csv.py: {listed}: not NVBench JSON (no object at its top)\n', failures)
    empty = os.path.join(FIXTURES, 'nvbench_no_benchmark.json')
    rc, _, err = run(a, empty, '--out', out)
    refused('a with nvbench_no_benchmark.json', rc, err, out, f'nvbench_to_csv.py: {empty} has no benchmark\n',
            failures)


def check_family_states(d, failures):
    """b's states with an sc/n unlike the axis n, an empty sc/implementation, neither n nor sc/n: left out."""
    a, _ = families(d)

    def with_n(value):
        def change(doc):
            state = doc['benchmarks'][0]['states'][0]  # unique/cub at 2^24
            state['summaries'].append({'tag': 'sc/n', 'name': 'n',
                                       'data': [{'name': 'value', 'type': 'int64', 'value': value}]})
        return change

    def empty_implementation(doc):
        set_summary(spmv_state(doc, 'spmv_float/auto', 'small_fem'), 'sc/implementation', '')

    def no_calls(doc):
        set_summary(spmv_state(doc, 'spmv_float_graph/cusparse_alg1', 'small_fem'), 'sc/calls_per_run', '0')

    def no_n(doc):
        state = spmv_state(doc, 'spmv_float/cusparse_alg1', 'poisson_2d_2048')
        state['summaries'] = [s for s in state['summaries'] if s['tag'] != 'sc/n']

    cases = [
        ('b_n_differs', with_n('16777215'), 1, FAMILY_B_ROWS[0],
         'unique/cub [Device=0 n=2^24 param=mean 4]: left out: axis n 16777216 and sc/n 16777215 differ'),
        ('b_empty_implementation', empty_implementation, 1, FAMILY_B_ROWS[2],
         'spmv_float/auto [Device=0 param=small_fem]: left out: sc/implementation is empty'),
        ('b_no_n', no_n, 1, FAMILY_B_ROWS[5], 'spmv_float/cusparse_alg1 [Device=0 param=poisson_2d_2048]: left out: '
         'no axis n'),
        ('b_no_calls', no_calls, 1, FAMILY_B_ROWS[-1], 'spmv_float_graph/cusparse_alg1 [Device=0 param=small_fem]: '
         'left out: sc/calls_per_run (0) is not a whole number of calls'),
        ('b_n_agrees', with_n('16777216'), 0, None, None),
    ]
    for name, change, code, lost, warning in cases:
        out = os.path.join(d, name + '.csv')
        rc, _, err = run(a, variant_of_b(d, name, change), '--out', out)
        lines = split(open(out).read())[2] if os.path.exists(out) else []
        # Without the lost row, the others' ratios may change: compare the points of the rows only.
        points = [line.split(',')[:4] for line in lines]
        expected = [line.split(',')[:4] for line in FAMILY_A_ROWS + FAMILY_B_ROWS if line != lost]
        said = [line for line in err.splitlines() if 'left out' in line]
        if rc != code or points != expected or said != ([f'nvbench_to_csv.py: {warning}'] if warning else []):
            failures.append(f'{name}: exit {rc} ({code} expected), {len(lines)} rows ({len(expected)} expected), '
                            f'left out: {said}\n{err}')


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        check_clean(d, failures)
        check_clean_variants(d, failures)
        check_problems(failures)
        check_refused(d, failures)
        check_families(d, failures)
        check_family_gpus(d, failures)
        check_family_refused(d, failures)
        check_family_states(d, failures)
    print('\n'.join(failures) if failures else 'nvbench_to_csv: every case as expected')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

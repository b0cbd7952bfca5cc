#!/usr/bin/env python3
"""Turns NVBench JSON result files (sc_nvbench_<part> --json RUN.json, one or several, the second CCCL's
sc_nvbench_cccl_next among them) into the benchmarks' CSV: one row a state, the columns of
anchors.COLUMNS (bench/plot/anchors.py), which the CSVs that sc_bench wrote into bench/results have
too, so that bench/plot/plot.py, tools/compare_bench.py and tools/results_tables.py read both alike.

    python3 bench/nvbench/nvbench_to_csv.py RUN.json [RUN2.json ...] [--out OUT.csv]

writes the CSV to OUT.csv (stdout when no --out). Our benchmarks' conventions (bench/nvbench/*.cu):
  - the benchmark's name is <operation>/<implementation> (scan/single_pass, scan/cub, copy/...);
  - the int64 axis n (a power-of-two axis or not: NVBench writes the value, 2^k, not k) is n;
  - the string axis param, if any, is param; the int64 axis block, if any, is block_size (else 0);
    any other axis is appended to param as name=value, joined by ';' (no comma in the CSV's field);
  - a state's string summary sc/implementation, where it has one, is its row's implementation in place
    of the name's: the row names the kernel the state ran, as sc_bench's rows did (spmv_float/auto's Auto
    picks one per matrix: auto:vector_csr/16), while the benchmark keeps one name for all its states,
    which -b selects. Empty, the state is left out;
  - a state without the axis n takes n from its int64 summary sc/n: a matrix's nonzeros are fixed by
    the param axis (the matrix), so they cannot be an axis of their own, crossed with it. A state with
    both is left out where they differ. bench/nvbench/spmv.cu writes sc/implementation and sc/n;
  - median_ms is NVBench's nv/cold/time/gpu/median (its mean, with a warning, where a JSON has no
    median); gbps and items_per_s are nv/cold/bw/global/bytes_per_second / 1e9 and nv/cold/bw/item_rate
    taken to the median (NVBench divides by the mean time: both times mean / median), blank where the
    benchmark counted no bytes or items; a CPU-only benchmark's (set_is_cpu_only: the CPU anchors of
    the bfs and neighbors parts) are its nv/cpu_only/... CPU times and rates instead, the median
    nv/cpu_only/time/cpu/median (it has no SM clock: never throttled); gflops is the state's summary
    sc/flops (the floating-point operations of one run, which NVBench has no counter of:
    bench/nvbench/spmv.cu writes 2 per nonzero, as sc_bench counted them) over the median time, blank
    without it; a state with an int64 summary sc/levels (bench/nvbench/bfs.cu: the search's depth) has
    a second row, <operation>_per_level (sc_bench's row): n the levels, the time per level, no rates; a
    state with an int64 summary sc/calls_per_run (spmv.cu's graph rows: a replayed graph of 10 calls a
    run) has median_ms per call, its rates and gflops as they are (its bytes, items and sc/flops count
    the whole run); a CPU-only state's device is none (NVBench gives it none: what its JSON says there
    is left unread);
  - ok is the summary sc/check/ok that bench/nvbench/check.cuh records (1: every output item of the
    state checked and right); a state without it is not trusted: ok 0, with a warning;
  - anchor is 1 for a library's row (anchors.is_library of the implementation); ratio_to_anchor and
    fastest_library are anchors.annotate's: the fastest library's time at the point over the row's;
    pct_of_copy is 100 * gbps / the copy's GB/s at the same n, else at the largest n the copy ran.
Several files make one CSV: the benchmarks run as one program per part, one JSON each, so that a run
cut short by a time limit loses only its own part. The rows are each file's in turn, in the order
given; a file's --max-noise and --throttle-threshold are those of its own command line (meta.argv).
pct_of_copy and the ratios are worked out over the rows of all files: the copy, or the library of a
point (another CCCL's CUB: sc_nvbench_cccl_next's file), may be in another part's file. The files
must be of one GPU. They are compared by what their devices[] say of the device their states ran
on, not by its id (ids restart at 0 in every run): its name, with the PCI or UUID fields both files
have (NVBench writes none today), else with its SM version, SMs and memory size, so two boards of
one model pass as one. A point (operation, implementation, n, param, block_size) in two files is
refused: it would be two rows for one point. The header is in sc_bench's form (results_tables.py
reads its first line): "# gpu: <GPU>, <date>" (meta's timestamp where there is one: NVBench writes
none; else the JSON file's mtime; of several files, the latest date), then the GPU, its SMs, L2 and
memory (devices[]) and NVBench's version, the first file's; of several files it says how many.
Skipped states are left out, each named on stderr with NVBench's reason. Also named on stderr: every
state whose noise (relative standard deviation of its cold GPU times, what NVBench's default stdrel
criterion compares with --max-noise) is above its max-noise or unknown, and every state that ran
throttled: mean SM clock below the throttle threshold (NVBench discards the samples it finds
throttled and says so only in its log, not in the JSON), or no sample kept at all. The last stderr
line counts them over all files: "N rows, K skipped, W noisy, T throttled, F failed checks".
Exit code 1 when a row has ok 0 or a state could not be converted (no n, no time, a name without '/',
an empty sc/implementation, sc/n other than the axis n). Exit code 1, and no CSV written, when a file
cannot be read, is not JSON or has no benchmark, a file's states ran on more than one GPU, the files
ran on different GPUs, or a point is in two files. Else 0. Standard library only.
"""
import argparse
import csv
import datetime
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'plot'))
import anchors  # noqa: E402  (which rows are libraries, the ratio to the fastest of them, the columns)

PROGRAM = 'nvbench_to_csv.py'
MEDIAN = 'nv/cold/time/gpu/median'
MEAN = 'nv/cold/time/gpu/mean'
NOISE = 'nv/cold/time/gpu/stdev/relative'
IQR = 'nv/cold/time/gpu/iqr/relative'
SAMPLES = 'nv/cold/sample_size'
BYTES_PER_SECOND = 'nv/cold/bw/global/bytes_per_second'
ITEM_RATE = 'nv/cold/bw/item_rate'
CLOCK_SCALING = 'nv/cold/sm_clock_rate/scaling/percent'  # mean SM clock / default clock, a fraction
# A CPU-only benchmark's (NVBench's set_is_cpu_only: the CPU anchors of the bfs and neighbors parts)
# summaries in place of the cold GPU measurement's: its times are the CPU's, and it has no SM clock.
CPU_ONLY = {MEDIAN: 'nv/cpu_only/time/cpu/median', MEAN: 'nv/cpu_only/time/cpu/mean',
            NOISE: 'nv/cpu_only/time/cpu/stdev/relative', IQR: 'nv/cpu_only/time/cpu/iqr/relative',
            SAMPLES: 'nv/cpu_only/sample_size', BYTES_PER_SECOND: 'nv/cpu_only/bw/global/bytes_per_second',
            ITEM_RATE: 'nv/cpu_only/bw/item_rate'}
CHECK = 'sc/check/ok'
IMPLEMENTATION = 'sc/implementation'  # the kernel the state ran, where its benchmark's name does not say
COUNT = 'sc/n'  # n, where it cannot be an axis
FLOPS = 'sc/flops'  # the floating-point operations of one run
LEVELS = 'sc/levels'  # the levels of one search (bfs), whose time per level is a row of its own
CALLS = 'sc/calls_per_run'  # the calls one timed run makes (a replayed graph of several), the row's time per call
# NVBench's defaults where neither the state nor the run's command line sets them: stdrel's
# max-noise (0.5%) and benchmark_base.cuh's throttle threshold (75% of the default SM clock).
DEFAULT_MAX_NOISE = 0.005
DEFAULT_THROTTLE_THRESHOLD = 0.75
AXES_OF_COLUMNS = ('n', 'param', 'block')
# A device's fields that tell one board from another (none in NVBench's JSON today), and those that
# tell its model where no such field is in both files.
BOARD_FIELDS = ('uuid', 'pci_domain_id', 'pci_bus_id', 'pci_device_id')
MODEL_FIELDS = ('sm_version', 'number_of_sms', 'global_memory_size')


def warn(message):
    print(f'{PROGRAM}: {message}', file=sys.stderr)


def summary(state, tag):
    """The state's summary of `tag` (a dict), or None."""
    return next((s for s in state.get('summaries') or [] if s.get('tag') == tag), None)


def is_cpu_only(state):
    """Whether the state was measured on the CPU alone: CPU-only times, and no cold GPU time."""
    return summary(state, MEAN) is None and any(summary(state, tag) for tag in CPU_ONLY.values())


def measured(state, tag):
    """The summary `tag` (a cold GPU measurement's) of the state, or its CPU-only counterpart."""
    return summary(state, CPU_ONLY[tag] if tag in CPU_ONLY and is_cpu_only(state) else tag)


def number(found, name='value'):
    """The float of a summary's entry `name`: NVBench writes numbers as strings ("inf" when it has no
    estimate; older versions wrote null for it, read as inf). None where the summary is missing."""
    if found is None:
        return None
    entry = next((d for d in found.get('data') or [] if d.get('name') == name), None)
    if entry is None:
        return None
    return math.inf if entry.get('value') is None else float(entry['value'])


def text(found, name='value'):
    """The string of a summary's entry `name`, as NVBench writes it (an int64 too: exact, not through a
    float); None where the summary or its entry is missing."""
    entry = next((d for d in (found or {}).get('data') or [] if d.get('name') == name), None)
    return None if entry is None or entry.get('value') is None else str(entry['value'])


def option(argv, flag, bench, index):
    """The last value of `flag` on the run's command line (meta.argv) that applies to this benchmark:
    NVBench applies an option to the --benchmark (-b, by name or index) before it, or to every
    benchmark when none is before it. None when not given."""
    scoped, current = {}, None
    for i, arg in enumerate(argv[:-1]):
        if arg in ('--benchmark', '-b'):
            current = argv[i + 1]
        elif arg == flag:
            scoped[current] = argv[i + 1]
    for key in (bench.get('name'), str(index), None):
        if key in scoped:
            return scoped[key]
    return None


def percent_option(argv, flag, bench, index):
    """A --max-noise or --throttle-threshold of the command line: a percentage there, a fraction here."""
    value = option(argv, flag, bench, index)
    try:
        return None if value is None else float(value) / 100
    except ValueError:
        return None


def max_noise(argv, bench, index, state):
    # Older NVBench wrote max_noise into each state and benchmark; newer only takes it on the command line.
    for source in (state, bench):
        if source.get('max_noise') is not None:
            return float(source['max_noise'])
    found = percent_option(argv, '--max-noise', bench, index)
    return DEFAULT_MAX_NOISE if found is None else found


def throttle_threshold(argv, bench, index):
    # 0 turns NVBench's own detection off; the default still says whether the clocks held.
    found = percent_option(argv, '--throttle-threshold', bench, index)
    return found if found else DEFAULT_THROTTLE_THRESHOLD


def axis_values(state):
    """[(name, value as a string)] of the state's axes, in NVBench's order (a type axis's value is its
    input string, U32 or I8; an int64 or float64 value is written as a string)."""
    return [(a['name'], str(a['value'])) for a in state.get('axis_values') or []]


def point_of(bench, state):
    """(operation, implementation, n, param, block_size) of a state, from its benchmark's name, its axes
    and its summaries sc/implementation and sc/n; raises ValueError naming what breaks the conventions."""
    operation, slash, implementation = bench['name'].partition('/')
    if not slash or not operation or not implementation:
        raise ValueError(f"benchmark name {bench['name']!r} is not <operation>/<implementation>")
    chosen = summary(state, IMPLEMENTATION)
    if chosen is not None:
        implementation = text(chosen)
        if not implementation:
            raise ValueError(f'{IMPLEMENTATION} is empty')
    values = axis_values(state)
    named = dict(values)
    counted = count_of(state)
    if 'n' not in named:
        if counted is None:
            raise ValueError('no axis n')
        named['n'] = str(counted)
    try:
        n, block = int(named['n']), int(named.get('block', '0'))
    except ValueError:
        raise ValueError(f"axis n ({named['n']}) or block ({named.get('block')}) is not an integer") from None
    if counted is not None and counted != n:
        raise ValueError(f'axis n {n} and {COUNT} {counted} differ')
    others = [f'{name}={value}' for name, value in values if name not in AXES_OF_COLUMNS]
    param = ';'.join(filter(None, [named.get('param', '')] + others))
    return operation, implementation, n, param, block


def count_of(state):
    """The int of the state's summary sc/n, None without one; raises ValueError where it is no integer."""
    found = summary(state, COUNT)
    if found is None:
        return None
    value = text(found)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f'{COUNT} ({value}) is not an integer') from None


def label(bench, state):
    # NVBench's state name shows a power-of-two axis as 2^k: "Device=0 n=2^20".
    return f"{bench['name']} [{state.get('name') or state.get('description') or ''}]"


def median_seconds(state, where):
    """The state's median GPU time in seconds (the mean, with a warning, where there is no median);
    None where NVBench kept no sample."""
    median = number(measured(state, MEDIAN))
    if median is not None:
        return median
    mean = number(measured(state, MEAN))
    if mean is not None:
        warn(f'{where}: no {MEDIAN} (an NVBench without quartiles): median_ms is the mean GPU time')
    return mean


def is_noisy(state, limit, where):
    """Whether the state's noise is above `limit` or unknown (fewer than 5 samples), said on stderr."""
    noise = number(measured(state, NOISE))
    if noise is None:
        return False  # no cold measurement of the GPU time: nothing to judge
    iqr = number(measured(state, IQR))
    robust = '' if iqr is None or math.isinf(iqr) else f' (relative IQR {iqr:.2%})'
    if math.isinf(noise) or math.isnan(noise):
        warn(f'{where}: noisy: noise unknown (too few samples to estimate it)')
        return True
    if noise > limit:
        warn(f'{where}: noisy: relative stdev {noise:.2%} above max-noise {limit:.2%}{robust}')
        return True
    return False


def is_throttled(state, threshold, where):
    """Whether the state's mean SM clock was below `threshold` of the default clock, said on stderr."""
    scaling = number(summary(state, CLOCK_SCALING))
    if scaling is None or scaling >= threshold:
        return False
    warn(f'{where}: throttled: mean SM clock {scaling:.0%} of the default, below the threshold {threshold:.0%}')
    return True


def check_of(state, where):
    """The state's ok: sc/check/ok's value 1; 0 where it is 0 or missing (an unchecked row is not trusted)."""
    found = number(summary(state, CHECK))
    if found is None:
        warn(f'{where}: no {CHECK} summary: the output was not checked, ok 0')
        return False
    if found != 1:
        warn(f'{where}: check failed ({CHECK} {found:g}): ok 0')
    return found == 1


def rows_of(doc, tally):
    """The rows (dicts of typed values, with the state's device) of every state kept; counts the
    skipped, noisy, throttled and unconverted states in `tally`."""
    argv = (doc.get('meta') or {}).get('argv') or []
    rows = []
    for index, bench in enumerate(doc.get('benchmarks') or []):
        threshold = throttle_threshold(argv, bench, index)
        for state in bench.get('states') or []:
            where = label(bench, state)
            if state.get('is_skipped'):
                tally['skipped'] += 1
                warn(f"{where}: skipped: {state.get('skip_reason') or 'no reason given'}")
                continue
            try:
                operation, implementation, n, param, block = point_of(bench, state)
            except ValueError as error:
                tally['unconverted'] += 1
                warn(f'{where}: left out: {error}')
                continue
            seconds = median_seconds(state, where)
            if seconds is None:
                # Every trial discarded as throttled until the timeout, or no cold measurement at all.
                tally['unconverted'] += 1
                if number(measured(state, SAMPLES)) == 0:
                    tally['throttled'] += 1
                    warn(f'{where}: throttled: no sample kept (NVBench discards throttled trials): left out')
                else:
                    warn(f'{where}: left out: no {MEDIAN} nor {MEAN}')
                continue
            calls = number(summary(state, CALLS))
            calls = 1 if calls is None else calls
            if calls < 1 or calls != int(calls):
                tally['unconverted'] += 1
                warn(f'{where}: left out: {CALLS} ({calls:g}) is not a whole number of calls')
                continue
            tally['noisy'] += is_noisy(state, max_noise(argv, bench, index, state), where)
            tally['throttled'] += is_throttled(state, threshold, where)
            bandwidth, items = number(measured(state, BYTES_PER_SECOND)), number(measured(state, ITEM_RATE))
            # NVBench divides the bytes and items by the mean time; the CSV's rates are at the median.
            mean = number(measured(state, MEAN))
            if mean is not None and seconds > 0:
                bandwidth = None if bandwidth is None else bandwidth * mean / seconds
                items = None if items is None else items * mean / seconds
            flops = number(summary(state, FLOPS))
            gflops = None if flops is None or seconds <= 0 else flops / seconds / 1e9
            rows.append(dict(operation=operation, implementation=implementation, n=n, param=param,
                             ms=seconds * 1e3 / calls, gbps=None if bandwidth is None else bandwidth / 1e9,
                             items_per_s=items, gflops=gflops,
                             block_size=block, ok=check_of(state, where), cpu_only=is_cpu_only(state),
                             anchor=anchors.is_library(implementation), device=state.get('device')))
            levels = number(summary(state, LEVELS))
            if levels is not None and levels >= 1:
                # The <operation>_per_level row (sc_bench's): the time per level, n the levels, no rates.
                rows.append(dict(rows[-1], operation=operation + '_per_level', n=int(levels),
                                 ms=rows[-1]['ms'] / levels, gbps=None, items_per_s=None, gflops=None, anchor=False))
    return rows


def add_pct_of_copy(rows):
    """Sets each row's pct_of_copy (as sc_bench worked it out): of the copy at the same n, else of the
    copy at the largest n; None without a copy or without the row's bandwidth."""
    copy = {}
    for r in rows:
        if r['operation'] == 'copy' and r['gbps']:
            copy[r['n']] = max(copy.get(r['n'], 0.0), r['gbps'])  # two copies at one n: the faster is the limit
    for r in rows:
        limit = copy.get(r['n'], copy[max(copy)] if copy else None)
        r['pct_of_copy'] = None if limit is None or r['gbps'] is None else 100 * r['gbps'] / limit
    return rows


def fixed(value, decimals):
    # Blank where there is no value, as sc_bench wrote it.
    return '' if value is None or math.isnan(value) else f'{value:.{decimals}f}'


def csv_row(r):
    return [r['operation'], r['implementation'], r['n'], r['param'], fixed(r['ms'], 6), fixed(r['gbps'], 2),
            fixed(r['items_per_s'], 0), fixed(r['gflops'], 2), fixed(r['ratio'], 4), fixed(r['pct_of_copy'], 2),
            r['block_size'], int(r['anchor']), int(r['ok']), r['fastest'] or '']


def run_date(meta, path):
    """'YYYY-MM-DD HH:MM' (local time, as sc_bench wrote it) of meta's timestamp (seconds since the
    epoch, or ISO 8601) where there is one (NVBench writes none today), else of the file's mtime."""
    stamp = meta.get('timestamp')
    when = None
    if isinstance(stamp, (int, float)):
        when = datetime.datetime.fromtimestamp(stamp)
    elif isinstance(stamp, str):
        try:
            when = datetime.datetime.fromisoformat(stamp.replace('Z', '+00:00'))
            when = when.astimezone() if when.tzinfo else when
        except ValueError:
            warn(f'meta.timestamp {stamp!r} is not ISO 8601: the date is the file\'s')
    if when is None:
        when = datetime.datetime.fromtimestamp(os.path.getmtime(path))
    return when.strftime('%Y-%m-%d %H:%M')


def header(doc, device, date, files=1, cpu_only=False):
    """The CSV's two comment lines, in sc_bench's form (results_tables.py reads the first's GPU and date),
    from what devices[] and meta say."""
    meta = doc.get('meta') or {}
    name = device.get('name', 'unknown GPU')
    sm = int(device.get('sm_version', 0))
    machine = (f"{name} (sm_{sm // 100}{sm % 100 // 10}), {device.get('number_of_sms', '?')} SMs, "
               f"L2 {device.get('l2_cache_size', 0) / 1048576:.1f} MiB, "
               f"{device.get('global_memory_size', 0) / 1073741824:.1f} GiB")
    version = ((meta.get('version') or {}).get('nvbench') or {})
    software = f"NVBench {version.get('string', '(version unknown)')}"
    if version.get('git_sha'):
        software += f" ({version['git_sha'][:7]})"
    source = 'from NVBench JSON' if files == 1 else f'from {files} NVBench JSON files'
    times = 'median of the cold GPU times' + ("; of the CPU times, CPU-only benchmarks'" if cpu_only else '')
    return [f'# gpu: {name}, {date}', f'# {machine}; {software}, {source}; {times}']


def write(lines, rows, out):
    writer = csv.writer(out, lineterminator='\n')
    out.write(''.join(line + '\n' for line in lines))
    writer.writerow(anchors.COLUMNS)
    writer.writerows(csv_row(r) for r in rows)


def load(path):
    """The NVBench JSON of `path`; None, said on stderr in one line, where it cannot be read, is not
    JSON or has no benchmark."""
    try:
        with open(path, encoding='utf-8') as f:
            doc = json.load(f)
    except OSError as error:
        warn(f'{path}: cannot be read: {error.strerror or error}')
        return None
    except ValueError as error:  # json.JSONDecodeError, UnicodeDecodeError
        warn(f'{path}: not JSON: {error}')
        return None
    if not isinstance(doc, dict):
        warn(f'{path}: not NVBench JSON (no object at its top)')
        return None
    if not doc.get('benchmarks'):
        warn(f'{path} has no benchmark')
        return None
    return doc


def device_of(doc, rows):
    """The devices[] entry of the GPU the rows ran on (the first device where no row is left)."""
    devices = doc.get('devices') or []
    # A CPU-only state's device says nothing (NVBench gives such a benchmark none): the GPU rows' say.
    gpu_rows = [r for r in rows if not r['cpu_only']]
    used = gpu_rows[0]['device'] if gpu_rows else None
    return next((d for d in devices if gpu_rows and d.get('id') == used), devices[0] if devices else {})


def same_gpu(a, b):
    """Whether devices[] entries `a` and `b` (of two files: their ids say nothing) are one GPU: the
    name and the board's fields both have, else the model's."""
    board = [k for k in BOARD_FIELDS if k in a and k in b]
    return all(a.get(k) == b.get(k) for k in ('name', *(board or MODEL_FIELDS)))


def gpu_label(device):
    fields = [k for k in BOARD_FIELDS if k in device] or MODEL_FIELDS
    return f"{device.get('name', 'unknown GPU')} ({', '.join(f'{k} {device.get(k)}' for k in fields)})"


def point_label(key):
    operation, implementation, n, param, block = key
    return f'{operation}/{implementation} n={n} param={param!r} block_size={block}'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('json', nargs='+',
                        help="NVBench's JSON files (sc_nvbench_<part> --json RUN.json), one CSV of all")
    parser.add_argument('--out', help='write the CSV here (default: stdout)')
    args = parser.parse_args()
    docs = [load(path) for path in args.json]  # every file said, before any state is
    if None in docs:
        return 1
    tally = dict(skipped=0, noisy=0, throttled=0, unconverted=0)
    files = []  # (path, rows, device) of each file
    for path, doc in zip(args.json, docs):
        rows = rows_of(doc, tally)
        # devices[] lists every GPU NVBench saw; the states say which ones ran. One CSV is one GPU's.
        used = sorted({r['device'] for r in rows if not r['cpu_only']}, key=str)
        if len(used) > 1:
            warn(f'{path} holds states of more than one device ({", ".join(map(str, used))}): one CSV is one GPU\'s; '
                 'run each with --devices, or split the file')
            return 1
        files.append((path, rows, device_of(doc, rows)))
    first, _, device = files[0]
    for path, _, other in files[1:]:
        if not same_gpu(device, other):
            warn(f'{first} ran on {gpu_label(device)}, {path} on {gpu_label(other)}: one CSV is one GPU\'s')
            return 1
    # One file's rows are taken as they are; a point of two files would be two rows for it.
    seen, twice = {}, []
    for index, (path, rows, _) in enumerate(files):
        for r in rows:
            key = tuple(r[k] for k in ('operation', 'implementation', 'n', 'param', 'block_size'))
            if seen.setdefault(key, index) != index:
                twice.append((key, files[seen[key]][0], path))
    if twice:
        key, one, other = twice[0]
        more = f' (and {len(twice) - 1} more points)' if len(twice) > 1 else ''
        warn(f'{point_label(key)} is in {one} and in {other}{more}: two rows for one point')
        return 1
    rows = [r for _, file_rows, _ in files for r in file_rows]
    annotated = anchors.annotate(add_pct_of_copy(rows))  # over all files: the copy or a library may be another part's
    # The latest run's: 'YYYY-MM-DD HH:MM' sorts as the times do.
    date = max(run_date(doc.get('meta') or {}, path) for path, doc in zip(args.json, docs))
    lines = header(docs[0], device, date, len(docs), any(r['cpu_only'] for r in rows))
    if args.out:
        tmp = args.out + '.tmp'
        with open(tmp, 'w', newline='') as f:
            write(lines, annotated, f)
        os.replace(tmp, args.out)
    else:
        write(lines, annotated, sys.stdout)
    failed = sum(not r['ok'] for r in rows)  # unchecked rows count: not trusted either
    print(f"{len(rows)} rows, {tally['skipped']} skipped, {tally['noisy']} noisy, {tally['throttled']} throttled, "
          f'{failed} failed checks', file=sys.stderr)
    return 1 if failed or tally['unconverted'] else 0


if __name__ == '__main__':
    sys.exit(main())

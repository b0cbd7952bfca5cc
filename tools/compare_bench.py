#!/usr/bin/env python3
"""Compares two benchmark CSVs of one GPU: bench/nvbench/nvbench_to_csv.py's, whose columns
(anchors.COLUMNS) the CSVs that sc_bench wrote into bench/results share.

usage: tools/compare_bench.py BASE.csv NEW.csv [--tolerance 0.03] [--only scan,compact,...] [--min-n N]
       tools/compare_bench.py BASE.csv NEW.csv --ratios [--tolerance 0.03] [--only ...] [--min-n N]
       tools/compare_bench.py --merge RUN1.csv RUN2.csv ... > MERGED.csv

Two builds (the default): a baseline build's CSV and a new build's, run one after the other on one
GPU (tools/gpu_check.sh's compare phase: each round of each build's NVBench JSONs made one CSV by
nvbench_to_csv.py, each build's rounds made one by --merge, then this comparison). For every row
both have, matched by operation, implementation, n, param and block_size (NVBench's rows have
block_size 0 but the block-size sweep's, its axis block), new median / base median, and whether it
is within the tolerance. The library rows (CUB, another CCCL's cub_<version>, Thrust, cuSPARSE: a
library by its anchor column or its name, anchors.is_library) and the copy are listed apart: they
ran the same code twice, so their spread is the noise floor of the comparison. A row of ours
outside the tolerance is marked "noise" when a library at the same point (operation, n, param)
moved at least as far: the same code's spread between the two processes. A row of ours whose check
failed in NEW (ok 0) is marked so and fails the comparison whatever its time. The rows in one CSV
alone (a part cut short in every round of one build, a benchmark only one build has) are counted,
not compared. Exit code 0 when every row of ours (of n >= --min-n) is within the tolerance and
checked, 1 otherwise.

--merge: one CSV of one build's rounds (runs of one build, interleaved with the other build's, so
that drift of the GPU's clocks over the call affects both builds alike), on stdout: every point of
any round (operation, implementation, n, param, block_size), the first round's rows first, then
those a later round adds; its median_ms the median of the medians of the rounds that have it (the
mean of two). A point missing from a round (its part cut short there: NVBench writes a part's JSON
at its end) is the median of the other rounds; the points that some round lacks are counted on
stderr. ok is 1 where every round that has the point says 1; the other columns (the rates,
pct_of_copy) are the first such round's; ratio_to_anchor, fastest_library and anchor are recomputed
on the merged times (anchors.annotate). The comment lines are the first file's; the columns
anchors.COLUMNS.

--ratios: two CSVs of one GPU from two harnesses or settings instead of two builds (an sc_bench CSV
of bench/results and an NVBench one, issue #48): for each row of ours both have, its speed-up on the
fastest library of its point (recomputed from each CSV's own times, anchors.annotate), new / base,
within the tolerance or not. Rows are matched by operation, implementation, n and param, the block
size left out (sc_bench's rows carry their kernel's, NVBench's have 0) but in the block-size sweep;
a row in one CSV alone is counted, not compared. Exit code 1 when a compared row is outside the
tolerance."""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench', 'plot'))
import anchors  # noqa: E402  (which rows are libraries, and the ratio to the fastest of them)


def rows_of(path):
    """(comment lines, rows as dicts of strings) of a CSV."""
    with open(path, newline='') as f:
        lines = f.readlines()
    return ([line for line in lines if line.startswith('#')],
            list(csv.DictReader(line for line in lines if not line.startswith('#'))))


def read(path):
    """The CSV's rows by their point and implementation: (operation, implementation, n, param, block_size)."""
    return {(r['operation'], r['implementation'], r['n'], r['param'], r['block_size']): r for r in rows_of(path)[1]}


def typed(rows):
    """The rows as anchors.annotate takes them (ms, anchor a bool), each with its block size."""
    return [dict(operation=r['operation'], implementation=r['implementation'], n=int(r['n']), param=r['param'],
                 ms=float(r['median_ms']), anchor=r.get('anchor') == '1', block=r['block_size']) for r in rows]


def sort_key(key):
    return (key[0], key[1], int(key[2]), key[3], key[4])


def speedups(path):
    """Ours' speed-up on the fastest library of its point, from the CSV's times, by (operation,
    implementation, n, param, block size in the sweep alone); rows without a library left out."""
    found = {}
    for r in anchors.annotate(typed(rows_of(path)[1])):
        if anchors.is_library(r['implementation'], r['anchor']) or r['operation'] == 'copy' or r['ratio'] is None:
            continue
        block = r['block'] if r['operation'] == 'sweep_scan' else ''
        found[(r['operation'], r['implementation'], str(r['n']), r['param'], block)] = r['ratio']
    return found


def selected(args):
    """Whether a key (operation, implementation, n, ...) is among the rows --only and --min-n select."""
    only = set(filter(None, args.only.split(',')))
    return lambda key: (not only or key[0] in only) and int(key[2]) >= args.min_n


def compare_ratios(args):
    base, new = speedups(args.base), speedups(args.new)
    keep = selected(args)
    both = sorted((k for k in set(base) & set(new) if keep(k)), key=sort_key)
    print(f"{'operation':<18}{'implementation':<16}{'n':>11} {'param':<22}{'base x':>9}{'new x':>9}{'new/base':>9}")
    outside = 0
    for key in both:
        op, impl, size, param, block = key
        b, n = base[key], new[key]
        flag = '  <-- outside' if abs(n / b - 1) > args.tolerance else ''
        outside += bool(flag)
        label = f'{param} block={block}' if block else param
        print(f'{op:<18}{impl:<16}{size:>11} {label[:21]:<22}{b:>9.3f}{n:>9.3f}{n / b:>9.3f}{flag}')
    alone = (sum(keep(k) for k in set(base) - set(new)), sum(keep(k) for k in set(new) - set(base)))
    print(f'\n{len(both)} speed-ups of ours compared, {outside} outside +-{args.tolerance:.0%}; '
          f'{alone[0]} in {args.base} alone, {alone[1]} in {args.new} alone')
    return 1 if outside else 0


def merge(paths):
    if not paths:
        print('usage: tools/compare_bench.py --merge RUN1.csv RUN2.csv ... > MERGED.csv', file=sys.stderr)
        return 2
    comments = rows_of(paths[0])[0]
    runs = [read(p) for p in paths]
    keys = list(dict.fromkeys(key for run in runs for key in run))  # the first round's order, then the others'
    merged, partial = [], []
    for key in keys:
        found = [run[key] for run in runs if key in run]
        if len(found) < len(runs):
            partial.append(key)
        medians = sorted(float(r['median_ms']) for r in found)
        middle = len(medians) // 2
        median = medians[middle] if len(medians) % 2 else (medians[middle - 1] + medians[middle]) / 2
        ok = '1' if all(r['ok'] == '1' for r in found) else '0'
        merged.append(dict(found[0], median_ms=f'{median:.6f}', ok=ok))
    sys.stdout.writelines(comments)
    writer = csv.DictWriter(sys.stdout, fieldnames=anchors.COLUMNS, lineterminator='\n', extrasaction='ignore')
    writer.writeheader()
    for row, t in zip(merged, anchors.annotate(typed(merged))):
        row['ratio_to_anchor'] = '' if t['ratio'] is None else f"{t['ratio']:.4f}"
        row['fastest_library'] = t['fastest'] or ''
        row['anchor'] = '1' if anchors.is_library(t['implementation'], t['anchor']) else '0'
        writer.writerow(row)
    if partial:
        operations = list(dict.fromkeys(key[0] for key in partial))
        operations = ', '.join(operations[:6]) + (f' and {len(operations) - 6} more' if len(operations) > 6 else '')
        print(f'compare_bench.py --merge: {len(partial)} of {len(keys)} points not in all {len(runs)} runs '
              f'(operations {operations}): their medians are of the runs that have them', file=sys.stderr)
    return 0


def compare_builds(args):
    base, new = read(args.base), read(args.new)
    keep = selected(args)
    ours, libraries = [], []
    for key in sorted((k for k in set(base) & set(new) if keep(k)), key=sort_key):
        b, n = float(base[key]['median_ms']), float(new[key]['median_ms'])
        if b <= 0:
            continue
        library = anchors.is_library(key[1], base[key]['anchor'] == '1' or new[key]['anchor'] == '1')
        checked = new[key]['ok'] == '1'
        (libraries if library or key[0] == 'copy' else ours).append((key, b, n, n / b, checked))

    # The anchors' largest move at each point: how far the same code moved between the processes.
    drift = {}
    for (op, _, size, param, _), _, _, r, _ in libraries:
        drift[(op, size, param)] = max(drift.get((op, size, param), 0.0), abs(r - 1))

    def table(title, entries, mark_noise):
        print(f'== {title} ==')
        print(f"{'operation':<18}{'implementation':<16}{'n':>11} {'param':<22}{'base ms':>10}{'new ms':>10}{'new/base':>9}")
        for (op, impl, size, param, _), b, n, r, checked in entries:
            flag = ''
            if abs(r - 1) > args.tolerance:
                moved = drift.get((op, size, param))
                noise = mark_noise and moved is not None and moved >= abs(r - 1)
                flag = f'  <-- outside (noise: anchors moved {moved:.1%} here)' if noise else '  <-- outside'
            if not checked:
                flag += '  <-- check failed in NEW (ok 0)'
            print(f'{op:<18}{impl:<16}{size:>11} {param[:21]:<22}{b:>10.4f}{n:>10.4f}{r:>9.3f}{flag}')

    table('ours (new build vs baseline build)', ours, True)
    table('anchors (same library code both times: the noise floor)', libraries, False)
    outside = [e for e in ours if abs(e[3] - 1) > args.tolerance]
    beyond_noise = [e for e in outside if drift.get((e[0][0], e[0][2], e[0][3]), -1.0) < abs(e[3] - 1)]
    failed = sum(not e[4] for e in ours)
    noise = max((abs(e[3] - 1) for e in libraries), default=0.0)
    alone = (sum(keep(k) for k in set(base) - set(new)), sum(keep(k) for k in set(new) - set(base)))
    print(f'\n{len(ours)} rows of ours compared, {len(outside)} outside +-{args.tolerance:.0%} '
          f'({len(beyond_noise)} beyond their point\'s anchor drift), {failed} failed their check in NEW; '
          f'largest anchor drift {noise:.1%}; {alone[0]} rows in {args.base} alone, {alone[1]} in {args.new} alone')
    return 1 if outside or failed else 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--merge':
        return merge(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('base')
    parser.add_argument('new')
    parser.add_argument('--tolerance', type=float, default=0.03)
    parser.add_argument('--only', default='', help='comma-separated operations (default: all)')
    parser.add_argument('--min-n', type=int, default=0, help='compare only rows of n at least this')
    parser.add_argument('--ratios', action='store_true',
                        help="compare ours' speed-ups on the fastest library (two harnesses' or settings' CSVs)")
    args = parser.parse_args()
    return compare_ratios(args) if args.ratios else compare_builds(args)


if __name__ == '__main__':
    sys.exit(main())

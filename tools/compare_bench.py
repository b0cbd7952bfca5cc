#!/usr/bin/env python3
"""Compares two sc_bench CSVs of the same GPU call (a baseline build and a new one, run one after
the other): for every row both have, new median / base median, and whether it is within the
tolerance. Anchor rows (the libraries: CUB, another CCCL's cub_<version>, Thrust, cuSPARSE; and the
copy) are listed apart: they ran the same code twice, so their spread is the noise floor of the
comparison. A row is a library's by its anchor column or its name (bench/plot/anchors.py), so a
baseline built before Thrust rows were marked as anchors is classified alike.

usage: tools/compare_bench.py BASE.csv NEW.csv [--tolerance 0.03] [--only scan,compact,...] [--min-n N]
       tools/compare_bench.py BASE.csv NEW.csv --ratios [--tolerance 0.03] [--only ...] [--min-n N]
       tools/compare_bench.py --merge RUN1.csv RUN2.csv ... > MERGED.csv
Exit code 0 when every non-anchor row (of n >= --min-n) is within the tolerance, 1 otherwise. A row
outside it is marked "noise" when an anchor at the same point (operation, n, param) moved at least
as far: the same code's spread between the two processes. --merge writes one CSV whose median_ms
is the median of the runs' medians (the mean of two; runs of one build, interleaved with the
other's, so that drift of the GPU's clocks over the call affects both builds alike), and whose
ratio_to_anchor and fastest_library are recomputed on those (the fastest library of each point, as
bench/plot/anchors.py defines it).
--ratios compares two harnesses' CSVs of one GPU instead of two builds' (sc_bench's and NVBench's,
bench/nvbench/nvbench_to_csv.py, issue #48): for each row of ours both have, its speed-up on the
fastest library of its point (recomputed from each CSV's own times, anchors.annotate), new / base,
within the tolerance or not. Rows are matched by operation, implementation, n and param, the block
size left out (NVBench's rows have none) but in the block-size sweep; a row in one CSV alone is
counted, not compared. Exit code 1 when a compared row is outside the tolerance."""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench', 'plot'))
import anchors  # noqa: E402  (which rows are libraries, and the ratio to the fastest of them)


def read(path):
    rows = {}
    with open(path) as f:
        lines = [line for line in f if not line.startswith('#')]
    for row in csv.DictReader(lines):
        key = (row['operation'], row['implementation'], row['n'], row['param'], row['block_size'])
        rows[key] = row
    return rows


def speedups(path):
    """Ours' speed-up on the fastest library of its point, from the CSV's times, by (operation,
    implementation, n, param, block size in the sweep alone); rows without a library left out."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith('#')]
    rows = [dict(operation=r['operation'], implementation=r['implementation'], n=int(r['n']), param=r['param'],
                 ms=float(r['median_ms']), anchor=r.get('anchor') == '1', block=r['block_size'])
            for r in csv.DictReader(lines)]
    found = {}
    for r in anchors.annotate(rows):
        if anchors.is_library(r['implementation'], r['anchor']) or r['operation'] == 'copy' or r['ratio'] is None:
            continue
        block = r['block'] if r['operation'] == 'sweep_scan' else ''
        found[(r['operation'], r['implementation'], str(r['n']), r['param'], block)] = r['ratio']
    return found


def compare_ratios(args):
    base, new = speedups(args.base), speedups(args.new)
    only = set(filter(None, args.only.split(',')))
    keep = lambda key: (not only or key[0] in only) and int(key[2]) >= args.min_n  # noqa: E731
    both = sorted((k for k in set(base) & set(new) if keep(k)), key=lambda k: (k[0], k[1], int(k[2]), k[3], k[4]))
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
    runs = [read(p) for p in paths]
    with open(paths[0]) as f:
        lines = f.readlines()
    sys.stdout.writelines(line for line in lines if line.startswith('#'))
    header = next(line for line in lines if not line.startswith('#')).strip().split(',')
    if 'fastest_library' not in header:
        header.append('fastest_library')
    merged = []
    for key, row in runs[0].items():
        medians = sorted(float(r[key]['median_ms']) for r in runs if key in r)
        middle = len(medians) // 2
        median = medians[middle] if len(medians) % 2 else (medians[middle - 1] + medians[middle]) / 2
        merged.append(dict(row, median_ms=f'{median:.6f}'))
    typed = anchors.annotate([dict(operation=r['operation'], implementation=r['implementation'], n=int(r['n']),
                                   param=r['param'], ms=float(r['median_ms']), anchor=r.get('anchor') == '1')
                              for r in merged])
    writer = csv.DictWriter(sys.stdout, fieldnames=header, lineterminator='\n', extrasaction='ignore')
    writer.writeheader()
    for row, t in zip(merged, typed):
        row['ratio_to_anchor'] = '' if t['ratio'] is None else f"{t['ratio']:.4f}"
        row['fastest_library'] = t['fastest'] or ''
        row['anchor'] = '1' if anchors.is_library(t['implementation'], t['anchor']) else '0'
        writer.writerow(row)
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--merge':
        return merge(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('base')
    parser.add_argument('new')
    parser.add_argument('--tolerance', type=float, default=0.03)
    parser.add_argument('--only', default='', help='comma-separated operations (default: all)')
    parser.add_argument('--min-n', type=int, default=0, help='compare only rows of n at least this')
    parser.add_argument('--ratios', action='store_true',
                        help="compare ours' speed-ups on the fastest library (two harnesses' CSVs)")
    args = parser.parse_args()
    if args.ratios:
        return compare_ratios(args)
    base, new = read(args.base), read(args.new)
    only = set(filter(None, args.only.split(',')))
    ours, libraries = [], []
    for key in sorted(set(base) & set(new), key=lambda k: (k[0], k[1], int(k[2]), k[3], k[4])):
        if (only and key[0] not in only) or int(key[2]) < args.min_n:
            continue
        b, n = float(base[key]['median_ms']), float(new[key]['median_ms'])
        if b <= 0:
            continue
        library = anchors.is_library(key[1], base[key]['anchor'] == '1' or new[key]['anchor'] == '1')
        (libraries if library or key[0] == 'copy' else ours).append((key, b, n, n / b))

    # The anchors' largest move at each point: how far the same code moved between the processes.
    drift = {}
    for (op, _, size, param, _), _, _, r in libraries:
        drift[(op, size, param)] = max(drift.get((op, size, param), 0.0), abs(r - 1))

    def table(title, entries, mark_noise):
        print(f'== {title} ==')
        print(f"{'operation':<18}{'implementation':<16}{'n':>11} {'param':<22}{'base ms':>10}{'new ms':>10}{'new/base':>9}")
        for (op, impl, size, param, _), b, n, r in entries:
            flag = ''
            if abs(r - 1) > args.tolerance:
                moved = drift.get((op, size, param))
                noise = mark_noise and moved is not None and moved >= abs(r - 1)
                flag = f'  <-- outside (noise: anchors moved {moved:.1%} here)' if noise else '  <-- outside'
            print(f'{op:<18}{impl:<16}{size:>11} {param[:21]:<22}{b:>10.4f}{n:>10.4f}{r:>9.3f}{flag}')

    table('ours (new build vs baseline build)', ours, True)
    table('anchors (same library code both times: the noise floor)', libraries, False)
    outside = [e for e in ours if abs(e[3] - 1) > args.tolerance]
    beyond_noise = [e for e in outside if drift.get((e[0][0], e[0][2], e[0][3]), -1.0) < abs(e[3] - 1)]
    noise = max((abs(e[3] - 1) for e in libraries), default=0.0)
    print(f'\n{len(ours)} rows of ours compared, {len(outside)} outside +-{args.tolerance:.0%} '
          f'({len(beyond_noise)} beyond their point\'s anchor drift); largest anchor drift {noise:.1%}')
    return 1 if outside else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Compares two sc_bench CSVs of the same GPU call (a baseline build and a new one, run one after
the other): for every row both have, new median / base median, and whether it is within the
tolerance. Anchor rows (CUB, Thrust, cuSPARSE, copy) are listed apart: they ran the same code
twice, so their spread is the noise floor of the comparison.

usage: tools/compare_bench.py BASE.csv NEW.csv [--tolerance 0.03] [--only scan,compact,...]
       tools/compare_bench.py --merge RUN1.csv RUN2.csv ... > MERGED.csv
Exit code 0 when every non-anchor row is within the tolerance, 1 otherwise. --merge writes one CSV
whose median_ms is the mean of the runs' medians (runs of one build, interleaved with the other's,
so that drift of the GPU's clocks over the call affects both builds alike)."""
import argparse
import csv
import sys


def read(path):
    rows = {}
    with open(path) as f:
        lines = [line for line in f if not line.startswith('#')]
    for row in csv.DictReader(lines):
        key = (row['operation'], row['implementation'], row['n'], row['param'], row['block_size'])
        rows[key] = row
    return rows


def merge(paths):
    runs = [read(p) for p in paths]
    with open(paths[0]) as f:
        lines = f.readlines()
    sys.stdout.writelines(line for line in lines if line.startswith('#'))
    header = next(line for line in lines if not line.startswith('#')).strip().split(',')
    writer = csv.DictWriter(sys.stdout, fieldnames=header, lineterminator='\n')
    writer.writeheader()
    for key, row in runs[0].items():
        medians = [float(r[key]['median_ms']) for r in runs if key in r]
        writer.writerow(dict(row, median_ms=f'{sum(medians) / len(medians):.6f}'))
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--merge':
        return merge(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('base')
    parser.add_argument('new')
    parser.add_argument('--tolerance', type=float, default=0.03)
    parser.add_argument('--only', default='', help='comma-separated operations (default: all)')
    args = parser.parse_args()
    base, new = read(args.base), read(args.new)
    only = set(filter(None, args.only.split(',')))
    ours, anchors = [], []
    for key in sorted(set(base) & set(new), key=lambda k: (k[0], k[1], int(k[2]), k[3], k[4])):
        if only and key[0] not in only:
            continue
        b, n = float(base[key]['median_ms']), float(new[key]['median_ms'])
        if b <= 0:
            continue
        (anchors if base[key]['anchor'] == '1' or key[0] == 'copy' else ours).append((key, b, n, n / b))

    def table(title, entries):
        print(f'== {title} ==')
        print(f"{'operation':<18}{'implementation':<16}{'n':>11} {'param':<22}{'base ms':>10}{'new ms':>10}{'new/base':>9}")
        for (op, impl, size, param, _), b, n, r in entries:
            flag = '' if abs(r - 1) <= args.tolerance else '  <-- outside'
            print(f'{op:<18}{impl:<16}{size:>11} {param[:21]:<22}{b:>10.4f}{n:>10.4f}{r:>9.3f}{flag}')

    table('ours (new build vs baseline build)', ours)
    table('anchors (same library code both times: the noise floor)', anchors)
    outside = [e for e in ours if abs(e[3] - 1) > args.tolerance]
    noise = max((abs(e[3] - 1) for e in anchors), default=0.0)
    print(f'\n{len(ours)} rows of ours compared, {len(outside)} outside +-{args.tolerance:.0%}; '
          f'largest anchor drift {noise:.1%}')
    return 1 if outside else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""The libraries that sc_bench's rows are compared with, and the merge of an anchor program's CSV.

A point is an operation (the sweep's sweep_scan counts as scan), n and param. At each point, a
row's ratio (the CSV's ratio_to_anchor) is the time of the fastest library there divided by the
row's time: above 1, the row is faster than every library; fastest_library names that library.
Libraries are cub (the toolkit's CCCL), cub_<version> (another CCCL's, from sc_bench_cccl_next),
thrust, cusparse_<algorithm>, and any row whose anchor column is 1 (bench/report.h: is_library).

    python3 bench/plot/anchors.py BENCH.csv [EXTRA.csv ...] [--out MERGED.csv]

appends the rows of each EXTRA.csv (an anchor program's CSV of the same GPU call, e.g.
sc_bench_cccl_next --csv) to BENCH.csv, and rewrites every row's ratio_to_anchor, fastest_library
and anchor columns over the merged rows; in place unless --out is given. With no EXTRA it only
rewrites the ratios (sc_bench writes each anchor row's ratio before the later anchors of its point
ran). Refuses CSVs from different GPUs. Needs nothing beyond the standard library.
"""
import argparse
import csv
import os
import sys

LIBRARIES = ("cub", "thrust")
LIBRARY_PREFIXES = ("cub_", "thrust_", "cusparse")
COLUMNS = ["operation", "implementation", "n", "param", "median_ms", "gbps", "items_per_s", "gflops",
           "ratio_to_anchor", "pct_of_copy", "block_size", "anchor", "ok", "fastest_library"]


def is_library(implementation, anchor=False):
    return anchor or implementation in LIBRARIES or implementation.startswith(LIBRARY_PREFIXES)


def point(operation, n, param):
    """The point a row is compared at: the sweep's rows with the scan's libraries of the same n."""
    return ("scan" if operation == "sweep_scan" else operation, n, param)


def fastest(rows):
    """{point: (ms, implementation)} of the fastest library at each point of `rows` (dicts with
    operation, implementation, n, param, ms and anchor)."""
    best = {}
    for r in rows:
        if not is_library(r["implementation"], r.get("anchor", False)):
            continue
        key = point(r["operation"], r["n"], r["param"])
        if key not in best or r["ms"] < best[key][0]:
            best[key] = (r["ms"], r["implementation"])
    return best


def annotate(rows):
    """Sets each row's "ratio" (fastest library's ms / its ms, None without a library at its point)
    and "fastest" (that library's name, or None). Returns rows."""
    best = fastest(rows)
    for r in rows:
        found = best.get(point(r["operation"], r["n"], r["param"]))
        r["ratio"] = found[0] / r["ms"] if found and r["ms"] > 0 else None
        r["fastest"] = found[1] if found else None
    return rows


def read_raw(path):
    """(comment lines, rows as dicts of strings) of a CSV that sc_bench or an anchor program wrote."""
    comments, lines = [], []
    with open(path, newline="") as f:
        for line in f:
            (comments if line.startswith("#") else lines).append(line)
    return comments, list(csv.DictReader(lines))


def gpu_of(comments):
    for line in comments:
        if line.startswith("# gpu:"):
            return line[len("# gpu:"):].split(",")[0].strip()
    return None


def merge(base_path, extra_paths, out_path):
    comments, rows = read_raw(base_path)
    gpu = gpu_of(comments)
    for path in extra_paths:
        extra_comments, extra_rows = read_raw(path)
        extra_gpu = gpu_of(extra_comments)
        if gpu and extra_gpu and extra_gpu != gpu:
            sys.exit(f"anchors.py: {path} ran on {extra_gpu}, {base_path} on {gpu}: not the same run")
        name = os.path.basename(path)
        # Kept as comments that no reader takes for the main header ("# gpu:" stays the base's).
        comments += [f"# merged from {name}: {line[1:].strip()}\n" for line in extra_comments]
        rows += extra_rows
    typed = [dict(operation=r["operation"], implementation=r["implementation"], n=int(r["n"]), param=r["param"],
                  ms=float(r["median_ms"]), anchor=r.get("anchor") == "1") for r in rows]
    annotate(typed)
    for r, t in zip(rows, typed):
        r["ratio_to_anchor"] = "" if t["ratio"] is None else f"{t['ratio']:.4f}"
        r["fastest_library"] = t["fastest"] or ""
        r["anchor"] = "1" if is_library(t["implementation"], t["anchor"]) else "0"
    tmp = out_path + ".tmp"
    with open(tmp, "w", newline="") as f:
        f.writelines(comments)
        writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for r in rows:
            writer.writerow({c: r.get(c, "") or "" for c in COLUMNS})
    os.replace(tmp, out_path)
    libraries = sorted({r["implementation"] for r in rows if r["anchor"] == "1"})
    print(f"anchors.py: {len(rows)} rows in {out_path}; libraries: {', '.join(libraries) or 'none'}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="sc_bench's CSV (sc_bench --csv FILE)")
    parser.add_argument("extra", nargs="*", help="anchor programs' CSVs of the same GPU call")
    parser.add_argument("--out", help="write the merged CSV here (default: rewrite CSV in place)")
    args = parser.parse_args()
    merge(args.csv, args.extra, args.out or args.csv)


# "2^k" for a power of two, "2^k-3" for the harness's non-power-of-two sizes, else the number.
def size_label(n):
    for minus in (0, 3):
        m = n + minus
        if m & (m - 1) == 0:
            return f"2^{m.bit_length() - 1}" + (f"-{minus}" if minus else "")
    return str(n)


if __name__ == "__main__":
    main()


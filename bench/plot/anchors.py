"""Which rows are libraries, and each row's ratio to the fastest library of its point: the rule that
bench/nvbench/nvbench_to_csv.py writes into the CSV and that tools/compare_bench.py and the plots
(plot.py and its figure modules) recompute from a CSV's times. Also the CSV's columns (COLUMNS) and
the figures' size labels (size_label). Standard library only; imported, not run.

A row is a library's when its implementation is cub (the toolkit's CCCL), thrust, cub_<name> (another
CCCL's CUB, cub_3.6, from sc_nvbench_cccl_next; or one of CUB's other algorithms, cub_reduce_by_key),
thrust_<name> or cusparse_<algorithm>; or, in a CSV, when its anchor column is 1 (nvbench_to_csv.py
writes is_library's answer there; the CSVs of bench/results that sc_bench wrote have it too).

A point is an operation, n and param; the block-size sweep's sweep_scan rows are at the scan's point
of the same n. At each point, a row's ratio (the CSV's ratio_to_anchor) is the time of the fastest
library there divided by the row's time: above 1, the row is faster than every library; that library
is the CSV's fastest_library. A point without a library gives its rows no ratio.
"""

LIBRARIES = ("cub", "thrust")
LIBRARY_PREFIXES = ("cub_", "thrust_", "cusparse")
# The CSV's columns, in order: nvbench_to_csv.py's, and those of the CSVs sc_bench wrote from
# 2026-11-23 (bench/results; older ones lack fastest_library).
COLUMNS = ["operation", "implementation", "n", "param", "median_ms", "gbps", "items_per_s", "gflops",
           "ratio_to_anchor", "pct_of_copy", "block_size", "anchor", "ok", "fastest_library"]


def is_library(implementation, anchor=False):
    """Whether a row of this implementation (and this anchor column, where a CSV has one) is a library's."""
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


def size_label(n):
    """The figures' label of size n: 2^k for a power of two, 2^k-3 for the sizes just under one
    (sc_bench's 2^20-3 and 2^28-3, in the CSVs of bench/results), else the number."""
    for minus in (0, 3):
        m = n + minus
        if m & (m - 1) == 0:
            return f"2^{m.bit_length() - 1}" + (f"-{minus}" if minus else "")
    return str(n)

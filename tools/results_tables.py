#!/usr/bin/env python3
"""Generate the results tables of README.md and docs/performance/*.md from bench/results/*.csv.

A page holds blocks

    <!-- results:begin NAME -->
    ...generated; never edited by hand...
    <!-- results:end -->

and this script writes the table NAME (TABLES below) between the two markers.

    tools/results_tables.py --write [FILE...]   rewrite the blocks in place
    tools/results_tables.py --check [FILE...]   exit 1 and print a diff when a block is stale
    tools/results_tables.py --used-files        the CSVs the tables draw on, one a line
    tools/results_tables.py --print NAME        one table on stdout

FILEs default to README.md and docs/performance/*.md of the repository holding this script.

The CSVs of bench/results are sc_bench's (the benchmark program until NVBench replaced it) and
sc_dist_bench's; a CSV that bench/nvbench/nvbench_to_csv.py makes of the NVBench programs' JSONs has
the columns of sc_bench's latest (bench/plot/anchors.py: COLUMNS) and its "# gpu:" line, and is read
alike.

Where each figure comes from. Every table row names one measurement (operation, implementation, n,
param, and any other column given) and a GPU kind (the file name's prefix: h100, h200, h200x2). Of
the CSVs at the top of bench/results/ (not experiments/) named <kind>_<YYYY-MM-DD>[_<tag>].csv that
hold that row with ok = 1, the newest is used: by the date in the file name, then by the time in its
"# gpu: <name>, YYYY-MM-DD HH:MM" line, then by file name. The row's reference (the fastest library
of the same point) is read from that same CSV, so a ratio never mixes two runs. A row that no CSV
holds is an error, not a gap.

Exit status: 0 done (or, with --check, every block current); 1 a block is stale (--check); 2 an error
(unknown table name, unbalanced markers, a row no CSV holds, an unreadable CSV).
"""

import argparse
import csv
import difflib
import fnmatch
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")


# ------------------------------------------------------------------------------------------------
# Table definitions. Edit here to add a row or a table.
#
#   R(label, operation, implementation, n, param, ref=..., kind=..., family=..., **more_columns)
#       one measurement. implementation may be a glob ("auto:*": whatever SpMV's Auto chose) or a
#       tuple of names: each is resolved on its own and the one with the highest ratio is shown
#       ("our best"). n=None matches any n (the SpMV matrices are named by param). ref: "fastest"
#       (the CSV's fastest library at the point), None (no reference: the ratio column shows "-"),
#       or a dict naming the reference row of the same CSV by the columns that differ from ours
#       (a value None drops that column from the match), and its "label". kind: this row's GPU kind
#       where it is not the table's; family: the summary's first column.
#   G(label, rows)      the geometric mean of the rows' ratios (and their lowest).
#   Table(kind, columns, rows)   kind: the GPU kind every row reads unless it names its own.
# ------------------------------------------------------------------------------------------------

class R:
    def __init__(self, label, operation, implementation, n=None, param="", ref="fastest", kind=None,
                 family=None, **more):
        self.label, self.ref, self.kind, self.family = label, ref, kind, family
        self.implementations = implementation if isinstance(implementation, tuple) else (implementation,)
        self.match = {"operation": operation, "n": n, "param": param}
        self.match.update(more)

    def describe(self, implementation=None):
        fields = dict(self.match, implementation=implementation or "|".join(self.implementations))
        return "{} ({})".format(self.label, ", ".join(
            "{}={}".format(k, v) for k, v in fields.items() if v is not None))


class G:
    def __init__(self, label, rows, family=None):
        self.label, self.rows, self.family = label, rows, family


class Table:
    def __init__(self, kind, columns, rows):
        self.kind, self.columns, self.rows = kind, columns, rows


# The columns of a table (renderers in COLUMNS, below).
STANDARD = ["operation", "n", "ours", "reference", "ratio", "pct_copy", "gpu_date", "csv"]
SUMMARY = ["family"] + STANDARD
DISTRIBUTED = ["operation", "gpus", "n_per_gpu", "ours", "reference", "ratio", "gpu_date", "csv"]

P28, P26, P24, P20 = 2 ** 28, 2 ** 26, 2 ** 24, 2 ** 20
SEGMENTS = ["mean 4", "mean 64", "mean 4096", "power-law"]
SUITESPARSE = ["D6-6", "Oregon-2", "bcsstk13", "bcsstk33", "ca-AstroPh", "cage10", "lp_ship04l",
               "luxembourg_osm", "memplus", "orani678", "soc-Epinions1", "vsp_model1_crew1_cr42_south31"]
LARGE_MATRICES = ["poisson_2d_2048", "poisson_3d_160", "power_law_2^22"]
TOP_K_POINTS = [("top_k_keys_float", "", 100, P28), ("top_k_keys_float", "", 4096, P28),
                ("top_k_pairs_float", " and their positions", 100, P28), ("top_k_keys_float", "", 100, P24)]

# The distributed CSVs (sc_dist_bench): the same primitive on 1 GPU is the reference. Weak scaling
# keeps n per GPU (so the global n differs); strong scaling keeps the global n.
WEAK = {"label": "1 GPU", "gpus": 1, "n": None}
STRONG = {"label": "1 GPU", "gpus": 1, "n_per_gpu": None}
BOUND = {"label": "exchange bound", "implementation": "exchange_bound"}


MERGE_SORT_POINTS = [("merge_sort_keys", "int32, uniform", P28, "uniform"),
                     ("merge_sort_keys", "int32, uniform", P24, "uniform"),
                     ("merge_sort_pairs", "int32 keys and values, uniform", P28, "uniform"),
                     ("merge_sort_records", "16-byte records by one field of 256 values", P28, "rank_of_256"),
                     ("merge_sort_records", "16-byte records by one field of 256 values", P24, "rank_of_256")]


def _spmv_rows(precision):
    rows = [R("SpMV {}, {}".format(precision, m), "spmv_" + precision, "auto:*", param=m)
            for m in SUITESPARSE + LARGE_MATRICES]
    return rows + [G("SpMV {}, geometric mean of the {} SuiteSparse matrices".format(
        precision, len(SUITESPARSE)), rows[:len(SUITESPARSE)])]


TABLES = {
    # README.md: one headline row a family (its largest n; each row says its GPU and date).
    "summary": Table("h100", SUMMARY, [
        R("exclusive scan, int32", "scan", "single_pass", P28, family="scan"),
        R("sort keys, int32, uniform", "sort_keys", "onesweep", P28, "uniform", family="radix_sort",
          kind="h200"),
        R("segmented scan by flags, int32, power-law segments", "segmented_scan", "flags", P26,
          "power-law", family="segmented"),
        R("SpMV float, Auto, the largest matrix (power_law_2^22)", "spmv_float", "auto:*",
          param="power_law_2^22", family="spmv"),
        R("sum, int32 (the faster of our two strategies)", "reduce", ("atomics", "chunked"), P28,
          "sum", family="reduce"),
        R("interval expand, int32, uniform segments", "interval_expand", "ours", P28, "uniform",
          family="load_balance"),
        R("exclusive sum, int32 (weak scaling: 2^30 a GPU)", "scan", "nccl", gpus=2,
          n_per_gpu=2 ** 30, param="int32", ref=WEAK, kind="h200x2", family="distributed"),
    ]),
    # docs/performance/scan.md
    "scan": Table("h100", STANDARD, [
        R("exclusive scan, int32", "scan", "single_pass", P28),
        R("exclusive scan, int32", "scan", "single_pass", P24),
        R("exclusive scan, int32", "scan", "single_pass", P20),
        R("exclusive scan, int32", "scan", "single_pass", 2 ** 10),
        R("exclusive scan, float (the same bits every run)", "scan_float", "single_pass", P28),
        R("exclusive scan, int64", "scan_int64", "single_pass", P28),
        R("exclusive scan, double (the same bits every run)", "scan_double", "single_pass", P28),
        R("compaction (select_if), keep 5%", "compact", "single_pass", P28, "5"),
        R("compaction (select_if), keep 50%", "compact", "single_pass", P28, "50"),
        R("compaction (select_if), keep 95%", "compact", "single_pass", P28, "95"),
        R("partition, 50% true", "partition", "single_pass", P28, "50"),
        R("stable_partition, 50% true", "partition", "single_pass_stable", P28, "50"),
        R("course: shared-memory scan, int32", "scan", "shared", P28),
    ]),
    # docs/performance/radix_sort.md
    # (no "% of copy": the benchmarks count a key's one read and one write, a sort makes four passes)
    "radix_sort": Table("h100", [c for c in STANDARD if c != "pct_copy"], [
        R("sort keys, int32, uniform", "sort_keys", "onesweep", P28, "uniform", kind="h200"),
        R("sort keys, int32, uniform", "sort_keys", "onesweep", P24, "uniform", kind="h200"),
        R("sort keys, int32, uniform", "sort_keys", "onesweep", P20, "uniform"),
        R("sort keys, int32, sorted", "sort_keys", "onesweep", P28, "sorted", kind="h200"),
        R("sort keys, int32, few distinct", "sort_keys", "onesweep", P28, "few_distinct", kind="h200"),
        R("sort keys, int32, low 16 bits random", "sort_keys", "onesweep", P28, "low16", kind="h200"),
        R("sort keys, int32, all equal", "sort_keys", "onesweep", P28, "all_equal", kind="h200"),
        R("sort pairs, int32 keys and values, uniform", "sort_pairs", "onesweep", P28, "uniform", kind="h200"),
        R("sort pairs, int32 keys and values, low 16 bits random", "sort_pairs", "onesweep", P28, "low16",
          kind="h200"),
        R("sort keys, int64, uniform", "sort_keys_int64", "onesweep", 2 ** 27, "uniform", kind="h200"),
        R("sort keys, double, uniform", "sort_keys_double", "onesweep", 2 ** 27, "uniform", kind="h200"),
    ] + [R("top-k, the {:,} largest floats{} (sorted; CUB 3.6's unsorted top-k)".format(k, what), op, "ours", n,
           "k={}".format(k), kind="h200")
         for op, what, k, n in TOP_K_POINTS]
      + [R("top-k, the {:,} largest floats{}, against a full sort".format(k, what), op, "ours", n, "k={}".format(k),
           ref={"label": "CUB full sort", "implementation": "cub_full_sort"}, kind="h200")
         for op, what, k, n in TOP_K_POINTS]
      + [R("merge sort by a comparator, {}".format(what), op, "ours", n, param, kind="h200")
         for op, what, n, param in MERGE_SORT_POINTS]),
    # docs/performance/segmented.md
    "segmented": Table("h100", STANDARD,
        [R("segmented scan by flags, int32, " + s, "segmented_scan", "flags", P26, s) for s in SEGMENTS]
        + [R("segmented scan by offsets, int32, " + s, "segmented_scan", "offsets", P26, s) for s in SEGMENTS]
        + [R("segmented reduce (Auto's engine), int32, " + s, "segmented_reduce", "ours", P26, s)
           for s in SEGMENTS]),
    # docs/performance/spmv.md: Auto against the faster cuSPARSE algorithm, per call (the SuiteSparse
    # matrices as 10 back-to-back calls); n is the number of nonzeros.
    "spmv": Table("h100", STANDARD, _spmv_rows("float") + _spmv_rows("double")),
    # docs/performance/reduce.md: reductions, runs of keys, histogram.
    "reduce": Table("h100", STANDARD, [
        R("sum, int32, atomics strategy", "reduce", "atomics", P28, "sum"),
        R("sum, int32, chunked strategy", "reduce", "chunked", P28, "sum"),
        R("maximum, int32, atomics strategy", "reduce", "atomics", P28, "max"),
        R("maximum segment sum, int32 (against the libraries' sum)", "reduce", "mss", P28, "sum"),
        R("sum, int32, chunked strategy", "reduce", "chunked", P20, "sum"),
        R("sum, int32, chunked strategy", "reduce", "chunked", 2 ** 16, "sum"),
        R("sum, int32, chunked strategy", "reduce", "chunked", 2 ** 12, "sum"),
        R("sum, int32, chunked strategy", "reduce", "chunked", 2 ** 10, "sum"),
        R("reduce_by_key, int32, mean run 4", "reduce_by_key", "ours", P28, "mean 4"),
        R("reduce_by_key, int32, mean run 64", "reduce_by_key", "ours", P28, "mean 64"),
        R("unique, int32, mean run 4", "unique", "ours", P28, "mean 4"),
        R("unique, int32, mean run 64", "unique", "ours", P28, "mean 64"),
        R("run_length_encode, int32, mean run 4", "run_length_encode", "ours", P28, "mean 4"),
        R("run_length_encode, int32, mean run 64", "run_length_encode", "ours", P28, "mean 64"),
        R("histogram_even, int32, 256 bins", "histogram_even", "ours", P28, "256 bins"),
        R("histogram_even, int32, 4096 bins", "histogram_even", "ours", P28, "4096 bins"),
    ]),
    # docs/performance/load_balance.md: load-balancing search, sorted search, merge, segmented sort.
    "load_balance": Table("h100", STANDARD, [
        R("interval expand, int32, uniform segments", "interval_expand", "ours", P28, "uniform"),
        R("interval expand, int32, power-law segments", "interval_expand", "ours", P28, "power_law"),
        R("load-balancing search alone, uniform segments", "load_balancing_search", "ours", P28,
          "uniform", ref=None),
        R("load-balancing search alone, power-law segments", "load_balancing_search", "ours", P28,
          "power_law", ref=None),
        R("merge keys, int32", "merge_keys", "ours", P28),
        R("merge keys, int32", "merge_keys", "ours", P24),
        R("merge pairs, int32", "merge_pairs", "ours", P28),
        R("merge pairs, int32", "merge_pairs", "ours", P24),
        R("sorted search, lower bounds, int32", "sorted_search", "ours", P28, "lower"),
    ] + [R("segmented sort {}, {} segments".format(what, label), "segmented_sort_" + what, "ours", P24,
           param, kind="h200")
         for what in ("keys", "pairs")
         for param, label in (("mean2", "uniform 1-3"), ("tiny", "uniform 1-15"), ("mean32", "uniform 1-63"),
                              ("mean128", "uniform 1-255"), ("mean1024", "uniform 1-2047"),
                              ("mixed", "mixed (Pareto)"), ("huge", "huge (2^20-2^22)"))]),
    # docs/performance/distributed.md: NCCL, 2 GPUs against 1.
    "distributed": Table("h200x2", DISTRIBUTED, [
        R("exclusive sum, int32 (weak scaling)", "scan", "nccl", gpus=2, n_per_gpu=2 ** 30,
          param="int32", ref=WEAK),
        R("compaction, 50% kept (weak scaling)", "compact", "nccl", gpus=2, n_per_gpu=2 ** 30,
          param="50", ref=WEAK),
        R("compaction, 50% kept, rebalanced (weak scaling)", "compact", "nccl_rebalance", gpus=2,
          n_per_gpu=2 ** 30, param="50", ref=WEAK),
        R("sample sort, int32 keys (weak scaling)", "sort_keys", "nccl", gpus=2, n_per_gpu=2 ** 30,
          param="uniform", ref=WEAK),
        R("sample sort, int32 keys, against its exchange bound", "sort_keys", "nccl", gpus=2,
          n_per_gpu=2 ** 30, param="uniform", ref=BOUND),
        R("SpMV double, Poisson 7328^2 (strong scaling)", "spmv_double", "nccl", gpus=2,
          param="poisson_2d_7328", ref=STRONG),
    ]),
}

# A kind without a "# gpu:" line in its CSVs (the distributed ones) is named so.
KIND_GPU = {"h100": "H100", "h200": "H200", "h200x2": "2× H200"}


# ------------------------------------------------------------------------------------------------
# Reading the CSVs.
# ------------------------------------------------------------------------------------------------

class Failure(Exception):
    """An error that ends the run with exit status 2."""


NAME_RE = re.compile(r"^([a-z0-9]+)_(\d{4}-\d{2}-\d{2})(?:_.+)?\.csv$")
GPU_RE = re.compile(r"^#\s*gpu:\s*(.*?),\s*(\d{4}-\d{2}-\d{2})\s+(\d{2}:\d{2})")

# The formats the CSVs have had, told apart by the columns of their header:
#  - sc_bench since 2026-11-23, and nvbench_to_csv.py (NVBench's JSON): ..., anchor, ok,
#    fastest_library (anchors.COLUMNS);
#  - sc_bench before (2026-11-22/23): ..., anchor, ok: no fastest_library column;
#  - sc_dist_bench: operation, implementation, gpus, n, n_per_gpu, param, median_ms, ...,
#    per_gpu_vs_one_gpu, ok.
SINGLE_GPU_COLUMNS = {"operation", "implementation", "n", "param", "median_ms", "ratio_to_anchor",
                      "pct_of_copy", "anchor"}
DISTRIBUTED_COLUMNS = {"operation", "implementation", "gpus", "n", "n_per_gpu", "param", "median_ms",
                       "per_gpu_vs_one_gpu"}


class ResultFile:
    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        m = NAME_RE.match(self.name)
        if not m:
            raise Failure("{}: not named <gpukind>_<YYYY-MM-DD>[_<tag>].csv".format(path))
        self.kind, self.date = m.group(1), m.group(2)
        self.gpu, self.time = KIND_GPU.get(self.kind, self.kind), ""
        body = []
        with open(path, newline="") as f:
            for line in f:
                if line.startswith("#"):
                    g = GPU_RE.match(line)
                    if g and not self.time:  # the first "# gpu:" line, not a merged one's
                        self.gpu = g.group(1).replace("NVIDIA ", "")
                        self.date, self.time = g.group(2), g.group(3)
                elif line.strip():
                    body.append(line)
        reader = csv.DictReader(body)
        columns = set(reader.fieldnames or [])
        if SINGLE_GPU_COLUMNS <= columns:
            self.distributed = False
        elif DISTRIBUTED_COLUMNS <= columns:
            self.distributed = True
        else:
            raise Failure("{}: unknown CSV format (columns: {})".format(path, ",".join(reader.fieldnames or [])))
        # Rows that failed their check (ok != 1) are not results (every format has an ok column).
        self.rows = [r for r in reader if r.get("ok", "1") == "1"]
        self.has_fastest = "fastest_library" in columns
        # Newest first: the date in the name, then the "# gpu:" line's time, then the name.
        self.order = (m.group(2), self.time, self.name)

    def find(self, match, implementation):
        out = []
        for r in self.rows:
            if not fnmatch.fnmatchcase(r["implementation"], implementation):
                continue
            if all(v is None or r.get(k) == str(v) for k, v in match.items()):
                out.append(r)
        return out


def load_results(results_dir):
    files = []
    if not os.path.isdir(results_dir):
        raise Failure("{}: no such directory".format(results_dir))
    for name in sorted(os.listdir(results_dir)):  # top level only: experiments/ is not read
        path = os.path.join(results_dir, name)
        if name.endswith(".csv") and os.path.isfile(path):
            files.append(ResultFile(path))
    return files


# ------------------------------------------------------------------------------------------------
# Resolving rows.
# ------------------------------------------------------------------------------------------------

class Resolved:
    """One table row: ours, its reference, the ratio (reference time / ours: > 1 is ours faster)."""

    def __init__(self, spec, files, row=None, ref_name=None, ref_ms=None, ratio=None, note=""):
        self.label, self.family, self.files, self.row = spec.label, getattr(spec, "family", None), files, row
        self.ref_name, self.ref_ms, self.ratio, self.note = ref_name, ref_ms, ratio, note


def _fnum(row, key):
    value = row.get(key, "")
    return float(value) if value not in ("", None) else None


def _reference(spec, f, row):
    """The reference of row (from CSV f) and the ratio, from the same CSV."""
    if spec.ref is None:
        return None, None, None
    point = {"operation": row["operation"], "n": row["n"], "param": row["param"]}
    if spec.ref == "fastest":
        if f.distributed:
            raise Failure("{}: ref='fastest' in a distributed CSV ({})".format(spec.describe(), f.name))
        if f.has_fastest:
            # The CSV's own columns: fastest_library names the fastest library at the point in this
            # run and ratio_to_anchor is its time / this row's time (> 1: faster than every library).
            name = row.get("fastest_library", "")
            if not name:
                raise Failure("{}: {} names no fastest library for it".format(spec.describe(), f.name))
            ref = f.find(point, name)
            if len(ref) != 1:
                raise Failure("{}: {} has {} rows of its fastest library {}".format(
                    spec.describe(), f.name, len(ref), name))
            ratio = _fnum(row, "ratio_to_anchor")
            return name, float(ref[0]["median_ms"]), ratio
        # CSVs before the fastest_library column: the anchors are the rows with anchor = 1; with one,
        # ratio_to_anchor is against it; with several, the fastest is taken and the ratio computed.
        anchors = [r for r in f.find(point, "*") if r.get("anchor") == "1"]
        if not anchors:
            raise Failure("{}: {} has no anchor row at its point".format(spec.describe(), f.name))
        best = min(anchors, key=lambda r: float(r["median_ms"]))
        if len(anchors) == 1:
            ratio = _fnum(row, "ratio_to_anchor")
        else:
            ratio = float(best["median_ms"]) / float(row["median_ms"])
        return best["implementation"], float(best["median_ms"]), ratio
    # A reference row named by the columns that differ from ours (the distributed tables).
    match = {k: row[k] for k in ("operation", "n", "param", "gpus", "n_per_gpu") if k in row}
    implementation = row["implementation"]
    for k, v in spec.ref.items():
        if k == "label":
            continue
        if k == "implementation":
            implementation = v
        else:
            match[k] = v
    ref = f.find(match, implementation)
    if len(ref) != 1:
        raise Failure("{}: {} has {} rows of its reference {}".format(
            spec.describe(), f.name, len(ref), spec.ref["label"]))
    ref_ms = float(ref[0]["median_ms"])
    ratio = ref_ms / float(row["median_ms"])
    if f.distributed and spec.ref.get("gpus") == 1:
        # sc_dist_bench's per_gpu_vs_one_gpu column is this ratio for the rows against 1 GPU (per-GPU
        # throughput for weak scaling, the speed-up for strong): it is the one shown; the times must
        # agree with it.
        column = _fnum(row, "per_gpu_vs_one_gpu")
        if column is None or abs(column / ratio - 1) > 0.01:
            raise Failure("{}: {}: per_gpu_vs_one_gpu {} disagrees with the times ({:.4f})".format(
                spec.describe(), f.name, column, ratio))
        ratio = column
    return spec.ref["label"], ref_ms, ratio


def resolve_row(spec, kind, files):
    kind = spec.kind or kind
    candidates = []
    for implementation in spec.implementations:
        holding = [(f, f.find(spec.match, implementation)) for f in files if f.kind == kind]
        holding = [(f, rows) for f, rows in holding if rows]
        if not holding:
            raise Failure("table row {}: no CSV of kind {} holds it".format(
                spec.describe(implementation), kind))
        f, rows = max(holding, key=lambda fr: fr[0].order)
        if len(rows) != 1:
            raise Failure("{}: {} rows in {} match {}; name more columns (block_size?)".format(
                spec.describe(), len(rows), f.name, implementation))
        ref_name, ref_ms, ratio = _reference(spec, f, rows[0])
        candidates.append(Resolved(spec, [f], rows[0], ref_name, ref_ms, ratio))
    # "Our best": the highest ratio of the alternatives (the first, where none has a ratio).
    return max(candidates, key=lambda c: -math.inf if c.ratio is None else c.ratio)


def resolve(table, files):
    out = []
    for spec in table.rows:
        if isinstance(spec, G):
            members = [resolve_row(r, table.kind, files) for r in spec.rows]
            ratios = [m.ratio for m in members]
            if any(r is None or r <= 0 for r in ratios):
                raise Failure("{}: a member has no ratio".format(spec.label))
            mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            low = min(members, key=lambda m: m.ratio)
            used = []
            for m in members:
                used += [f for f in m.files if f not in used]
            note = "lowest: {} {}".format(low.row["param"], fmt_ratio(low.ratio))
            out.append(Resolved(spec, used, None, None, None, mean, note))
        else:
            out.append(resolve_row(spec, table.kind, files))
    return out


# ------------------------------------------------------------------------------------------------
# Rendering.
# ------------------------------------------------------------------------------------------------

DASH = "–"


def fmt_ms(ms):
    """Three significant digits, at least three decimals: 5.406, 0.754, 0.0600, 0.00800."""
    if ms is None:
        return DASH
    decimals = max(3, 2 - int(math.floor(math.log10(ms)))) if ms > 0 else 3
    return "{:.{}f}".format(ms, decimals)


def fmt_ratio(r):
    if r is None:
        return DASH
    return "{:.2f}×".format(r) if r >= 0.1 else "{:.2g}×".format(r)


def fmt_n(value):
    if value in (None, ""):
        return DASH
    n = int(value)
    if n > 0 and n & (n - 1) == 0:
        return "2^{}".format(n.bit_length() - 1)
    return str(n)


def _link(f, page_dir):
    return "[{}]({})".format(f.name, os.path.relpath(os.path.abspath(f.path), page_dir).replace(os.sep, "/"))


def _gpu_date(r):
    seen = []
    for f in r.files:
        text = "{}, {}".format(f.gpu, f.date)
        if text not in seen:
            seen.append(text)
    return "; ".join(seen)


def _operation(r):
    return r.label + ("; " + r.note if r.note else "")


def _n(r):
    if r.row is None:
        return DASH
    if "n_per_gpu" in r.row:
        return "{} on {} GPUs".format(fmt_n(r.row["n"]), r.row["gpus"])
    return fmt_n(r.row["n"])


def _ours(r):
    if r.row is None:
        return DASH
    return "{} {}".format(r.row["implementation"], fmt_ms(float(r.row["median_ms"])))


def _reference_cell(r):
    return DASH if r.ref_name is None else "{} {}".format(r.ref_name, fmt_ms(r.ref_ms))


def _pct_copy(r):
    value = _fnum(r.row, "pct_of_copy") if r.row is not None else None
    return DASH if value is None else "{:.1f}".format(value)




# name -> (header, cell(resolved row, directory of the page written))
COLUMNS = {
    "family": ("family", lambda r, d: r.family or DASH),
    "operation": ("operation", lambda r, d: _operation(r)),
    "n": ("n", lambda r, d: _n(r)),
    "gpus": ("GPUs", lambda r, d: r.row["gpus"] if r.row is not None else DASH),
    "n_per_gpu": ("n per GPU", lambda r, d: fmt_n(r.row["n_per_gpu"]) if r.row is not None else DASH),
    "ours": ("ours (implementation, ms)", lambda r, d: _ours(r)),
    "reference": ("fastest library or reference (name, ms)", lambda r, d: _reference_cell(r)),
    "ratio": ("reference time ÷ ours (> 1: ours faster)", lambda r, d: fmt_ratio(r.ratio)),
    "pct_copy": ("% of copy bandwidth", lambda r, d: _pct_copy(r)),
    "gpu_date": ("GPU, date", lambda r, d: _gpu_date(r)),
    "csv": ("CSV", lambda r, d: ", ".join(_link(f, d) for f in r.files)),
}


def render(name, table, files, page_dir):
    rows = resolve(table, files)
    headers = [COLUMNS[c][0] for c in table.columns]
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---:" if c in ("ratio", "pct_copy") else "---" for c in table.columns) + "|"]
    for r in rows:
        cells = [COLUMNS[c][1](r, page_dir).replace("|", "\\|") for c in table.columns]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


# ------------------------------------------------------------------------------------------------
# Pages.
# ------------------------------------------------------------------------------------------------

BEGIN_RE = re.compile(r"^\s*<!--\s*results:begin\s+(\S+)\s*-->\s*$")
END_RE = re.compile(r"^\s*<!--\s*results:end\s*-->\s*$")


def regenerate(path, tables, files):
    """(current text, regenerated text) of the page at path."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except OSError as e:
        raise Failure("{}: {}".format(path, e.strerror))
    page_dir = os.path.dirname(os.path.abspath(path))
    out, open_block = [], None
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        begin, end = BEGIN_RE.match(line), END_RE.match(line)
        if begin:
            if open_block:
                raise Failure("{}:{}: results:begin inside the block opened at line {}".format(
                    path, number, open_block[1]))
            name = begin.group(1)
            if name not in tables:
                raise Failure("{}:{}: unknown results table '{}' (known: {})".format(
                    path, number, name, ", ".join(sorted(tables))))
            open_block = (name, number)
            out.append(line)
            newline = "\r\n" if line.endswith("\r\n") else "\n"
            try:
                table = render(name, tables[name], files, page_dir)
            except Failure as e:
                raise Failure("{}:{}: table '{}': {}".format(path, number, name, e))
            out += [newline] + [l + newline for l in table] + [newline]
        elif end:
            if not open_block:
                raise Failure("{}:{}: results:end without results:begin".format(path, number))
            open_block = None
            out.append(line)
        elif not open_block:
            out.append(line)
    if open_block:
        raise Failure("{}:{}: results:begin {} has no results:end".format(path, open_block[1], open_block[0]))
    return text, "".join(out)


def default_pages(root):
    pages = [os.path.join(root, "README.md")]
    perf = os.path.join(root, "docs", "performance")
    if os.path.isdir(perf):
        pages += [os.path.join(perf, n) for n in sorted(os.listdir(perf)) if n.endswith(".md")]
    return pages


def main(argv=None, tables=None, results_dir=None, root=None):
    tables = TABLES if tables is None else tables
    root = ROOT if root is None else root
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the blocks of FILEs in place")
    mode.add_argument("--check", action="store_true", help="exit 1 with a diff when a block is stale")
    mode.add_argument("--used-files", action="store_true", help="print the CSVs every table draws on")
    mode.add_argument("--print", metavar="NAME", help="print one table (links relative to the root)")
    parser.add_argument("--results", metavar="DIR", default=results_dir or RESULTS,
                        help="the CSVs' directory (default: bench/results of this repository)")
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="pages (default: README.md and docs/performance/*.md)")
    args = parser.parse_args(argv)
    try:
        files = load_results(args.results)
        if args.used_files:
            used = set()
            for name in tables:
                for r in resolve(tables[name], files):
                    used.update(f.path for f in r.files)
            for path in sorted(used):
                print(os.path.relpath(path, root).replace(os.sep, "/"))
            return 0
        if args.print:
            if args.print not in tables:
                raise Failure("unknown results table '{}' (known: {})".format(args.print, ", ".join(sorted(tables))))
            print("\n".join(render(args.print, tables[args.print], files, root)))
            return 0
        stale = 0
        for path in args.files or [os.path.relpath(p) if p.startswith(os.getcwd() + os.sep) else p
                                   for p in default_pages(root)]:
            current, generated = regenerate(path, tables, files)
            if current == generated:
                continue
            if args.write:
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(generated)
                print("updated {}".format(path))
            else:
                stale += 1
                sys.stdout.writelines(difflib.unified_diff(
                    current.splitlines(keepends=True), generated.splitlines(keepends=True),
                    fromfile=path + " (committed)", tofile=path + " (from bench/results)"))
                print("{}: results tables differ from bench/results; run tools/results_tables.py --write"
                      .format(path), file=sys.stderr)
        return 1 if stale else 0
    except Failure as e:
        print("results_tables: error: {}".format(e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

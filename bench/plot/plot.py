#!/usr/bin/env python3
"""Turns the benchmarks' CSV into PNGs and Markdown tables: the CSV that bench/nvbench/nvbench_to_csv.py
makes of the sc_nvbench_<part> programs' JSONs, or one that sc_bench wrote into bench/results (the
same columns, anchors.COLUMNS).

    python3 bench/plot/plot.py bench.csv --out img

writes img/scan_time.png, img/scan_bandwidth.png, img/block_size_sweep.png and img/compaction.png,
and the radix, segmented-scan, SpMV, reduction and load-balancing figures of radix_sort.py,
segmented.py, spmv.py, reduction.py (img/reduce.png: the reduction strategies across n) and
load_balance.py (img/load_balance.png, img/merge.png),
and prints Markdown tables of the results, for the docs/performance pages. Parts missing from the CSV are skipped.
Every ratio is to the fastest library at the same point in the CSV, recomputed from its times
(anchors.annotate), whichever library that is: cub, thrust, another CCCL's cub_<version> (the rows of
sc_nvbench_cccl_next; in bench/results' CSVs, sc_bench_cccl_next's merged in), or cuSPARSE.
Needs matplotlib, imported only once the command line is read (--help works without it).
"""
import argparse
import csv
import math
import os
import sys

import anchors  # no matplotlib: the libraries and the ratios to the fastest of them

plt = None  # matplotlib.pyplot, imported by main() after the command line is parsed
titled = save = powers_of_two_axis = None  # figure.py's, imported with it

# Libraries first; each implementation keeps its colour in every figure (matplotlib's tab10).
TAB10 = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
ORDER = ["cub", "thrust", "naive", "efficient", "shared", "single_pass"]
COLORS = dict(zip(ORDER, TAB10), single_pass_stable="#c49c94")  # single_pass's brown, lighter
NEXT_CUB_COLOR = "#0b2e59"  # another CCCL's CUB (cub_3.6, ...): a darker shade of CUB's blue
COPY_STYLE = dict(color="black", linestyle="--", linewidth=1.2)
# The scan operations of other element types (the scan_types part's rows, ours and the CUBs'): in the table only.
TYPED_SCANS = ["scan_int64", "scan_float", "scan_double"]


def color(impl):
    if impl in COLORS:
        return COLORS[impl]
    return NEXT_CUB_COLOR if impl.startswith("cub_") else None


def order_key(impl):
    """Libraries first (cub, another CCCL's cub_*, thrust), then ORDER, then by name."""
    if impl.startswith("cub_"):
        return (0, 1, impl)
    return (ORDER.index(impl), 0, impl) if impl in ORDER else (len(ORDER), 0, impl)


def read(path):
    """Returns (gpu, rows): the '# gpu:' comment (or None) and the CSV rows with typed fields."""
    gpu, lines = None, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#"):
                if line.startswith("# gpu:"):
                    gpu = line[len("# gpu:"):].strip()
                continue
            lines.append(line)
    rows = []
    optional = lambda text: float(text) if text else None  # noqa: E731
    # A rate left blank (an NVBench row that counted no bytes or items: nvbench_to_csv.py) reads as
    # 0, as sc_bench wrote such a row's.
    rate = lambda text: float(text) if text else 0.0  # noqa: E731
    for r in csv.DictReader(lines):
        param = r["param"]
        rows.append(dict(
            operation=r["operation"], implementation=r["implementation"], n=int(r["n"]),
            # percent kept or true for compact and partition; a name (distribution, matrix) elsewhere
            param=int(param) if param.isdigit() else (param or None),
            ms=float(r["median_ms"]), gbps=rate(r["gbps"]), items_per_s=rate(r["items_per_s"]),
            gflops=optional(r["gflops"]), ratio=optional(r["ratio_to_anchor"]), pct=optional(r["pct_of_copy"]),
            block=int(r["block_size"]), anchor=r["anchor"] == "1", ok=r["ok"] == "1"))
    # Recomputed from the times: sc_bench wrote each row's ratio before the later libraries of its
    # point ran, so the ratios of bench/results' CSVs may be to a library other than the fastest.
    return gpu, anchors.annotate(rows)


def by_implementation(rows):
    impls = sorted({r["implementation"] for r in rows}, key=order_key)
    return [(impl, sorted((r for r in rows if r["implementation"] == impl), key=lambda r: (r["n"], r["block"])))
            for impl in impls]


def plain_log_axis(ax):
    """The y axis of `ax` on a log scale with plain numbers (0.5, 10, 2000) rather than powers of
    ten; over less than three decades the minor ticks at 2 and 5 are labelled too."""
    from matplotlib.ticker import FuncFormatter, NullFormatter
    ax.autoscale_view()
    lo, hi = ax.get_ylim()
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    if math.log10(hi / lo) > 3:
        ax.yaxis.set_minor_formatter(NullFormatter())
        return

    def minor(value, _):
        mantissa = value / 10 ** math.floor(math.log10(value) + 1e-9)
        return f"{value:g}" if round(mantissa) in (2, 5) and abs(mantissa - round(mantissa)) < 1e-6 else ""
    ax.yaxis.set_minor_formatter(FuncFormatter(minor))


def plot_scan(rows, gpu, out):
    scans = [r for r in rows if r["operation"] == "scan"]
    copies = sorted((r for r in rows if r["operation"] == "copy"), key=lambda r: r["n"])
    if not scans:
        print("no scan rows: scan_time.png and scan_bandwidth.png not written", file=sys.stderr)
        return
    # Both on log axes: from 2^10 to 2^28 the times span 10 µs to 10 ms and the bandwidths 0.5 to
    # 3000 GB/s; on a linear axis every size below 2^20 would lie on the floor.
    for name, field, ylabel, what in (("scan_time.png", "ms", "median time (ms)", "Exclusive scan of int32: time"),
                                      ("scan_bandwidth.png", "gbps", "GB/s (8 bytes per element, log scale)",
                                       "Exclusive scan of int32: bandwidth")):
        fig, ax = plt.subplots(figsize=(8, 5))
        for impl, series in by_implementation(scans):
            ax.plot([r["n"] for r in series], [r[field] for r in series], marker="o", markersize=3,
                    label=impl, color=color(impl))
        if copies:
            ax.plot([r["n"] for r in copies], [r[field] for r in copies], label="copy (cudaMemcpyAsync)", **COPY_STYLE)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        powers_of_two_axis(ax.xaxis)
        plain_log_axis(ax)
        ax.set_xlabel("n (elements)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left" if field == "ms" else "lower right")
        titled(ax, what, gpu)
        save(fig, out, name)


def plot_sweep(rows, gpu, out):
    sweep = [r for r in rows if r["operation"] == "sweep_scan"]
    if not sweep:
        print("no sweep_scan rows (sc_nvbench_scan's sweep_scan/*): block_size_sweep.png not written", file=sys.stderr)
        return
    sizes = sorted({r["n"] for r in sweep})
    blocks = sorted({r["block"] for r in sweep})
    fig, axes = plt.subplots(1, len(sizes), figsize=(6 * len(sizes), 4.5), squeeze=False)
    for ax, n in zip(axes[0], sizes):
        for impl, series in by_implementation([r for r in sweep if r["n"] == n]):
            ax.plot([r["block"] for r in series], [r["ms"] for r in series], marker="o", label=impl,
                    color=color(impl))
        # The libraries' scans at the same n (their own block sizes): horizontal lines.
        libraries = [r for r in rows if r["operation"] == "scan" and r["n"] == n
                     and anchors.is_library(r["implementation"], r["anchor"])]
        for impl, series in by_implementation(libraries):
            ax.axhline(series[0]["ms"], color=color(impl), linestyle=":", linewidth=1.5,
                       label=f"{impl} ({series[0]['ms']:.3g} ms)")
        ax.set_xscale("log", base=2)
        ax.set_xticks(blocks, [str(b) for b in blocks])
        ax.set_xticks([], minor=True)
        ax.set_yscale("log")
        ax.autoscale_view()
        bottom, top = ax.get_ylim()
        ax.set_ylim(bottom, top * (top / bottom) ** 0.5)  # headroom for the legend above the lines
        plain_log_axis(ax)
        ax.set_xlabel("threads per block")
        ax.set_ylabel("median time (ms)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="upper right", ncol=2)
        titled(ax, f"Scan block-size sweep, n = {anchors.size_label(n)}", gpu)
    save(fig, out, "block_size_sweep.png")


def bars(ax, groups, series_rows, copy_gbps, ncol=3):
    """Grouped bars of GB/s: one group per label in `groups`, one bar per implementation."""
    impls = by_implementation(series_rows)
    width = 0.8 / max(len(impls), 1)
    for i, (impl, series) in enumerate(impls):
        values = {r["param"]: r["gbps"] for r in series}
        xs = [g + (i - (len(impls) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [values.get(p, 0) for p in groups], width, label=impl, color=color(impl))
    if copy_gbps:
        ax.axhline(copy_gbps, label="copy (cudaMemcpyAsync)", **COPY_STYLE)
    # Headroom above the tallest bar and the copy line for the legend.
    ax.set_ylim(0, 1.3 * max([r["gbps"] for r in series_rows] + [copy_gbps or 0]))
    ax.set_ylabel("GB/s (bytes a perfect implementation moves)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8 if ncol > 2 else 7, loc="upper left", ncol=min(ncol, len(impls)))


def plot_compaction(rows, gpu, out):
    compact = [r for r in rows if r["operation"] == "compact"]
    if not compact:
        print("no compact rows: compaction.png not written", file=sys.stderr)
        return
    n = max(r["n"] for r in compact)
    copy = next((r["gbps"] for r in rows if r["operation"] == "copy" and r["n"] == n), None)
    compact = [r for r in compact if r["n"] == n]
    partition = [r for r in rows if r["operation"] == "partition" and r["n"] == n]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), gridspec_kw=dict(width_ratios=[3, 1.3]))
    kept = sorted({r["param"] for r in compact})
    bars(axes[0], kept, compact, copy)
    axes[0].set_xticks(range(len(kept)), [f"{p}% kept" for p in kept])
    titled(axes[0], f"Compaction, n = {anchors.size_label(n)}", gpu)
    true = sorted({r["param"] for r in partition})
    bars(axes[1], true, partition, copy, ncol=2)  # a narrow panel
    axes[1].set_xticks(range(len(true)), [f"{p}% true" for p in true])
    titled(axes[1], f"Partition, n = {anchors.size_label(n)}", gpu)
    save(fig, out, "compaction.png")


def ratio_cells(r):
    """The table's last two cells: the ratio to the fastest library of the point, and which it was."""
    if r["ratio"] is None:
        return "–", "–"
    return f"{r['ratio']:.2f}", r["fastest"]


def markdown(rows):
    """The results at each operation's largest n, libraries first, as a Markdown table."""
    print("| operation | implementation | n | ms | GB/s | % of copy | vs fastest library | fastest library |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for operation in ["copy", "scan", "compact", "partition"] + TYPED_SCANS:
        selected = [r for r in rows if r["operation"] == operation]
        if not selected:
            continue
        n = max(r["n"] for r in selected)
        for param in sorted({r["param"] for r in selected if r["n"] == n}, key=lambda p: -1 if p is None else p):
            group = [r for r in selected if r["n"] == n and r["param"] == param]
            for impl, series in by_implementation(group):
                r = series[0]
                name = operation + ("" if param is None else f" {param}%")
                flag = "" if r["ok"] else " (MISMATCH)"
                pct = "–" if r["pct"] is None else f"{r['pct']:.1f}"
                ratio, which = ratio_cells(r)
                print(f"| {name} | {impl}{flag} | {anchors.size_label(n)} | {r['ms']:.3f} | {r['gbps']:.0f} | {pct} "
                      f"| {ratio} | {which} |")


def main():
    global plt, titled, save, powers_of_two_axis
    parser = argparse.ArgumentParser(
        description="Plots the benchmarks' CSV (bench/nvbench/nvbench_to_csv.py's; a CSV of sc_bench's in "
                    "bench/results has the same columns) and prints Markdown tables. Needs matplotlib.")
    parser.add_argument("csv", help="the CSV that nvbench_to_csv.py wrote, or one of sc_bench's")
    parser.add_argument("--out", default="img", help="directory for the PNGs (default: img)")
    args = parser.parse_args()
    gpu, rows = read(args.csv)
    if not rows:
        sys.exit(f"plot.py: no results in {args.csv}")

    # Only now: --help, a bad command line and an empty CSV need no matplotlib.
    try:
        import matplotlib
    except ImportError:
        sys.exit("plot.py: needs matplotlib (pip install matplotlib)")
    matplotlib.use("Agg")  # files only: the GPU machine has no display
    import matplotlib.pyplot
    plt = matplotlib.pyplot
    from figure import powers_of_two_axis, save, titled
    import load_balance
    import radix_sort  # each family's figures and table in its own module (they import matplotlib)
    import reduction
    import segmented
    import spmv

    os.makedirs(args.out, exist_ok=True)
    plot_scan(rows, gpu, args.out)
    plot_sweep(rows, gpu, args.out)
    plot_compaction(rows, gpu, args.out)
    markdown(rows)
    for part in (radix_sort, segmented, spmv, reduction, load_balance):
        part.plot(rows, gpu, args.out)
        part.markdown(rows)


if __name__ == "__main__":
    main()

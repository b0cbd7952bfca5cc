"""Figures and table for this part of the benchmarks' CSV (called by plot.py): the load-balancing
search family (the load_balance and merge parts: sc_nvbench_load_balance, sc_nvbench_merge).

img/load_balance.png: interval expand (ours and Thrust's upper_bound + gather) and the
load-balancing search alone, GB/s against the number of outputs, uniform (solid) and power-law
(dashed) segments, with the device-to-device copy for scale (issue #14's target: 80% of it).
img/merge.png: sorted search, merge keys and merge pairs, our time over the fastest library's at
each n (above 1: we are faster), the libraries being whichever of CUB, another CCCL's CUB and
Thrust the CSV holds. The Markdown table: every point at 2^24 and the largest n. Each figure is
skipped when the CSV has none of its rows. Imported by plot.py once matplotlib may be.
"""
import matplotlib.pyplot as plt

import anchors  # size_label
from figure import gbps_against_n, power_of_two, powers_of_two_axis, save, titled

EXPAND = ["interval_expand", "load_balancing_search"]
MERGE = ["sorted_search", "merge_keys", "merge_pairs"]
SEGMENTS = {"uniform": "-", "power_law": "--"}
COLORS = {("interval_expand", "ours"): "#8c564b", ("interval_expand", "thrust"): "#ff7f0e",
          ("load_balancing_search", "ours"): "#2ca02c"}
MERGE_COLORS = dict(zip(MERGE, ("#1f77b4", "#d62728", "#9467bd")))


def plot_expand(rows, gpu, out):
    selected = [r for r in rows if r["operation"] in EXPAND and power_of_two(r["n"])]
    if not selected:
        return
    fig, ax = plt.subplots(figsize=(8, 5))
    for (operation, impl), colour in COLORS.items():
        for param, style in SEGMENTS.items():
            series = sorted((r for r in selected if (r["operation"], r["implementation"], r["param"]) ==
                             (operation, impl, param)), key=lambda r: r["n"])
            if series:
                label = f"{operation.replace('_', ' ')} ({impl}), {param.replace('_', '-')}"
                ax.plot([r["n"] for r in series], [r["gbps"] for r in series], marker="o", markersize=3,
                        linestyle=style, color=colour, label=label)
    copies = [r for r in rows if r["operation"] == "copy"]
    if copies:
        copy = max(copies, key=lambda r: r["n"])["gbps"]
        ax.axhline(copy, color="black", linestyle=":", linewidth=1.2, label=f"copy ({copy:.0f} GB/s)")
        ax.axhline(0.8 * copy, color="grey", linestyle=":", linewidth=1.0, label="80% of copy (issue #14)")
    gbps_against_n(ax, "outputs (int32)", "GB/s (outputs written + offsets and values read)")
    ax.legend(fontsize=7, loc="lower right")
    titled(ax, "Interval expand and load-balancing search", gpu)
    save(fig, out, "load_balance.png")


def plot_merge(rows, gpu, out):
    selected = [r for r in rows if r["operation"] in MERGE and r["implementation"] == "ours" and r["ratio"]
                and power_of_two(r["n"])]
    if not selected:
        return
    fig, ax = plt.subplots(figsize=(8, 5))
    for operation in MERGE:
        series = sorted((r for r in selected if r["operation"] == operation), key=lambda r: r["n"])
        if series:
            ax.plot([r["n"] for r in series], [r["ratio"] for r in series], marker="o", markersize=3,
                    color=MERGE_COLORS[operation], label=operation.replace("_", " "))
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1.0, label="the fastest library")
    ax.set_xscale("log", base=2)
    powers_of_two_axis(ax.xaxis)
    ax.set_xlabel("n (int32 keys: needles + haystack, or both inputs)")
    ax.set_ylabel("ours vs the fastest library (time ratio, > 1: faster)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    titled(ax, "Sorted search and merge against CUB / Thrust", gpu)
    save(fig, out, "merge.png")


def plot(rows, gpu, out):
    plot_expand(rows, gpu, out)
    plot_merge(rows, gpu, out)


def markdown(rows):
    """Every row of the family at 2^24 and the largest n: ms, GB/s, % of copy, ratio to the fastest library."""
    selected = [r for r in rows if r["operation"] in EXPAND + MERGE]
    if not selected:
        return
    sizes = sorted({1 << 24, max(r["n"] for r in selected)})
    print()
    print("| operation | segments | n | implementation | ms | GB/s | % of copy | vs fastest library |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for r in sorted((r for r in selected if r["n"] in sizes),
                    key=lambda r: ((EXPAND + MERGE).index(r["operation"]), str(r["param"]), r["n"], r["implementation"])):
        flag = "" if r["ok"] else " (MISMATCH)"
        pct = "–" if r["pct"] is None else f"{r['pct']:.1f}"
        ratio = "–" if r["ratio"] is None else f"{r['ratio']:.2f}"
        print(f"| {r['operation']} | {r['param'] or '–'} | {anchors.size_label(r['n'])} | {r['implementation']}{flag} "
              f"| {r['ms']:.4f} | {r['gbps']:.0f} | {pct} | {ratio} |")

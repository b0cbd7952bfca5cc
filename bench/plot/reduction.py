"""Figures and table for this part of the benchmarks' CSV (called by plot.py): the reductions (the
reduce part: sc_nvbench_reduce).

img/reduce.png: the lecture's table of strategies on this GPU, as curves across n: GB/s of input
read (4 bytes per int32) of CUB, tree, group, chunked and atomics, and of the maximum segment sum
(mss, same input), for the sum (left) and the maximum (right), on log-log axes. The Markdown
table: ms, GB/s and the ratio to the fastest library of the point (CUB; plot.py computes it) at
the issue's sizes that the CSV has (2^10, 2^16, 2^20: sc_nvbench_reduce runs the last alone) and the
largest n. Nothing when the CSV has no reduce rows.
Imported by plot.py once matplotlib may be.
"""
import matplotlib.pyplot as plt

import anchors  # size_label
from figure import gbps_against_n, power_of_two, save, titled

OPERATION = "reduce"
PANELS = [("sum", "Sum of int32"), ("max", "Maximum of int32")]
ORDER = ["cub", "tree", "group", "chunked", "atomics", "mss"]  # the anchor first
# CUB keeps plot.py's blue; the strategies take colours of their own, mss a dashed line (another operator).
COLORS = dict(zip(ORDER, (plt.get_cmap("tab10").colors[i] for i in (0, 7, 8, 3, 4, 9))))
STYLES = {"mss": dict(linestyle="--")}
TABLE_SIZES = [1 << 10, 1 << 16, 1 << 20]


def reduce_rows(rows, param=None):
    return [r for r in rows if r["operation"] == OPERATION and (param is None or str(r["param"]) == param)]


def implementations(rows):
    names = {r["implementation"] for r in rows}
    return sorted(names, key=lambda i: (ORDER.index(i) if i in ORDER else len(ORDER), i))


def panel(ax, rows, copies, what, gpu):
    """GB/s read against n (powers of two only: the 2^k - 3 points would crowd them)."""
    for impl in implementations(rows):
        series = sorted((r for r in rows if r["implementation"] == impl and power_of_two(r["n"])), key=lambda r: r["n"])
        if series:
            ax.plot([r["n"] for r in series], [r["gbps"] for r in series], marker="o", markersize=3, label=impl,
                    color=COLORS.get(impl), **STYLES.get(impl, {}))
    if copies:
        ax.plot([r["n"] for r in copies], [r["gbps"] for r in copies], color="black", linestyle=":", linewidth=1.2,
                label="copy (bytes read + written)")
    gbps_against_n(ax, "n (int32 elements)", "GB/s of input read (4 bytes per element)")
    ax.legend(fontsize=8, loc="upper left")  # the curves rise from the lower left
    titled(ax, what, gpu)


def plot(rows, gpu, out):
    panels = [(reduce_rows(rows, param), what) for param, what in PANELS]
    panels = [(selected, what) for selected, what in panels if selected]
    if not panels:
        return
    copies = sorted((r for r in rows if r["operation"] == "copy" and power_of_two(r["n"])), key=lambda r: r["n"])
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 5), squeeze=False)
    for ax, (selected, what) in zip(axes[0], panels):
        panel(ax, selected, copies, what, gpu)
    save(fig, out, "reduce.png")


def markdown(rows):
    """Each operator at the table's sizes and the largest n, CUB first: ms, GB/s, ratio to the fastest library."""
    selected = reduce_rows(rows)
    if not selected:
        return
    largest = max(r["n"] for r in selected)
    sizes = [n for n in TABLE_SIZES if n < largest] + [largest]
    print()
    print("| reduce | n | implementation | ms | GB/s read | vs fastest library | fastest library |")
    print("|---|---|---|---:|---:|---:|---|")
    for param, _ in PANELS:
        for n in sizes:
            point = [r for r in selected if str(r["param"]) == param and r["n"] == n]
            for impl in implementations(point):
                for r in (r for r in point if r["implementation"] == impl):
                    flag = "" if r["ok"] else " (MISMATCH)"
                    ratio = "–" if r["ratio"] is None else f"{r['ratio']:.2f}"
                    print(f"| {param} | {anchors.size_label(n)} | {impl}{flag} | {r['ms']:.4f} | {r['gbps']:.0f} | {ratio} "
                          f"| {r.get('fastest') or '–'} |")

"""Figures and table for this part of the benchmarks' CSV (called by plot.py): the segmented scans
(the segmented part: sc_nvbench_segmented).

img/segmented_scan.png: GB/s of each implementation per segmentation, the exclusive segmented sum
beside the per-segment sum (bytes: the values read and the results written). The Markdown table:
ms, GB/s and the ratio to the fastest library at each point (CUB or Thrust; plot.py computes it),
and which that was. Nothing when the CSV has no segmented rows. Imported by plot.py once
matplotlib may be.
"""
import os
import sys

import matplotlib.pyplot as plt

import anchors  # size_label

OPERATIONS = [("segmented_scan", "Exclusive segmented sum of int32"), ("segmented_reduce", "Sum per segment of int32")]
SEGMENTATIONS = ["mean 4", "mean 64", "mean 4096", "power-law"]
# CUB and Thrust keep plot.py's colours, their reductions by key lighter shades of them; ours take
# colours no other library here uses ("ours" is the segmented reduce's Auto, on one of its engines).
COLORS = {impl: plt.get_cmap("tab20").colors[i]
          for impl, i in (("cub", 0), ("cub_reduce_by_key", 1), ("thrust", 2), ("thrust_reduce_by_key", 3),
                          ("flags", 16), ("offsets", 18), ("ours", 18), ("merge_path", 8), ("item_tiles", 12))}
ORDER = list(COLORS)


def implementations(rows):
    names = {r["implementation"] for r in rows}
    return sorted(names, key=lambda i: (ORDER.index(i) if i in ORDER else len(ORDER), i))


def segmentations(rows):
    names = {str(r["param"]) for r in rows}
    return sorted(names, key=lambda s: (SEGMENTATIONS.index(s) if s in SEGMENTATIONS else len(SEGMENTATIONS), s))


def points(rows, operation):
    """The operation's rows at its largest n (the part runs one size, as sc_bench did)."""
    selected = [r for r in rows if r["operation"] == operation]
    if not selected:
        return []
    n = max(r["n"] for r in selected)
    return [r for r in selected if r["n"] == n]


def bars(ax, rows, what, gpu):
    """Grouped bars of GB/s: one group per segmentation, one bar per implementation."""
    groups = segmentations(rows)
    impls = implementations(rows)
    width = 0.8 / len(impls)
    for i, impl in enumerate(impls):
        values = {str(r["param"]): r["gbps"] for r in rows if r["implementation"] == impl}
        xs = [g + (i - (len(impls) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [values.get(s, 0) for s in groups], width, label=impl, color=COLORS.get(impl))
    ax.set_xticks(range(len(groups)), [f"segments: {s}" for s in groups], fontsize=8)
    ax.set_ylim(0, 1.35 * max(r["gbps"] for r in rows))  # room for the legend
    ax.set_ylabel("GB/s (values read + results written)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=min(len(impls), 3))
    ax.set_title(f"{what}, n = {anchors.size_label(rows[0]['n'])}" + (f"\n{gpu}" if gpu else ""), fontsize=10)


def plot(rows, gpu, out):
    panels = [(points(rows, operation), what) for operation, what in OPERATIONS]
    panels = [(selected, what) for selected, what in panels if selected]
    if not panels:
        return
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 5), squeeze=False)
    for ax, (selected, what) in zip(axes[0], panels):
        bars(ax, selected, what, gpu)
    path = os.path.join(out, "segmented_scan.png")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    print(f"wrote {path}", file=sys.stderr)


def markdown(rows):
    """Each operation and segmentation, libraries first: ms, GB/s and the ratio to the fastest library."""
    tables = [(operation, points(rows, operation)) for operation, _ in OPERATIONS]
    tables = [(operation, selected) for operation, selected in tables if selected]
    if not tables:
        return
    print()
    print("| operation | segments | implementation | n | ms | GB/s | vs fastest library | fastest library |")
    print("|---|---|---|---|---:|---:|---:|---|")
    for operation, selected in tables:
        for segmentation in segmentations(selected):
            for impl in implementations(selected):
                for r in (r for r in selected if str(r["param"]) == segmentation and r["implementation"] == impl):
                    flag = "" if r["ok"] else " (MISMATCH)"
                    ratio = "–" if r["ratio"] is None else f"{r['ratio']:.2f}"
                    print(f"| {operation} | {segmentation} | {impl}{flag} | {anchors.size_label(r['n'])} | {r['ms']:.3f} "
                          f"| {r['gbps']:.0f} | {ratio} | {r.get('fastest') or '–'} |")

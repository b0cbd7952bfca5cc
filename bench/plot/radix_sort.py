"""Figures and table for this part of the benchmarks' CSV (called by plot.py): the radix sorts (the
radix_sort part: sc_nvbench_radix_sort).

img/radix_sort.png: Gkeys/s of each implementation per key distribution at the largest n, keys
alone and with values, and against n for uniform keys. The Markdown table: the same points at the
largest n with times and the ratio to the fastest library of the point (CUB or Thrust; plot.py
computes it), and which that was. Imported by plot.py once matplotlib may be.
"""
import os
import sys

import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter, LogFormatter

import anchors  # size_label

OPERATIONS = [("sort_keys", "int keys"), ("sort_pairs", "int keys and int values")]
DISTRIBUTIONS = ["uniform", "all_equal", "few_distinct", "sorted", "reverse_sorted", "low8", "low16"]
ORDER = ["cub", "thrust", "onesweep", "classic", "std_sort"]  # the anchor first
# CUB and Thrust keep plot.py's colours; classic, built on the single-pass partition, takes its colour.
COLORS = dict(zip(ORDER, (plt.get_cmap("tab10").colors[i] for i in (0, 1, 6, 5, 7))))


def sort_rows(rows, operation):
    return [r for r in rows if r["operation"] == operation]


def implementations(rows):
    names = {r["implementation"] for r in rows}
    return sorted(names, key=lambda i: (ORDER.index(i) if i in ORDER else len(ORDER), i))


def distributions(rows):
    names = {r["param"] for r in rows}
    return sorted(names, key=lambda d: (DISTRIBUTIONS.index(d) if d in DISTRIBUTIONS else len(DISTRIBUTIONS), d))


def gkeys(row):
    return row["items_per_s"] * 1e-9


def number(value):
    """Two decimals, or two significant digits for std::sort's tiny rates and ratios."""
    return f"{value:.2f}" if value >= 0.1 else f"{value:.2g}"


def titled(ax, what, gpu):
    ax.set_title(what + (f"\n{gpu}" if gpu else ""), fontsize=10)


def by_distribution(ax, rows, what, gpu):
    """Grouped bars at the largest n: one group per distribution, one bar per implementation."""
    n = max(r["n"] for r in rows)
    rows = [r for r in rows if r["n"] == n]
    groups = distributions(rows)
    impls = implementations(rows)
    width = 0.8 / len(impls)
    for i, impl in enumerate(impls):
        values = {r["param"]: gkeys(r) for r in rows if r["implementation"] == impl}
        xs = [g + (i - (len(impls) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [values.get(d, 0) for d in groups], width, label=impl, color=COLORS.get(impl))
    ax.set_xticks(range(len(groups)), groups, rotation=20, fontsize=8)
    ax.set_ylim(0, 1.2 * max(gkeys(r) for r in rows))  # headroom for the legend
    ax.set_ylabel("Gkeys/s")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=len(impls))
    titled(ax, f"Radix sort of {what}, n = {anchors.size_label(n)}", gpu)


def against_n(ax, rows, what, gpu):
    """Gkeys/s against n for uniform keys, one line per implementation."""
    rows = [r for r in rows if r["param"] == "uniform"]
    for impl in implementations(rows):
        series = sorted((r for r in rows if r["implementation"] == impl), key=lambda r: r["n"])
        ax.plot([r["n"] for r in series], [gkeys(r) for r in series], marker="o", label=impl, color=COLORS.get(impl))
    ax.set_xscale("log", base=2)
    # Log scale: the classic sort and std::sort are one and three orders of magnitude below CUB.
    ax.set_yscale("log")
    # Plain numbers; the minor ticks are labelled only on an axis of less than a decade.
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False))
    ax.set_xlabel("n (keys)")
    ax.set_ylabel("Gkeys/s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    titled(ax, f"Radix sort of uniform {what}", gpu)


def plot(rows, gpu, out):
    present = [(operation, what) for operation, what in OPERATIONS if sort_rows(rows, operation)]
    if not present:
        return
    fig, axes = plt.subplots(2, len(present), figsize=(7 * len(present), 9), squeeze=False)
    for column, (operation, what) in enumerate(present):
        selected = sort_rows(rows, operation)
        by_distribution(axes[0][column], selected, what, gpu)
        against_n(axes[1][column], selected, what, gpu)
    path = os.path.join(out, "radix_sort.png")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    print(f"wrote {path}", file=sys.stderr)


def markdown(rows):
    """Both sorts at their largest n, per distribution, libraries first, as a Markdown table."""
    if not any(sort_rows(rows, operation) for operation, _ in OPERATIONS):
        return
    print()
    print("| operation | distribution | implementation | n | ms | Gkeys/s | vs fastest library | fastest library |")
    print("|---|---|---|---|---:|---:|---:|---|")
    for operation, _ in OPERATIONS:
        selected = sort_rows(rows, operation)
        if not selected:
            continue
        n = max(r["n"] for r in selected)
        selected = [r for r in selected if r["n"] == n]
        for distribution in distributions(selected):
            group = [r for r in selected if r["param"] == distribution]
            for impl in implementations(group):
                r = next(r for r in group if r["implementation"] == impl)
                flag = "" if r["ok"] else " (MISMATCH)"
                ratio = "–" if r["ratio"] is None else number(r["ratio"])
                print(f"| {operation} | {distribution} | {impl}{flag} | {anchors.size_label(n)} | {r['ms']:.3f} | "
                      f"{number(gkeys(r))} | {ratio} | {r.get('fastest') or '–'} |")

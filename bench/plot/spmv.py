"""Figures and table for this part of the benchmarks' CSV (called by plot.py): the SpMV (the spmv
part: sc_nvbench_spmv).

img/spmv.png: for float and double, the ratio of flat, merge_path, vector_csr and auto to the
faster cuSPARSE algorithm on each matrix (above 1: ours is faster), and every implementation's
GFLOP/s. The Markdown tables: each matrix's times and ratios and what auto chose (its row is named
"auto:<choice>"), and merge_path's geometric mean and minimum ratio over the SuiteSparse matrices
(all but the generated ones). Nothing when the CSV has no SpMV rows; older CSVs, without
vector_csr and auto, leave those cells empty.
The ratios are plot.py's, to the fastest library of each point: here the faster cuSPARSE algorithm.
Imported by plot.py once matplotlib may be.
"""
import math
import os
import sys

import matplotlib.pyplot as plt

PRECISIONS = [("spmv_float", "float"), ("spmv_double", "double")]
GENERATED = {"poisson_2d_2048", "poisson_3d_160", "power_law_2^22"}
OURS = ["flat", "merge_path", "vector_csr", "auto"]
ORDER = ["cusparse_alg1", "cusparse_alg2"] + OURS
COLORS = {impl: plt.get_cmap("tab10").colors[i] for impl, i in zip(ORDER, (0, 7, 8, 9, 2, 4))}


def matrices(rows):
    """Matrix names in the order of the CSV's rows, the order the matrices ran in (files by name, then
    the generated ones)."""
    names = []
    for r in rows:
        if str(r["param"]) not in names:
            names.append(str(r["param"]))
    return names


def row(rows, matrix, impl):
    """impl's row for the matrix; for "auto", the row named for its choice ("auto:merge_path")."""
    return next((r for r in rows if str(r["param"]) == matrix
                 and (r["implementation"] == impl or r["implementation"].startswith(impl + ":"))), None)


def choice(r):
    """What auto chose, from its row's name: "auto:vector_csr/8" -> "vector_csr/8"."""
    return r["implementation"].partition(":")[2] or "?"


def grouped_bars(ax, rows, impls, value):
    """One group per matrix, one bar per implementation; a missing point leaves a gap."""
    names = matrices(rows)
    width = 0.8 / len(impls)
    for i, impl in enumerate(impls):
        present = [(g + (i - (len(impls) - 1) / 2) * width, row(rows, m, impl)) for g, m in enumerate(names)]
        present = [(x, value(r)) for x, r in present if r is not None and value(r) is not None]
        ax.bar([x for x, _ in present], [v for _, v in present], width, label=impl, color=COLORS.get(impl))
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right", fontsize=7)
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=len(impls))


def plot(rows, gpu, out):
    panels = [([r for r in rows if r["operation"] == operation], precision) for operation, precision in PRECISIONS]
    panels = [(selected, precision) for selected, precision in panels if selected]
    if not panels:
        return
    fig, axes = plt.subplots(2, len(panels), figsize=(9 * len(panels), 10), squeeze=False)
    suffix = f"\n{gpu}" if gpu else ""
    for column, (selected, precision) in enumerate(panels):
        ratio_ax, gflops_ax = axes[0][column], axes[1][column]
        grouped_bars(ratio_ax, selected, OURS, lambda r: r["ratio"])
        ratio_ax.axhline(1.0, color="black", linestyle="--", linewidth=1.2)
        ratio_ax.set_ylabel("best cuSPARSE time / our time")
        ratio_ax.set_title(f"SpMV in {precision}: ours against the faster cuSPARSE CSR algorithm{suffix}", fontsize=10)
        grouped_bars(gflops_ax, selected, ORDER, lambda r: r["gflops"])
        # Log scale: the small matrices run at a few GFLOP/s, the large ones at a hundred or more (a CSV
        # without GFLOP/s, an NVBench one of before sc/flops, leaves the panel empty: no log of nothing).
        if any(r["gflops"] for r in selected):
            gflops_ax.set_yscale("log")
        gflops_ax.set_ylabel("GFLOP/s (2 per nonzero)")
        gflops_ax.set_title(f"SpMV in {precision}: GFLOP/s{suffix}", fontsize=10)
    path = os.path.join(out, "spmv.png")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    print(f"wrote {path}", file=sys.stderr)


def cell(r, text):
    if r is None:
        return "–"
    return text(r) + ("" if r["ok"] else " (MISMATCH)")


def ratio_text(r):
    return "–" if r["ratio"] is None else f"{r['ratio']:.2f}"


def markdown(rows):
    """Per matrix and precision: every implementation's ms and ours' ratio; then merge_path's summary."""
    tables = [([r for r in rows if r["operation"] == operation], precision) for operation, precision in PRECISIONS]
    tables = [(selected, precision) for selected, precision in tables if selected]
    if not tables:
        return
    print()
    print("| matrix | nnz | precision | ALG1 ms | ALG2 ms | flat ms | merge_path ms | vector_csr ms | auto ms "
          "| auto chose | merge_path GFLOP/s | flat vs cuSPARSE | merge_path vs cuSPARSE | vector_csr vs cuSPARSE "
          "| auto vs cuSPARSE |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for selected, precision in tables:
        for matrix in matrices(selected):
            found = {impl: row(selected, matrix, impl) for impl in ORDER}
            nnz = next(r["n"] for r in found.values() if r is not None)
            times = [cell(found[impl], lambda r: f"{r['ms']:.4f}") for impl in ORDER]
            chose = cell(found["auto"], choice)
            gflops = cell(found["merge_path"], lambda r: "–" if r["gflops"] is None else f"{r['gflops']:.1f}")
            ratios = [cell(found[impl], ratio_text) for impl in OURS]
            print(f"| {matrix} | {nnz} | {precision} | " + " | ".join(times + [chose, gflops] + ratios) + " |")
    print()
    print("| precision | SuiteSparse matrices | merge_path vs cuSPARSE: geometric mean | minimum (matrix) |")
    print("|---|---:|---:|---|")
    for selected, precision in tables:
        ratios = [(r["ratio"], str(r["param"])) for r in selected
                  if r["implementation"] == "merge_path" and str(r["param"]) not in GENERATED and r["ratio"]]
        if not ratios:
            print(f"| {precision} | 0 | – | – |")
            continue
        geometric_mean = math.exp(sum(math.log(ratio) for ratio, _ in ratios) / len(ratios))
        worst, worst_matrix = min(ratios)
        print(f"| {precision} | {len(ratios)} | {geometric_mean:.2f} | {worst:.2f} ({worst_matrix}) |")

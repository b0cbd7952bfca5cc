#!/usr/bin/env python3
"""Scaling figure of sc_dist_bench's CSV: each primitive's per-GPU throughput on k GPUs against one
GPU's (weak scaling: scan, compaction, sort; 1.0 is perfect), and the speed-up on k GPUs of SpMV
and, when the CSV has it, of the sort of the largest input one GPU holds (strong scaling), with
the issue's targets.

    python3 bench/plot/distributed.py dist.csv --out img     # writes img/distributed_scaling.png

Needs matplotlib, imported only once the command line is read (--help works without it).
"""
import argparse
import csv
import os

# (operation, implementation, param, label) of the bars: sc_dist_bench's per_gpu_vs_one_gpu column.
WEAK = [("scan", "nccl", "int32", "exclusive sum"), ("compact", "nccl", "50", "compaction"),
        ("compact", "nccl_rebalance", "50", "compaction, rebalanced"), ("sort_keys", "nccl", "uniform", "sample sort")]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", help="sc_dist_bench --csv output")
    parser.add_argument("--out", default="img", help="folder of the figure (default: img)")
    args = parser.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(args.csv, newline="") as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    gpus = sorted({int(r["gpus"]) for r in rows})
    value = {(r["operation"], r["implementation"], r["param"], int(r["gpus"])): float(r["per_gpu_vs_one_gpu"])
             for r in rows}
    n_per_gpu = next(int(r["n_per_gpu"]) for r in rows if r["operation"] == "scan")

    fig, (weak, strong) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [3, 1]})
    width = 0.8 / len(gpus)
    for k, count in enumerate(gpus):
        heights = [value.get((op, impl, param, count), 0.0) for op, impl, param, _ in WEAK]
        xs = [i + (k - (len(gpus) - 1) / 2) * width for i in range(len(WEAK))]
        weak.bar(xs, heights, width, label=f"{count} GPU{'s' if count > 1 else ''}")
        for x, h in zip(xs, heights):
            weak.text(x, h + 0.01, f"{h:.2f}", ha="center", va="bottom", fontsize=8)
    weak.axhline(0.95, color="black", linestyle="--", linewidth=1, label="target 0.95 (scan, compaction)")
    # The sort's target is its time against its exchange bound on the most GPUs, in its label.
    labels = [label for _, _, _, label in WEAK]
    times = {(r["operation"], r["implementation"], r["param"], int(r["gpus"])): float(r["median_ms"]) for r in rows}
    most = gpus[-1]
    if ("sort_keys", "exchange_bound", "uniform", most) in times and most > 1:
        ratio = times[("sort_keys", "nccl", "uniform", most)] / times[("sort_keys", "exchange_bound", "uniform", most)]
        labels[-1] += f"\n({ratio:.3f}x its exchange\nbound on {most} GPUs)"
    weak.set_xticks(range(len(WEAK)), labels)
    weak.set_ylabel("per-GPU throughput / one GPU's")
    weak.set_ylim(0, 1.15)
    weak.set_title(f"weak scaling, 2^{n_per_gpu.bit_length() - 1} int32 per GPU")
    weak.legend(fontsize=8, loc="lower left")

    spmv_op = next((r["param"] for r in rows if r["operation"] == "spmv_double"), "spmv")
    speedups = [value.get(("spmv_double", "nccl", spmv_op, count), 0.0) for count in gpus]
    strong.plot(gpus, speedups, marker="o", label=f"SpMV (double), {spmv_op}")
    sort_total = next((int(r["n"]) for r in rows if r["param"] == "uniform_strong"), None)
    if sort_total:  # the sort's strong scaling, when the CSV has it
        sort_speedups = [value.get(("sort_keys", "nccl", "uniform_strong", count), 0.0) for count in gpus]
        strong.plot(gpus, sort_speedups, marker="s", label=f"sample sort, 2^{sort_total.bit_length() - 1} keys")
    strong.plot(gpus, gpus, color="gray", linestyle=":", label="ideal")
    if 2 in gpus:
        strong.plot([2], [1.7], marker="_", markersize=20, color="black", linestyle="none", label="SpMV target on 2 GPUs")
    strong.set_xticks(gpus)
    strong.set_xlabel("GPUs")
    strong.set_ylabel("speed-up over one GPU")
    strong.set_xlim(gpus[0] - 0.3, gpus[-1] + 0.3)
    strong.set_title("strong scaling")
    strong.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "distributed_scaling.png")
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()

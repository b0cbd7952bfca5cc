#!/usr/bin/env python3
"""A cost model of the distributed primitives (issue #47), fitted on sc_dist_bench's rows of one machine
and used to predict more GPUs than it has.

    tools/dist_model.py [--csv FILE]                   the fit and the predictions, as a Markdown table
    tools/dist_model.py --plot PNG [--csv FILE]        and their figure (needs matplotlib)
    tools/dist_model.py --validate MEASURED [--csv FILE]
                                                       each row of MEASURED on more than 2 GPUs against the
                                                       prediction; exit 1 past --tolerance (a run of 1, 2, 4
                                                       GPUs: --csv and --validate the same file)

FILE defaults to the newest bench/results/h200x2_*_distributed*.csv (sc_dist_bench on 2 GPUs). The model
(times in ms, n keys of 4 bytes a GPU, G GPUs, NODE = 8 GPUs a node on NVSwitch):

  scan, compaction (weak scaling):  T(G) = T(1) + latency(G), latency(G) = a_nvlink * ceil(log2 min(G, NODE))
                                    + a_network * ceil(log2 ceil(G / NODE)): one all-gather of the counts,
                                    a tree of hops; a_nvlink fitted (T(2) - T(1) of the scan), a_network assumed
                                    (NETWORK_HOP_MS, no multi-node machine was lent to measure it).
  sample sort (weak scaling):       T(G) = local + alltoall(G) + merge * ceil(log2 G): the local sort of a shard,
                                    one all-to-all of the keys that move (each GPU sends 4n (G - 1) / G bytes),
                                    and the merge of the G received runs in pairwise rounds; local, the per-GPU
                                    all-to-all bandwidth and merge (T(2) - local - alltoall(2): one round, with
                                    the sampling) fitted. Past a node the keys for other nodes (4n (G - NODE) / G)
                                    cross the network at NETWORK_GBPS a GPU, those for the node NVLink, at once.
  SpMV (strong scaling, one matrix): T(G) = T(1) / G + halo, halo fitted (T(2) - T(1) / 2: the boundary rows'
                                    exchange and its synchronisation), plus one network hop past a node.

Exit status: 0 done; 1 a validated row is off by more than the tolerance; 2 an error (no CSV, rows missing).
"""

import argparse
import csv
import glob
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE = 8
# Between nodes: a DGX H200 (or H100) has eight single-port ConnectX-7 of up to 400 Gb/s, one a GPU
# (NVIDIA DGX BasePOD reference architecture, "Core Components":
# https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/core-components.html).
NETWORK_GBPS = 400 / 8  # GB/s a GPU, each way
NETWORK_HOP_MS = 0.010  # assumed: one inter-node hop of a small collective (not measured here)
GPU_COUNTS = [1, 2, 4, 8, 16, 32, 64]


class ModelError(Exception):
    pass


def newest_fit_csv():
    files = sorted(glob.glob(os.path.join(ROOT, "bench", "results", "h200x2_*_distributed*.csv")))
    if not files:
        raise ModelError("no bench/results/h200x2_*_distributed*.csv to fit on")
    return files[-1]


def read_rows(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    return {(r["operation"], r["implementation"], int(r["gpus"]), r["param"]): r for r in rows if r.get("ok") == "1"}


def row_ms(rows, operation, implementation, gpus, param):
    key = (operation, implementation, gpus, param)
    if key not in rows:
        raise ModelError("the fit needs the row {} (operation, implementation, gpus, param)".format(key))
    return float(rows[key]["median_ms"]), rows[key]


def log2_ceil(x):
    return int(math.ceil(math.log2(x))) if x > 1 else 0


class Model:
    """The fitted parameters and the predicted times of each primitive."""

    def __init__(self, rows):
        self.scan1, _ = row_ms(rows, "scan", "nccl", 1, "int32")
        scan2, _ = row_ms(rows, "scan", "nccl", 2, "int32")
        self.a_nvlink = max(scan2 - self.scan1, 0.0)
        self.compact1, _ = row_ms(rows, "compact", "nccl", 1, "50")
        self.rebalance1, _ = row_ms(rows, "compact", "nccl_rebalance", 1, "50")
        rebalance2, _ = row_ms(rows, "compact", "nccl_rebalance", 2, "50")
        self.rebalance_exchange = max(rebalance2 - self.rebalance1, 0.0)  # the one exchange of a rebalance
        self.local_sort, sort_row = row_ms(rows, "sort_keys", "local_sort", 1, "uniform")
        self.n_per_gpu = int(sort_row["n_per_gpu"])
        alltoall2, _ = row_ms(rows, "sort_keys", "alltoall", 2, "uniform")
        self.nvlink_gbps = 4.0 * self.n_per_gpu / 2 / (alltoall2 * 1e6)
        sort2, _ = row_ms(rows, "sort_keys", "nccl", 2, "uniform")
        self.merge_round = sort2 - self.local_sort - alltoall2
        self.spmv1, _ = row_ms(rows, "spmv_double", "nccl", 1, "poisson_2d_7328")
        spmv2, _ = row_ms(rows, "spmv_double", "nccl", 2, "poisson_2d_7328")
        self.halo = spmv2 - self.spmv1 / 2

    def latency(self, g):
        return self.a_nvlink * log2_ceil(min(g, NODE)) + NETWORK_HOP_MS * log2_ceil(math.ceil(g / NODE))

    def alltoall(self, g):
        sent = 4.0 * self.n_per_gpu  # bytes of a shard's keys
        in_node = sent * (min(g, NODE) - 1) / g / (self.nvlink_gbps * 1e6)
        off_node = sent * max(g - NODE, 0) / g / (NETWORK_GBPS * 1e6)
        return max(in_node, off_node)

    def times(self, g):
        """(operation, implementation, param) -> ms at g GPUs."""
        sort = self.local_sort + self.alltoall(g) + self.merge_round * log2_ceil(g)
        spmv = self.spmv1 / g + (self.halo if g > 1 else 0.0) + (NETWORK_HOP_MS if g > NODE else 0.0)
        return {
            ("scan", "nccl", "int32"): self.scan1 + self.latency(g),
            ("compact", "nccl", "50"): self.compact1 + self.latency(g),
            ("compact", "nccl_rebalance", "50"): self.rebalance1 + self.latency(g)
            + (self.rebalance_exchange if g > 1 else 0.0),
            ("sort_keys", "nccl", "uniform"): sort,
            ("sort_keys", "alltoall", "uniform"): self.alltoall(g),
            ("spmv_double", "nccl", "poisson_2d_7328"): spmv,
        }

    def predict(self, g):
        """(operation, implementation, param) -> (ms, one GPU's time / ms) at g GPUs: the per-GPU
        throughput against one GPU's (weak scaling), SpMV's speed-up (strong scaling)."""
        one = self.times(1)
        return {k: (ms, one[k] / ms if one[k] > 0 else None) for k, ms in self.times(g).items()}


LABELS = [
    (("scan", "nccl", "int32"), "exclusive sum (per GPU vs one)"),
    (("compact", "nccl", "50"), "compaction, 50% (per GPU vs one)"),
    (("compact", "nccl_rebalance", "50"), "compaction, rebalanced (per GPU vs one)"),
    (("sort_keys", "nccl", "uniform"), "sample sort (per GPU vs one)"),
    (("spmv_double", "nccl", "poisson_2d_7328"), "SpMV, Poisson 7328^2 (speed-up)"),
]


def markdown(model, source):
    lines = ["| primitive | " + " | ".join("{} GPU{}".format(g, "s" if g > 1 else "") for g in GPU_COUNTS) + " |",
             "|---|" + "---:|" * len(GPU_COUNTS)]
    for key, label in LABELS:
        cells = []
        for g in GPU_COUNTS:
            ms, ratio = model.predict(g)[key]
            cells.append("{:.3f} ms ({:.2f})".format(ms, ratio))
        lines.append("| {} | {} |".format(label, " | ".join(cells)))
    share = ["{:.0f}%".format(100 * model.alltoall(g) / model.predict(g)[("sort_keys", "nccl", "uniform")][0])
             for g in GPU_COUNTS]
    lines.append("| sample sort: the all-to-all's share | " + " | ".join(share) + " |")
    lines += ["", "Fitted on `{}`: a_nvlink {:.4f} ms a hop, all-to-all {:.0f} GB/s a GPU inside a node, a merge "
              "round {:.2f} ms, SpMV halo {:.3f} ms; between nodes {:.0f} GB/s a GPU and {:.3f} ms a hop "
              "(assumed).".format(os.path.relpath(source, ROOT), model.a_nvlink, model.nvlink_gbps,
                                  model.merge_round, model.halo, NETWORK_GBPS, NETWORK_HOP_MS)]
    return "\n".join(lines)


def validate(model, measured_path, tolerance):
    """Rows of the measured CSV the model predicts, with their relative error; the worst error."""
    measured = read_rows(measured_path)
    worst, out = 0.0, []
    for (operation, implementation, gpus, param), row in sorted(measured.items()):
        key = (operation, implementation, param)
        prediction = model.predict(gpus).get(key)
        if prediction is None or gpus <= 2:  # the fit's own points
            continue
        ms = float(row["median_ms"])
        error = abs(prediction[0] - ms) / ms
        worst = max(worst, error)
        out.append("{} {} on {} GPUs: measured {:.3f} ms, predicted {:.3f} ms, {:+.1f}%{}".format(
            operation, implementation, gpus, ms, prediction[0], 100 * (prediction[0] - ms) / ms,
            "  <- past {:.0f}%".format(100 * tolerance) if error > tolerance else ""))
    return out, worst


def plot(model, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label in LABELS:
        ratios = [model.predict(g)[key][1] / (g if key[0] == "spmv_double" else 1) for g in GPU_COUNTS]
        ax.plot(GPU_COUNTS, ratios, marker="o", label=label.split(" (")[0])
    ax.set_xscale("log", base=2)
    ax.set_xticks(GPU_COUNTS, [str(g) for g in GPU_COUNTS])
    ax.axvline(NODE, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("GPUs (8 a node; past the dotted line, 400 Gb/s InfiniBand a GPU)")
    ax.set_ylabel("per-GPU efficiency (1 = one GPU's)")
    ax.set_ylim(0, 1.1)
    ax.set_title("Cost model fitted on 2 H200s (predictions past 2 GPUs)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--csv", help="sc_dist_bench CSV to fit on (default: the newest h200x2 one)")
    parser.add_argument("--plot", help="write the figure here")
    parser.add_argument("--validate", help="a CSV of a run with more GPUs, each row against the prediction")
    parser.add_argument("--tolerance", type=float, default=0.15, help="for --validate (default 0.15)")
    args = parser.parse_args(argv)
    try:
        source = args.csv or newest_fit_csv()
        model = Model(read_rows(source))
        if args.validate:
            lines, worst = validate(model, args.validate, args.tolerance)
            print("\n".join(lines) or "no row of more than 2 GPUs to validate")
            return 1 if worst > args.tolerance else 0
        print(markdown(model, source))
        if args.plot:
            plot(model, args.plot)
    except (ModelError, OSError, KeyError, ValueError) as error:
        print("dist_model.py: {}".format(error), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

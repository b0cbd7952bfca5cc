#!/usr/bin/env bash
# Nsight Compute's speed-of-light view of the fast paths' kernels, for "what limits us" in
# docs/performance/README.md: DRAM and compute throughput as % of peak, achieved occupancy, per kernel.
# Usage: tools/profile.sh LOG_DIR   (on a GPU machine with ncu; builds the harness in build-gpu and
# sc_nvbench_spmv in build-gpu-bench, NVBench from the wheels in .nvbench/: .ci/nvbench_env.sh)
set -euo pipefail
logs=${1:?usage: tools/profile.sh LOG_DIR}
mkdir -p "$logs"
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-gpu}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target stream_compaction_harness >/dev/null
source .ci/nvbench_env.sh >/dev/null
cmake -S . -B "$build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSC_BUILD_TESTS=OFF -DSC_BUILD_HARNESS=OFF \
    "-DSC_NVBENCH=$SC_NVBENCH" >/dev/null
cmake --build "$build-bench" --target sc_nvbench_spmv >/dev/null
harness=$build/bin/stream_compaction_harness
# --clock-control none: the clocks stay as the benchmark saw them.
profile() {  # profile KERNEL_REGEX LAUNCHES HARNESS_ARGS...
    local kernels=$1 launches=$2
    shift 2
    ncu --clock-control none --section SpeedOfLight --section Occupancy -k "regex:$kernels" -c "$launches" \
        "$harness" --seed 1 "$@"
}
profile 'single_pass_scan_kernel|single_pass_select_kernel|count_kept_kernel' 12 --only single-pass \
    --size $((1 << 28)) >"$logs/profile.txt" 2>&1
profile 'radix_onesweep_kernel|radix_histogram_kernel' 10 --only radix --size $((1 << 26)) >>"$logs/profile.txt" 2>&1
# SpMV: the first launch of each kernel on Poisson 2D 2048^2 (the generated matrices alone: an
# empty matrix directory), every benchmark's state of it run once (NVBench's --profile).
no_matrices=$(mktemp -d)
for kernel in merge_path_reduce_kernel csrmv_v3_kernel; do
    SC_MATRIX_DIR=$no_matrices ncu --clock-control none --section SpeedOfLight --section Occupancy -k "$kernel" -c 1 \
        "$build-bench/bin/sc_nvbench_spmv" --profile --axis param=poisson_2d_2048 >>"$logs/profile.txt" 2>&1
done
grep -E "^  [a-z_].*\(|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy" \
    "$logs/profile.txt"

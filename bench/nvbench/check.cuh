#pragma once
// What every NVBench benchmark of sc_nvbench shares: inputs from a hash of the index (fill.h),
// outputs poisoned before the timed runs, and the full-output check of what the last timed run
// wrote, reported as the state's summary "sc/check/ok" (value 1: every item right; 0: not), which
// bench/nvbench/nvbench_to_csv.py turns into the CSV's ok column. A wrong output is also printed.
#include "device_check.h"  // kPoisonByte, poison, read_back
#include "fill.h"
#include "host_reference.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace bench {

// Records the check of a state's output; `what` says what was compared when it failed.
inline void record_check(nvbench::state &state, bool ok, const std::string &what) {
    auto &summary = state.add_summary("sc/check/ok");
    summary.set_string("name", "Checked");
    summary.set_string("description", "1 when every item of the last timed run's output was right");
    summary.set_int64("value", ok ? 1 : 0);
    if (!ok) std::fprintf(stderr, "sc_nvbench: %s: %s\n", state.get_short_description().c_str(), what.c_str());
}

// "" when got equals expected, else where they first differ (the first differing `item`, or the sizes).
template <class T>
std::string first_difference(const std::vector<T> &got, const std::vector<T> &expected,
                             const std::string &item = "item") {
    if (got.size() != expected.size())
        return std::to_string(got.size()) + " " + item + "s, expected " + std::to_string(expected.size());
    const std::size_t i = first_unequal(got.data(), expected.data(), got.size());
    if (i == got.size()) return "";
    return item + " " + std::to_string(i) + " of " + std::to_string(got.size()) + " is " + std::to_string(got[i]) +
           ", expected " + std::to_string(expected[i]);
}

// Records the check of a state whose first_difference (or other description of what is wrong) is
// `difference`: "" when the output was right.
inline void record_difference(nvbench::state &state, const std::string &difference) {
    record_check(state, difference.empty(), difference);
}

// Adds to *mismatches the positions where got and expected differ.
template <class T>
__global__ void count_mismatches(const T *got, const T *expected, std::size_t n, unsigned long long *mismatches) {
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        local += !(got[i] == expected[i]);
    if (local != 0) atomicAdd(mismatches, local);
}

// The items of got[0, n) that differ from expected's, counted on the device (stream-ordered, then
// waited for).
template <class T>
unsigned long long mismatches(const T *got, const T *expected, std::size_t n, cudaStream_t stream) {
    StreamCompaction::DeviceBuffer<unsigned long long> count(1);
    SC_CUDA_CHECK(cudaMemsetAsync(count.get(), 0, sizeof(unsigned long long), stream));
    count_mismatches<<<fill_blocks(n), kFillThreads, 0, stream>>>(got, expected, n, count.get());
    SC_CHECK_LAUNCH(count_mismatches);
    return read_back(count.get(), stream);
}

}  // namespace bench

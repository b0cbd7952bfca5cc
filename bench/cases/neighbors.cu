// sc_bench's neighbors part: grouped nearest neighbours (device/grouped_neighbors.cuh), the 3
// nearest towns of each of 2^20 generated towns (2^(max_log2 - 8) when that is smaller) in 16,384
// states (seed 11: 1.45 G pairs, the largest state 11,440 towns; the work grows with the square of
// the states' sizes, and the Pareto sizes of fewer states reach tens of G pairs), against the CPU reference on every core of the same machine (CPU::groupedNearest, the
// median of 3 runs). items = the pairs within the states (the sum of their squared sizes), so
// items/s is pairs per second. GPU times are CUDA events around the whole call (which waits for
// the device once itself); its result is checked against the CPU's up to near-ties before it is
// timed.
#include "cases.h"

#include <stream_compaction/reference/neighbors.h>
#include <stream_compaction/device/grouped_neighbors.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace bench {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

void run_neighbors(const Options &options, const Sink &sink) {
    constexpr int kStates = 16384, kNeighbors = 3, kCpuRuns = 3;
    const Stream stream;
    const int log2 = std::min(20, options.max_log2 - 8);
    const int towns = 1 << log2;
    const std::vector<SC::CPU::GroupedPoint> points = SC::CPU::generateTowns(towns, kStates, 11);
    std::vector<long long> state_sizes(kStates, 0);
    for (const auto &p : points) ++state_sizes[p.group];
    long long pairs = 0;
    for (long long size : state_sizes) pairs += size * size;
    std::fprintf(stderr, "[neighbors] %d towns in %d states (largest %lld towns): %lld pairs\n", towns, kStates,
                 *std::max_element(state_sizes.begin(), state_sizes.end()), pairs);

    std::vector<int> expected;
    std::vector<double> cpu(kCpuRuns);
    for (double &ms : cpu) {
        const auto start = std::chrono::steady_clock::now();
        expected = SC::CPU::groupedNearest(points, kNeighbors);
        ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    std::sort(cpu.begin(), cpu.end());

    std::vector<float> x(towns), y(towns);
    std::vector<int> state(towns);
    for (int i = 0; i < towns; ++i) x[i] = points[i].x, y[i] = points[i].y, state[i] = points[i].group;
    const auto d_x = DeviceBuffer<float>::from_host(x.data(), towns), d_y = DeviceBuffer<float>::from_host(y.data(), towns);
    const auto d_state = DeviceBuffer<int>::from_host(state.data(), towns);
    DeviceBuffer<int> d_nearest(static_cast<std::size_t>(towns) * kNeighbors);
    // The storage is sized for the search's environment: the stream, at the library's default tuning.
    const SC::CallEnvironment env(stream.get());
    DeviceBuffer<char> d_temp(SC::grouped_nearest_temp_bytes(towns, kStates, kNeighbors, env));
    const auto search = [&](std::size_t) {
        SC::grouped_nearest(d_x.get(), d_y.get(), d_state.get(), towns, kStates, kNeighbors, d_nearest.get(), d_temp.get(),
                            d_temp.bytes(), env);
    };
    d_nearest.fill_bytes(0xA5);
    search(0);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream.get()));  // the copy below runs on another stream
    std::vector<int> got(static_cast<std::size_t>(towns) * kNeighbors);
    d_nearest.copy_to_host(got.data(), got.size());
    const bool ok = SC::CPU::firstNeighborMismatch(points, kNeighbors, expected, got) < 0;
    if (!ok) std::fprintf(stderr, "warning: grouped_nearest: the GPU's neighbours differ from the CPU's\n");
    Rotation rotation(towns, copy_stride(towns));  // one copy: each run searches the same towns
    const double gpu_ms = median_ms(stream.get(), rotation, std::min(options.runs, 25), search);

    // Traffic of a perfect search: every town read once, its neighbours written.
    const double bytes = 12.0 * towns + 4.0 * kNeighbors * towns;
    const Size size{static_cast<std::size_t>(pairs), "2^" + std::to_string(log2) + "_towns"};
    const std::string param = std::to_string(kStates) + "_states_k" + std::to_string(kNeighbors);
    sink(Measurement{"grouped_nearest", "cpu_" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
                                            "_threads",
                     size, param, cpu[kCpuRuns / 2], bytes, 0, true, false});
    sink(Measurement{"grouped_nearest", "ours", size, param, gpu_ms, bytes, SC::kLbsThreads, ok, false});
    std::fprintf(stderr, "[neighbors] GPU %.3f ms = %.1fx the CPU on every core (%.1f ms)\n", gpu_ms,
                 cpu[kCpuRuns / 2] / gpu_ms, cpu[kCpuRuns / 2]);
}

}  // namespace bench

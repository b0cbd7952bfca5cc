// sc_bench's bfs part: breadth-first search from vertex 0 (device/bfs.cuh) against the CPU BFS of
// the same machine on one thread and on every core (reference/bfs.h), on luxembourg_osm and
// soc-Epinions1 from the matrix directory (when there) and on a generated power-law graph of 2^22
// vertices and about 2^26 edges (2^(max_log2 - 6) vertices when that is smaller). Each graph's
// rows: the whole search (bfs), its time per level (bfs_per_level), items = the edges out of the
// reached vertices (traversed edges: items/s is TEPS). And the yardstick of thin levels, the
// latency of one empty kernel launched and waited for (launch, launch_and_wait), and of one in a
// stream of launches (launch, back_to_back). GPU times are CUDA events around each whole call
// (which waits for the device itself); CPU times are std::chrono, median of at most 5 runs.
// Every GPU result is checked against the one-thread CPU levels before it is timed.
#include "cases.h"

#include <stream_compaction/reference/bfs.h>
#include <stream_compaction/device/bfs.cuh>
#include <stream_compaction/io/graph.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using Graph = SC::CsrMatrix<double>;

constexpr int kCpuRuns = 5;
constexpr int kLaunches = 2000;

__global__ void empty_kernel() {}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

double median_host_ms(int runs, const std::function<void()> &run) {
    std::vector<double> ms(runs);
    for (double &elapsed : ms) {
        const auto start = std::chrono::steady_clock::now();
        run();
        elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    return median(ms);
}

void run_launch_latency(const Options &options, const Sink &sink, cudaStream_t stream) {
    const Size one{1, "1"};
    for (int i = 0; i < 10; ++i) empty_kernel<<<1, 32, 0, stream>>>();
    SC_CHECK_LAUNCH(empty_kernel);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    const double waited = median_host_ms(std::max(options.runs, kLaunches), [&] {
        empty_kernel<<<1, 32, 0, stream>>>();
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    });
    sink(Measurement{"launch", "cuda", one, "launch_and_wait", waited, 0, 0, true, false});
    const Event start, stop;
    SC_CUDA_CHECK(cudaEventRecord(start.get(), stream));
    for (int i = 0; i < kLaunches; ++i) empty_kernel<<<1, 32, 0, stream>>>();
    SC_CHECK_LAUNCH(empty_kernel);
    SC_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
    SC_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float total = 0;
    SC_CUDA_CHECK(cudaEventElapsedTime(&total, start.get(), stop.get()));
    sink(Measurement{"launch", "cuda", one, "back_to_back", total / kLaunches, 0, 0, true, false});
}

void run_graph(const Options &options, const Sink &sink, const std::string &name, const Graph &graph,
               cudaStream_t stream) {
    SC::require_adjacency(graph, name);
    const int vertices = graph.rows, source = 0;
    const int *offsets = graph.row_offsets.data(), *neighbors = graph.column_indices.data();
    std::vector<int> expected;
    const double cpu_ms = median_host_ms(kCpuRuns, [&] { expected = SC::CPU::bfsLevels(vertices, offsets, neighbors, source); });
    std::vector<int> parallel;
    const double cpu_all_ms =
        median_host_ms(kCpuRuns, [&] { parallel = SC::CPU::bfsLevelsParallel(vertices, offsets, neighbors, source); });
    long long edges = 0, reached = 0;
    for (int v = 0; v < vertices; ++v)
        if (expected[v] >= 0) edges += offsets[v + 1] - offsets[v], ++reached;
    const int depth = *std::max_element(expected.begin(), expected.end()) + 1;
    std::fprintf(stderr, "[bfs] %s: %d vertices, %zu edges; from vertex 0: %lld reached over %d levels, %lld edges\n",
                 name.c_str(), vertices, graph.nnz(), reached, depth, edges);

    const auto d_offsets = DeviceBuffer<int>::from_host(offsets, graph.row_offsets.size());
    const auto d_neighbors = DeviceBuffer<int>::from_host(neighbors, graph.nnz());
    DeviceBuffer<int> d_levels(vertices);
    DeviceBuffer<char> d_temp(SC::bfs_temp_bytes(vertices));
    const auto search = [&](std::size_t) {
        SC::bfs_levels(d_offsets.get(), d_neighbors.get(), vertices, source, d_levels.get(), d_temp.get(),
                       d_temp.bytes(), stream);
    };
    SC_CUDA_CHECK(cudaMemsetAsync(d_levels.get(), 0xA5, vertices * sizeof(int), stream));
    search(0);
    std::vector<int> levels(vertices);
    d_levels.copy_to_host(levels.data(), vertices);
    const bool ok = levels == expected, parallel_ok = parallel == expected;
    if (!ok) std::fprintf(stderr, "warning: bfs on %s: the GPU's levels differ from the CPU's\n", name.c_str());
    if (!parallel_ok) std::fprintf(stderr, "warning: bfs on %s: the all-core CPU's levels differ\n", name.c_str());
    Rotation rotation(vertices, copy_stride(vertices));  // one copy: each run searches the same graph
    const double gpu_ms = median_ms(stream, rotation, options.runs, search);

    // Traffic of a perfect search: every reached vertex's offsets and edges read, every level written.
    const double bytes = 4.0 * edges + 8.0 * reached + 4.0 * vertices;
    const Size size{static_cast<std::size_t>(edges), name};
    const std::string param = std::to_string(depth) + "_levels";
    sink(Measurement{"bfs", "cpu_1_thread", size, param, cpu_ms, bytes, 0, true, false});
    sink(Measurement{"bfs", "cpu_" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + "_threads",
                     size, param, cpu_all_ms, bytes, 0, parallel_ok, false});
    sink(Measurement{"bfs", "ours", size, param, gpu_ms, bytes, SC::kBfsThinThreads, ok, false});
    sink(Measurement{"bfs_per_level", "ours", Size{static_cast<std::size_t>(depth), name}, param, gpu_ms / depth, 0,
                     SC::kBfsThinThreads, ok, false});
    std::fprintf(stderr, "[bfs] %s: GPU %.3f ms = %.2fx the CPU on every core, %.2fx one thread; %.2f us per level\n",
                 name.c_str(), gpu_ms, cpu_all_ms / gpu_ms, cpu_ms / gpu_ms, 1000 * gpu_ms / depth);
}

}  // namespace

void run_bfs(const Options &options, const Sink &sink) {
    const Stream stream;
    run_launch_latency(options, sink, stream.get());
    const std::string dir = matrix_directory(options);
    for (const char *file : {"luxembourg_osm", "soc-Epinions1"}) {
        const std::filesystem::path path = std::filesystem::path(dir) / (std::string(file) + ".mtx");
        std::error_code error;
        if (dir.empty() || !std::filesystem::is_regular_file(path, error)) {
            std::fprintf(stderr, "note: bfs: no %s in the matrix directory: skipped\n", path.string().c_str());
            continue;
        }
        run_graph(options, sink, file, SC::read_matrix_market(path.string()), stream.get());
    }
    // Pareto out-degrees from 6, mean about 18: 2^22 vertices, about 2^26 edges.
    const int log2 = std::min(22, options.max_log2 - 6);
    run_graph(options, sink, "power_law_2^" + std::to_string(log2), SC::power_law(1 << log2, 1 << log2, 1.5, 6, 2024),
              stream.get());
}

}  // namespace bench

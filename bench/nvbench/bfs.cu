// The bfs part on NVBench (issue #48): breadth-first search from vertex 0 (device/bfs.cuh: bfs/ours) against the
// CPU BFS of the same machine on one thread (bfs/cpu_1_thread) and on every core (bfs/cpu_<N>_threads, N the
// machine's hardware threads), on three graphs: luxembourg_osm and soc-Epinions1 from the matrix directory (when
// there) and a generated power-law graph of 2^22 vertices and about 2^26 edges (Pareto out-degrees from 6, seed
// 2024). And the yardstick of thin levels, the latency of one empty kernel launched and waited for (launch/cuda,
// param launch_and_wait). The rate of back-to-back launches (many between two events, the time over their count)
// is not here: its NVBench form is the batch measurement of an empty kernel (nv/batch/time/gpu/mean), which the
// CSV does not take and gpu_check's --no-batch turns off, and a state timing N launches would give the CSV N
// times one launch's time.
//
// One benchmark per implementation, its axis param the graphs' names (load_graphs's order). A row's items are
// the edges out of the reached vertices (traversed edges: items/s is TEPS), which are the graph's and the
// source's, so not an axis: each state says them in the summary sc/n (nvbench_to_csv.py). The time per level
// (bfs_per_level: ours' time over the levels, n the levels) is the same run's, so not a benchmark: bfs/ours'
// states write the levels in the summary sc/levels, and nvbench_to_csv.py derives the row. The
// graphs are read and generated when the program starts (NVBench fixes the axes before main, as in spmv.cu),
// and only their pattern is kept (about 0.3 GB of host memory for the power-law graph). The matrix directory
// as in spmv.cu: $SC_MATRIX_DIR, else .data/matrices of the working directory; a graph missing from it, or one
// that cannot be read or is no square adjacency matrix, is left out with a line on stderr.
//
// Timing: bfs_levels waits for the device at every change of hands between the thin block and the wide levels
// (it reads the frontier's size on the host), so ours runs under exec_tag::sync (no blocking kernel, no batch);
// NVBench's cold runs flush the L2 before each search. The CPU BFSs are CPU-only benchmarks (set_is_cpu_only,
// exec_tag::no_gpu): NVBench's host timer around each whole search, its summaries nv/cpu_only/... in place of
// nv/cold/...; NVBench 0.3.0 gives a CPU-only benchmark no device, and its JSON printer writes such a state's
// "device" from the empty std::optional (json_printer.cu), a value that means nothing. Bytes: what a perfect
// search moves, every reached vertex's two offsets and its edges read, every level written.
//
// Check: the levels and the temporary storage are poisoned before the timed runs; the levels of the last run
// are compared in full with the one-thread CPU's (computed once per graph: host_reference.h), and the number
// of levels bfs_levels returns with theirs. Each CPU BFS's last result is compared in full with the same
// levels (the one-thread one too: a second search of its own, which must give the same levels). The empty
// kernel has no output: its state is checked when its launches and waits raised no CUDA error.
#include "check.cuh"

#include <stream_compaction/device/bfs.cuh>
#include <stream_compaction/io/graph.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/reference/bfs.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

constexpr int kSource = 0;
// The graphs read from the matrix directory (<name>.mtx), in the param axis's order.
constexpr const char *kGraphFiles[] = {"luxembourg_osm", "soc-Epinions1"};
// The generated graph's log2 of vertices: with out-degrees of mean about 17, about 2^26 edges.
constexpr int kPowerLawLog2 = 22;

__global__ void empty_kernel() {}

// The latency of one empty kernel launched and waited for (the wait is the row's: exec_tag::sync). The cold GPU
// time spans both, its stop event recorded once the wait returns; the cold CPU time (nv/cold/time/cpu/median),
// the host's clock around them, adds the two event records.
void launch_and_wait(nvbench::state &state) {
    state.add_element_count(1);  // n = 1: one launch a run
    state.exec(nvbench::exec_tag::sync, [](nvbench::launch &launch) {
        empty_kernel<<<1, 32, 0, launch.get_stream()>>>();
        SC_CHECK_LAUNCH(empty_kernel);
        SC_CUDA_CHECK(cudaStreamSynchronize(launch.get_stream()));
    });
    // No output to compare: a failed launch or wait would have thrown, and the state would have no summaries.
    record_check(state, true, "");
    auto &n_summary = state.add_summary("sc/n");
    n_summary.set_string("name", "Launches");
    n_summary.set_int64("value", 1);
}

// A graph's pattern: vertex v's out-neighbours are neighbors[offsets[v] .. offsets[v + 1]).
struct Graph {
    std::string name;
    int vertices = 0;
    std::vector<int> offsets, neighbors;
};

std::string matrix_directory() {
    const char *from_environment = std::getenv("SC_MATRIX_DIR");
    return from_environment != nullptr && *from_environment != '\0' ? from_environment : ".data/matrices";
}

// The pattern of `matrix` as the graph `name`; throws std::invalid_argument for a matrix that is no adjacency.
Graph graph_of(std::string name, SC::CsrMatrix<double> matrix) {
    SC::require_adjacency(matrix, name);
    return {std::move(name), matrix.rows, std::move(matrix.row_offsets), std::move(matrix.column_indices)};
}

// kGraphFiles's graphs, in order, then the generated one. Those that cannot be made are left out, each with a
// line on stderr.
std::vector<Graph> load_graphs() {
    const std::string dir = matrix_directory();
    std::vector<Graph> graphs;
    for (const char *file : kGraphFiles) {
        const std::filesystem::path path = std::filesystem::path(dir) / (std::string(file) + ".mtx");
        std::error_code error;
        if (!std::filesystem::is_regular_file(path, error)) {
            std::fprintf(stderr, "sc_nvbench: bfs leaves out %s: no %s\n", file, path.string().c_str());
            continue;
        }
        try {
            graphs.push_back(graph_of(file, SC::read_matrix_market(path.string())));
        } catch (const std::exception &e) {
            std::fprintf(stderr, "sc_nvbench: bfs leaves out %s: %s\n", file, e.what());
        }
    }
    const std::string power_law = "power_law_2^" + std::to_string(kPowerLawLog2);
    try {
        graphs.push_back(
            graph_of(power_law, SC::power_law(1 << kPowerLawLog2, 1 << kPowerLawLog2, 1.5, 6, 2024)));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "sc_nvbench: bfs leaves out %s: %s\n", power_law.c_str(), e.what());
    }
    return graphs;
}

// The program's graphs (read and generated once, before main).
const std::vector<Graph> &graphs() {
    static const std::vector<Graph> loaded = load_graphs();
    return loaded;
}

// The one-thread CPU's levels from kSource, and what they say of the search: the rows' items (the edges out
// of the reached vertices), the reached vertices (for the bytes) and the number of levels.
struct BfsReference {
    std::vector<int> levels;
    long long edges = 0, reached = 0;
    int depth = 0;
    std::size_t footprint() const { return levels.size() * sizeof(int); }
};

std::shared_ptr<const BfsReference> reference_of(const Graph &graph) {
    return cached_reference<BfsReference>("bfs levels " + graph.name, [&] {
        BfsReference reference;
        reference.levels = SC::CPU::bfsLevels(graph.vertices, graph.offsets.data(), graph.neighbors.data(), kSource);
        for (int v = 0; v < graph.vertices; ++v)
            if (reference.levels[v] >= 0) {
                reference.edges += graph.offsets[v + 1] - graph.offsets[v];
                ++reference.reached;
            }
        reference.depth = *std::max_element(reference.levels.begin(), reference.levels.end()) + 1;
        return reference;
    });
}

// The items, bytes and n of a state of `graph`, the search's whichever implementation runs it, so that the
// implementations' rows compare.
void count_search(nvbench::state &state, const Graph &graph, const BfsReference &reference) {
    state.add_element_count(static_cast<std::size_t>(reference.edges));
    state.add_global_memory_reads<int>(static_cast<std::size_t>(reference.edges + 2 * reference.reached));
    state.add_global_memory_writes<int>(static_cast<std::size_t>(graph.vertices));
    auto &n_summary = state.add_summary("sc/n");
    n_summary.set_string("name", "Edges");
    n_summary.set_string("description", "Edges out of the reached vertices (traversed edges)");
    n_summary.set_int64("value", static_cast<nvbench::int64_t>(reference.edges));
}

void time_gpu_search(nvbench::state &state, const Graph &graph) {
    const std::shared_ptr<const BfsReference> expected = reference_of(graph);
    const cudaStream_t stream = state.get_cuda_stream();
    const auto offsets = DeviceBuffer<int>::from_host(graph.offsets.data(), graph.offsets.size());
    const auto neighbors = DeviceBuffer<int>::from_host(graph.neighbors.data(), graph.neighbors.size());
    DeviceBuffer<int> levels(graph.vertices);
    DeviceBuffer<char> temp(SC::bfs_temp_bytes(graph.vertices));
    levels.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    count_search(state, graph, *expected);
    int depth = -1;
    state.exec(nvbench::exec_tag::sync, [&](nvbench::launch &launch) {
        depth = SC::bfs_levels(offsets.get(), neighbors.get(), graph.vertices, kSource, levels.get(), temp.get(),
                               temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    std::string difference =
        first_difference(read_back(levels.get(), graph.vertices, stream), expected->levels, "vertex");
    if (difference.empty() && depth != expected->depth)
        difference = "bfs_levels returned " + std::to_string(depth) + " levels, expected " +
                     std::to_string(expected->depth);
    record_difference(state, difference);
    auto &levels_summary = state.add_summary("sc/levels");
    levels_summary.set_string("name", "Levels");
    levels_summary.set_string("description", "Levels of the search (bfs_per_level: the time over them)");
    levels_summary.set_int64("value", expected->depth);
}

// A CPU BFS: search(graph) returns its levels. A CPU-only state: no GPU work, NVBench's host timer.
template <class Search>
void time_cpu_search(nvbench::state &state, const Graph &graph, Search search) {
    const std::shared_ptr<const BfsReference> expected = reference_of(graph);
    count_search(state, graph, *expected);
    std::vector<int> levels;
    state.exec(nvbench::exec_tag::no_gpu, [&](nvbench::launch &) { levels = search(graph); });
    record_difference(state, first_difference(levels, expected->levels, "vertex"));
}

enum class BfsImplementation { CpuOneThread, CpuEveryCore, Ours };

std::string cpu_every_core_name() {
    return "cpu_" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + "_threads";
}

// A benchmark's kernel generator: its implementation; the state's graph is the one its param names.
struct BfsBenchmark {
    BfsImplementation implementation;

    void operator()(nvbench::state &state, nvbench::type_list<>) const {
        const std::string &name = state.get_string("param");
        const auto graph =
            std::find_if(graphs().begin(), graphs().end(), [&](const Graph &g) { return g.name == name; });
        if (graph == graphs().end()) {
            state.skip("no graph named " + name);
            return;
        }
        switch (implementation) {
        case BfsImplementation::CpuOneThread:
            time_cpu_search(state, *graph, [](const Graph &g) {
                return SC::CPU::bfsLevels(g.vertices, g.offsets.data(), g.neighbors.data(), kSource);
            });
            break;
        case BfsImplementation::CpuEveryCore:
            time_cpu_search(state, *graph, [](const Graph &g) {
                return SC::CPU::bfsLevelsParallel(g.vertices, g.offsets.data(), g.neighbors.data(), kSource);
            });
            break;
        case BfsImplementation::Ours:
            time_gpu_search(state, *graph);
            break;
        }
    }
};

// Name "bfs/<implementation>", axis param (the graphs, in load_graphs's order); n in the states' summary sc/n.
void register_bfs(BfsImplementation implementation, const std::string &name,
                  const std::vector<std::string> &graph_names) {
    nvbench::benchmark_base &benchmark =
        nvbench::benchmark_manager::get()
            .add(std::make_unique<nvbench::benchmark<BfsBenchmark>>(BfsBenchmark{implementation}))
            .set_name("bfs/" + name)
            .add_string_axis("param", graph_names);
    if (implementation != BfsImplementation::Ours) benchmark.set_is_cpu_only(true);
}

// The order they run in: the launch latency first (its NVBENCH_BENCH, above kBfsRegistered, registers first),
// then the CPU's searches, then ours.
bool register_bfs_benchmarks() {
    std::vector<std::string> names;
    for (const Graph &graph : graphs()) names.push_back(graph.name);
    if (names.empty()) return false;  // none could be made: each was named on stderr
    register_bfs(BfsImplementation::CpuOneThread, "cpu_1_thread", names);
    register_bfs(BfsImplementation::CpuEveryCore, cpu_every_core_name(), names);
    register_bfs(BfsImplementation::Ours, "ours", names);
    return true;
}

// Names "<operation>/<implementation>": what bench/nvbench/nvbench_to_csv.py makes the CSV's rows of.
NVBENCH_BENCH(launch_and_wait).set_name("launch/cuda").add_string_axis("param", {"launch_and_wait"});

[[maybe_unused]] const bool kBfsRegistered = register_bfs_benchmarks();

}  // namespace
}  // namespace bench

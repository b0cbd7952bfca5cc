// The neighbors part on NVBench (issue #48): grouped nearest neighbours (device/grouped_neighbors.cuh:
// grouped_nearest/ours), the 3 nearest towns of each of 2^20 generated towns in 16,384 states (CPU::generateTowns,
// seed 11; 1.45 G pairs, the largest state 11,440 towns), against the CPU's grouped nearest on every core of the
// same machine (CPU::groupedNearest: grouped_nearest/cpu_<N>_threads, N the machine's hardware threads).
// Axis param: "16384_states_k3" (one value). items = n = the pairs within the states (the sum of their squared
// sizes: items/s is pairs per second); they are the towns', so not an axis: each state says them in the summary
// sc/n (nvbench_to_csv.py). Bytes: what a perfect search moves, every town's place and state read once (12
// bytes), its neighbours written (4 bytes each). The towns are generated once, at the first state, and kept
// (about 24 MB of host memory).
//
// Timing: grouped_nearest waits for the device once (the pair count sizes the search), so ours runs under
// exec_tag::sync (no blocking kernel, no batch); NVBench's cold runs flush the L2 before each search. Its
// storage is sized for the search's environment: the state's stream at the library's default tuning. The CPU's
// search is a CPU-only benchmark (set_is_cpu_only, exec_tag::no_gpu): NVBench's host timer around each whole
// search, its summaries nv/cpu_only/... in place of nv/cold/...; NVBench 0.3.0 gives a CPU-only benchmark no
// device, and its JSON printer writes such a state's "device" from the empty std::optional (json_printer.cu), a
// value that means nothing.
//
// Check: the neighbours and the temporary storage are poisoned before the timed runs; the neighbours of the
// last run are compared in full with the CPU's (computed once: host_reference.h), up to near-ties
// (CPU::firstNeighborMismatch: -1 in the same places, elsewhere other towns of the same state, each once, whose
// distances in double are the CPU's within 1e-5: the GPU's float distances may order near-ties otherwise), and
// no neighbour may be negative but -1 (the poison, unwritten, which that comparison would take for -1). The CPU
// search's last result is compared the same way with the reference (a search of its own).
#include "check.cuh"

#include <stream_compaction/device/grouped_neighbors.cuh>
#include <stream_compaction/reference/neighbors.h>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

// The inputs: 2^20 towns in 16,384 states, the k nearest of each, and the generator's seed.
constexpr int kTownsLog2 = 20;
constexpr int kTowns = 1 << kTownsLog2;
constexpr int kStates = 16384;
constexpr int kNeighbors = 3;
constexpr std::uint64_t kTownSeed = 11;

// The axis param's one value: "16384_states_k3".
std::string neighbors_param() { return std::to_string(kStates) + "_states_k" + std::to_string(kNeighbors); }

// The towns as the CPU takes them, and as the GPU's arrays; the pairs within their states.
struct Towns {
    std::vector<SC::CPU::GroupedPoint> points;
    std::vector<float> x, y;
    std::vector<int> state;
    long long pairs = 0;
};

Towns make_towns() {
    Towns towns;
    towns.points = SC::CPU::generateTowns(kTowns, kStates, kTownSeed);
    std::vector<long long> state_sizes(kStates, 0);
    for (const SC::CPU::GroupedPoint &p : towns.points) {
        towns.x.push_back(p.x);
        towns.y.push_back(p.y);
        towns.state.push_back(p.group);
        ++state_sizes[p.group];
    }
    for (const long long size : state_sizes) towns.pairs += size * size;
    return towns;
}

// The program's towns (generated once, at the first state that asks).
const Towns &towns() {
    static const Towns made = make_towns();
    return made;
}

// The CPU's neighbours of the towns, computed once.
std::shared_ptr<const std::vector<int>> expected_neighbors() {
    return cached_reference<std::vector<int>>("grouped nearest 2^" + std::to_string(kTownsLog2) + " towns " +
                                                  neighbors_param(),
                                              [] { return SC::CPU::groupedNearest(towns().points, kNeighbors); });
}

std::string neighbors_of(const std::vector<int> &nearest, long long town) {
    std::string text;
    for (int j = 0; j < kNeighbors; ++j)
        text += (j ? ", " : "") + std::to_string(nearest[static_cast<std::size_t>(town) * kNeighbors + j]);
    return text;
}

// "" when got passes for expected, up to near-ties (firstNeighborMismatch), else the first town that fails.
std::string neighbor_mismatch(const std::vector<int> &got, const std::vector<int> &expected) {
    const std::size_t size = static_cast<std::size_t>(kTowns) * kNeighbors;
    if (got.size() != size) return std::to_string(got.size()) + " neighbours, expected " + std::to_string(size);
    // firstNeighborMismatch takes any negative neighbour for -1: the poison's, unwritten, must fail here.
    const auto unwritten = std::find_if(got.begin(), got.end(), [](int neighbor) { return neighbor < -1; });
    if (unwritten != got.end())
        return "town " + std::to_string((unwritten - got.begin()) / kNeighbors) + " of " + std::to_string(kTowns) +
               ": neighbour " + std::to_string(*unwritten) + " (unwritten: the poison)";
    const long long town = SC::CPU::firstNeighborMismatch(towns().points, kNeighbors, expected, got);
    if (town < 0) return "";
    return "town " + std::to_string(town) + " of " + std::to_string(kTowns) + ": neighbours " +
           neighbors_of(got, town) + ", expected " + neighbors_of(expected, town) + " (up to near-ties)";
}

// The items, bytes and n of a state, the search's whichever implementation runs it, so that the two rows compare.
void count_search(nvbench::state &state, const Towns &in) {
    state.add_element_count(static_cast<std::size_t>(in.pairs));
    state.add_global_memory_reads<float>(2 * static_cast<std::size_t>(kTowns));
    state.add_global_memory_reads<int>(kTowns);
    state.add_global_memory_writes<int>(static_cast<std::size_t>(kTowns) * kNeighbors);
    auto &n_summary = state.add_summary("sc/n");
    n_summary.set_string("name", "Pairs");
    n_summary.set_string("description", "Pairs of towns within the states (the sum of their squared sizes)");
    n_summary.set_int64("value", static_cast<nvbench::int64_t>(in.pairs));
}

void grouped_nearest_ours(nvbench::state &state) {
    const Towns &in = towns();
    const std::shared_ptr<const std::vector<int>> expected = expected_neighbors();
    const cudaStream_t stream = state.get_cuda_stream();
    const auto x = DeviceBuffer<float>::from_host(in.x.data(), kTowns);
    const auto y = DeviceBuffer<float>::from_host(in.y.data(), kTowns);
    const auto town_states = DeviceBuffer<int>::from_host(in.state.data(), kTowns);
    DeviceBuffer<int> nearest(static_cast<std::size_t>(kTowns) * kNeighbors);
    DeviceBuffer<char> temp(SC::grouped_nearest_temp_bytes(kTowns, kStates, kNeighbors, SC::CallEnvironment(stream)));
    nearest.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    count_search(state, in);
    state.exec(nvbench::exec_tag::sync, [&](nvbench::launch &launch) {
        const SC::CallEnvironment env(static_cast<cudaStream_t>(launch.get_stream()));
        SC::grouped_nearest(x.get(), y.get(), town_states.get(), kTowns, kStates, kNeighbors, nearest.get(),
                            temp.get(), temp.bytes(), env);
    });
    // The last kernel is enqueued after the call's one wait: read_back waits for it on the same stream.
    record_difference(state, neighbor_mismatch(read_back(nearest.get(), nearest.bytes() / sizeof(int), stream),
                                               *expected));
}

// The CPU's search on every core. A CPU-only state: no GPU work, NVBench's host timer.
void grouped_nearest_cpu(nvbench::state &state) {
    const Towns &in = towns();
    const std::shared_ptr<const std::vector<int>> expected = expected_neighbors();
    count_search(state, in);
    std::vector<int> nearest;
    state.exec(nvbench::exec_tag::no_gpu,
               [&](nvbench::launch &) { nearest = SC::CPU::groupedNearest(in.points, kNeighbors); });
    record_difference(state, neighbor_mismatch(nearest, *expected));
}

std::string cpu_every_core_name() {
    return "cpu_" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + "_threads";
}

// Names "<operation>/<implementation>", axis param: what bench/nvbench/nvbench_to_csv.py makes the CSV's rows
// of; n in the states' summary sc/n. The CPU's first (its state computes the reference, before its timed runs),
// then ours. (NVBENCH_BENCH pastes the function's name into its own: unqualified, here.)
NVBENCH_BENCH(grouped_nearest_cpu)
    .set_name("grouped_nearest/" + cpu_every_core_name())
    .set_is_cpu_only(true)
    .add_string_axis("param", {neighbors_param()});
NVBENCH_BENCH(grouped_nearest_ours).set_name("grouped_nearest/ours").add_string_axis("param", {neighbors_param()});

}  // namespace
}  // namespace bench

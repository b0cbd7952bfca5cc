// The merge part on NVBench (issue #48), on sorted int32 keys (sorted_inputs.cuh: the
// inclusive sum of increments in {0, 1, 2} from index_hash, 0 with probability 1/2, so that some
// keys repeat and some are absent from the other array) at n = 2^20, 2^24 and 2^28 (axis n; the full profile:
// 2^20, 2^22, ..., 2^28):
//   sorted_search (param "lower"): the lower bounds of n sorted needles in a sorted haystack of n,
//     ours by merge path (ours) and by a binary search per needle (ours_binary), against
//     thrust::lower_bound's vectorized form (thrust). Bytes: needles and haystack read, bounds
//     written (12n).
//   merge_keys, merge_pairs: two sorted halves of n/2 keys (n is the output's length), with values
//     index hashes in [0, 2^16), merged into n, ours against cub::DeviceMerge::MergeKeys and
//     MergePairs (cub; int64 sizes). Bytes: 8n (keys), 16n (pairs).
//   inner_join (param "mean run 4"): two sorted arrays of 2^24 keys with runs of mean length 4
//     (increments 0 with probability 3/4), ours with the exact capacity, inner_join_size's count taken before
//     the timed runs (ours: what a captured graph replays), and with inner_join_size inside them
//     (ours_with_size: the check of the inputs' order, the count and its wait on the host, so its states run
//     under exec_tag::sync: no blocking kernel, no batch). No library has a join. n is the number of
//     pairs (items/s is pairs/s), not the keys', so not an axis: each state says it in the summary sc/n
//     (nvbench_to_csv.py); the bytes are the output's, 8 per pair (two int indices).
// Every output (and CUB's and the join's storage, and the join's count) is poisoned before the timed runs and
// checked in full after them against the CPU's result on the same inputs (the bounds of a two-pointer walk; the
// stable merge, a's keys first of equal ones, each value beside its key; the join's pairs in the order
// device/join.cuh gives them, by a's index, then b's, and their count, in device memory and the host's).
#include "check.cuh"
#include "merge_cub.cuh"
#include "sorted_inputs.cuh"

#include <stream_compaction/device/join.cuh>
#include <stream_compaction/device/merge.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <nvbench/nvbench.cuh>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;

using namespace sorted_inputs;  // the seeds and generator of these inputs, the part's axes and the CPU's
                                // sorted keys, lower bounds and merges (shared with the CCCL anchors)
using namespace merge_cub;      // the CUB merges and time_merge, shared with sc_nvbench_cccl_next

// The join's inputs (sorted_inputs.cuh): keys per side.
constexpr std::size_t kJoinKeys = std::size_t{1} << kJoinLog2;
const std::vector<std::string> kJoinParam = {"mean run " + std::to_string(kJoinMeanRun)};

// One search of one state: the inputs, the poisoned bounds, NVBench's counts, the timed searches and
// the check of what the last one wrote. search(needles, haystack, bounds, n, stream) enqueues one.
template <class Search>
void time_search(nvbench::state &state, Search search) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> needles = sorted_keys(n, kNeedleSeed, stream);
    const SC::DeviceBuffer<int> haystack = sorted_keys(n, kHaystackSeed, stream);
    SC::DeviceBuffer<int> bounds(n);
    bounds.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(2 * n);
    state.add_global_memory_writes<int>(n);
    state.exec([&](nvbench::launch &launch) {
        search(needles.get(), haystack.get(), bounds.get(), n, static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::string difference = first_difference(read_back(bounds.get(), n, stream), *lower_bounds_of(n), "bound");
    record_difference(state, difference);
}

// thrust::lower_bound's vectorized form, par_nosync: Thrust's par waits for the stream after the
// kernel, which NVBench's timed launches, held back by its blocking kernel, must not do.
void sorted_search_thrust(nvbench::state &state) {
    time_search(state, [](const int *needles, const int *haystack, int *bounds, std::size_t n, cudaStream_t s) {
        thrust::lower_bound(thrust::cuda::par_nosync.on(s), haystack, haystack + n, needles, needles + n, bounds);
    });
}

void sorted_search_ours(nvbench::state &state) {
    time_search(state, [](const int *needles, const int *haystack, int *bounds, std::size_t n, cudaStream_t s) {
        SC::sorted_search(needles, n, haystack, n, bounds, SC::Bound::Lower, SC::Less{}, s);
    });
}

void sorted_search_ours_binary(nvbench::state &state) {
    time_search(state, [](const int *needles, const int *haystack, int *bounds, std::size_t n, cudaStream_t s) {
        SC::lower_bound(haystack, n, needles, n, bounds, SC::Less{}, s);
    });
}

// Ours takes no temporary storage.
void merge_keys_ours(nvbench::state &state) {
    time_merge(state, false, 0,
               [](const int *a, const int *, std::size_t na, const int *b, const int *, std::size_t nb, int *keys,
                  int *, void *, std::size_t, cudaStream_t s) { SC::merge_keys(a, na, b, nb, keys, SC::Less{}, s); });
}

void merge_pairs_ours(nvbench::state &state) {
    time_merge(state, true, 0,
               [](const int *a, const int *a_values, std::size_t na, const int *b, const int *b_values, std::size_t nb,
                  int *keys, int *values, void *, std::size_t, cudaStream_t s) {
                   SC::merge_pairs(a, a_values, na, b, b_values, nb, keys, values, SC::Less{}, s);
               });
}

// The join's pairs in the order device/join.cuh documents: by a's index, then b's; each pair's index in a and in b.
struct HostJoin {
    std::vector<int> a_indices, b_indices;
    std::size_t footprint() const { return (a_indices.size() + b_indices.size()) * sizeof(int); }
};

// visit(i, lower, upper) for each i in [begin, end): b[lower, upper) are the keys equal to a[i]. One walk over
// both, from the lower bound of a[begin] in b.
template <class Visit>
void walk_matches(const std::vector<int> &a, const std::vector<int> &b, std::size_t begin, std::size_t end,
                  Visit visit) {
    if (begin == end) return;
    std::size_t lower = static_cast<std::size_t>(std::lower_bound(b.begin(), b.end(), a[begin]) - b.begin());
    for (std::size_t i = begin; i < end; ++i) {
        while (lower < b.size() && b[lower] < a[i]) ++lower;
        std::size_t upper = lower;
        while (upper < b.size() && b[upper] == a[i]) ++upper;
        visit(i, lower, upper);
    }
}

// By pieces of a: each piece counts its pairs, then writes them from the sum of the counts before it.
HostJoin host_join(std::size_t n) {
    const std::vector<int> a = host_sorted_keys(n, kJoinASeed, kJoinMeanRun);
    const std::vector<int> b = host_sorted_keys(n, kJoinBSeed, kJoinMeanRun);
    const auto pieces = pieces_of(n);
    std::vector<std::size_t> firsts(pieces.size() + 1, 0);  // piece p's pairs start at firsts[p]
    for_each_piece(pieces, [&](std::size_t piece, std::size_t begin, std::size_t end) {
        std::size_t count = 0;
        walk_matches(a, b, begin, end, [&](std::size_t, std::size_t lower, std::size_t upper) {
            count += upper - lower;
        });
        firsts[piece + 1] = count;
    });
    for (std::size_t p = 0; p < pieces.size(); ++p) firsts[p + 1] += firsts[p];
    HostJoin join{std::vector<int>(firsts.back()), std::vector<int>(firsts.back())};
    for_each_piece(pieces, [&](std::size_t piece, std::size_t begin, std::size_t end) {
        std::size_t pair = firsts[piece];
        walk_matches(a, b, begin, end, [&](std::size_t i, std::size_t lower, std::size_t upper) {
            for (std::size_t j = lower; j < upper; ++j, ++pair) {
                join.a_indices[pair] = static_cast<int>(i);
                join.b_indices[pair] = static_cast<int>(j);
            }
        });
    });
    return join;
}

// One join of one state: the inputs, inner_join_size's count (the capacity: the exact one), the poisoned pairs,
// count and storage, NVBench's counts, the timed joins under `tag` and the check of what the last one wrote.
// join(a, b, n, a_indices, b_indices, capacity, d_pairs, temp, temp_bytes, stream) enqueues one and returns the
// count it sized the join by.
template <class ExecTag, class Join>
void time_join(nvbench::state &state, ExecTag tag, Join join) {
    const std::size_t n = kJoinKeys;
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceBuffer<int> a = sorted_keys(n, kJoinASeed, stream, kJoinMeanRun);
    const SC::DeviceBuffer<int> b = sorted_keys(n, kJoinBSeed, stream, kJoinMeanRun);
    SC::DeviceBuffer<char> temp(SC::inner_join_temp_bytes(n, n));
    const std::size_t capacity = SC::inner_join_size(a.get(), n, b.get(), n, temp.get(), temp.bytes(), stream);
    SC::DeviceBuffer<int> a_indices(capacity), b_indices(capacity);
    SC::DeviceBuffer<std::size_t> d_pairs(1);
    a_indices.fill_bytes(kPoisonByte);
    b_indices.fill_bytes(kPoisonByte);
    d_pairs.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(capacity);
    state.add_global_memory_writes<int>(2 * capacity);
    auto &n_summary = state.add_summary("sc/n");
    n_summary.set_string("name", "Pairs");
    n_summary.set_string("description", "Pairs of the join of two sorted arrays of 2^24 keys");
    n_summary.set_int64("value", static_cast<nvbench::int64_t>(capacity));
    std::size_t sized = poison_value<std::size_t>();  // the count the last timed join was sized by
    state.exec(tag, [&](nvbench::launch &launch) {
        sized = join(a.get(), b.get(), n, a_indices.get(), b_indices.get(), capacity, d_pairs.get(), temp.get(),
                     temp.bytes(), static_cast<cudaStream_t>(launch.get_stream()));
    });
    const std::shared_ptr<const HostJoin> expected = cached_reference<HostJoin>(
        "inner join keys=" + std::to_string(n) + " " + kJoinParam.front(), [n] { return host_join(n); });
    const std::size_t pairs = expected->a_indices.size();
    const std::size_t device_count = read_back(d_pairs.get(), stream);
    if (capacity != pairs || sized != pairs || device_count != pairs) {
        record_check(state, false,
                     "inner_join_size counted " + std::to_string(capacity) + " pairs before the timed runs and " +
                         std::to_string(sized) + " in the last, inner_join " + std::to_string(device_count) +
                         "; expected " + std::to_string(pairs));
        return;
    }
    std::string difference = first_difference(read_back(a_indices.get(), pairs, stream), expected->a_indices,
                                              "pair's index in a, pair");
    if (difference.empty())
        difference = first_difference(read_back(b_indices.get(), pairs, stream), expected->b_indices,
                                      "pair's index in b, pair");
    record_difference(state, difference);
}

// The exact capacity, counted before the timed runs: what a captured graph replays.
void inner_join_ours(nvbench::state &state) {
    time_join(state, nvbench::exec_tag::none,
              [](const int *a, const int *b, std::size_t n, int *a_indices, int *b_indices, std::size_t capacity,
                 std::size_t *d_pairs, void *temp, std::size_t bytes, cudaStream_t s) {
                  SC::inner_join(a, n, b, n, a_indices, b_indices, capacity, d_pairs, temp, bytes, s);
                  return capacity;
              });
}

// inner_join_size waits on the host for its count: NVBench must not block the stream (exec_tag::sync). The
// count is the join's capacity, held to the output's length (the check fails a count that differs).
void inner_join_ours_with_size(nvbench::state &state) {
    time_join(state, nvbench::exec_tag::sync,
              [](const int *a, const int *b, std::size_t n, int *a_indices, int *b_indices, std::size_t capacity,
                 std::size_t *d_pairs, void *temp, std::size_t bytes, cudaStream_t s) {
                  const std::size_t counted = SC::inner_join_size(a, n, b, n, temp, bytes, s);
                  SC::inner_join(a, n, b, n, a_indices, b_indices, std::min(counted, capacity), d_pairs, temp, bytes,
                                 s);
                  return counted;
              });
}

// Names "<operation>/<implementation>", axes n and (the searches) param: bench/nvbench/nvbench_to_csv.py.
NVBENCH_BENCH(sorted_search_thrust)
    .set_name("sorted_search/thrust")
    .add_int64_power_of_two_axis("n", kMergeLog2)
    .add_string_axis("param", kLowerParam);
NVBENCH_BENCH(sorted_search_ours)
    .set_name("sorted_search/ours")
    .add_int64_power_of_two_axis("n", kMergeLog2)
    .add_string_axis("param", kLowerParam);
NVBENCH_BENCH(sorted_search_ours_binary)
    .set_name("sorted_search/ours_binary")
    .add_int64_power_of_two_axis("n", kMergeLog2)
    .add_string_axis("param", kLowerParam);
[[maybe_unused]] nvbench::benchmark_base &kMergeKeysCub = add_merge_keys_cub("cub");
NVBENCH_BENCH(merge_keys_ours).set_name("merge_keys/ours").add_int64_power_of_two_axis("n", kMergeLog2);
[[maybe_unused]] nvbench::benchmark_base &kMergePairsCub = add_merge_pairs_cub("cub");
NVBENCH_BENCH(merge_pairs_ours).set_name("merge_pairs/ours").add_int64_power_of_two_axis("n", kMergeLog2);
// The join: axis param alone, n in the states' summary sc/n (the pairs).
NVBENCH_BENCH(inner_join_ours).set_name("inner_join/ours").add_string_axis("param", kJoinParam);
NVBENCH_BENCH(inner_join_ours_with_size).set_name("inner_join/ours_with_size").add_string_axis("param", kJoinParam);

}  // namespace
}  // namespace bench

#pragma once
// The merge family's dispatch: argument checks, grids and launches of merge, sorted search, the
// binary searches, and the sortedness check of the join's inputs.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/merge/kernels.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/policies.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Throws std::invalid_argument when `value` (a count or an index bound) does not fit in Index.
template <class Index>
void require_index_fits(const char *name, std::size_t value, const char *what) {
    static_assert(std::is_integral<Index>::value, "indices must be of an integer type");
    if (value > static_cast<std::size_t>(std::numeric_limits<Index>::max()))
        throw std::invalid_argument(std::string(name) + ": " + what + " of " + std::to_string(value) +
                                    " does not fit in the index type");
}

// The merge of tiles that find their own corners (merge_kernel), and of those whose corners a pass
// found first (merge_planned_kernel): threads per block; both take merge_items_per_thread steps a
// thread.
template <bool HasValues, bool Planned>
constexpr int merge_tile_threads() {
    return Planned ? kMergePlannedThreads : merge_threads<HasValues>();
}

// Whether a merge of n items runs the corner pass and the planned tiles: above
// merge_corner_pass_waves waves of the planned tiles resident at once (tuning/policies.h), and only
// into an array of output keys (where the pass keeps the corners).
template <bool HasValues, class Arrays, class Less>
bool merge_runs_corner_pass(const char *name, std::size_t n) {
    if constexpr (!Arrays::kKeysOutArray) {
        return false;
    } else {
        using K = typename Arrays::Key;
        using V = typename Arrays::Value;
        constexpr int kThreads = merge_tile_threads<HasValues, true>();
        constexpr int kItems = merge_items_per_thread<K, HasValues>();
        const std::size_t resident = resident_grid(
            reinterpret_cast<const void *>(merge_planned_kernel<kThreads, kItems, HasValues, Arrays, Less>), name,
            kThreads, merge_staging_bytes<K, V, HasValues>(kThreads * kItems));
        return blocks_for(n, kThreads * kItems) > merge_corner_pass_waves<HasValues>() * resident;
    }
}

// Block size of a merge of arrays of n items (for reports): the planned tiles' or the searched ones'.
template <class K, class V, bool HasValues, class Less>
int merge_block_threads(const char *name, std::size_t n) {
    return merge_runs_corner_pass<HasValues, ArrayMerge<K, V>, Less>(name, n) ? merge_tile_threads<HasValues, true>()
                                                                              : merge_tile_threads<HasValues, false>();
}

template <class AKeys, class AValues, class BKeys, class BValues, class OutKeys, class OutValues>
MergeArrays<AKeys, AValues, BKeys, BValues, OutKeys, OutValues> merge_arrays(AKeys a_keys, AValues a_values,
                                                                             std::size_t na, BKeys b_keys,
                                                                             BValues b_values, std::size_t nb,
                                                                             OutKeys out_keys, OutValues out_values) {
    return {a_keys, a_values, static_cast<long long>(na), b_keys, b_values, static_cast<long long>(nb),
            out_keys, out_values};
}

template <bool HasValues, class Arrays, class Less>
void launch_merge(const char *name, const Arrays &arrays, Less less, cudaStream_t stream) {
    using K = typename Arrays::Key;
    using V = typename Arrays::Value;
    static_assert(alignof(K) <= 16 && alignof(V) <= 16, "keys and values aligned to at most 16 bytes");
    const std::size_t n = static_cast<std::size_t>(arrays.na + arrays.nb);
    if (n == 0) return;
    constexpr int kItems = merge_items_per_thread<K, HasValues>();
    if (!merge_runs_corner_pass<HasValues, Arrays, Less>(name, n)) {
        constexpr int kThreads = merge_tile_threads<HasValues, false>();
        constexpr int kTileItems = kThreads * kItems;
        launch(merge_kernel<kThreads, kItems, HasValues, Arrays, Less>, name,
               static_cast<unsigned>(blocks_for(n, kTileItems)), kThreads,
               merge_staging_bytes<K, V, HasValues>(kTileItems), stream, arrays, less);
        return;
    }
    if constexpr (Arrays::kKeysOutArray) {
        constexpr int kThreads = merge_tile_threads<HasValues, true>();
        constexpr int kTileItems = kThreads * kItems;
        static_assert(kTileItems * sizeof(K) >= 16, "a full tile's output holds its two corners");
        const std::size_t staging = merge_staging_bytes<K, V, HasValues>(kTileItems);
        const std::size_t tiles = blocks_for(n, kTileItems);
        // A thread per boundary, and a block more for the last tile; the full tiles start while it runs.
        launch(merge_corner_pass_kernel<kThreads, kItems, HasValues, Arrays, Less>, "merge_corner_pass_kernel",
               blocks_for(tiles, kThreads) + 1, kThreads, staging, stream, arrays, less,
               static_cast<long long>(tiles));
        launch_dependent(merge_planned_kernel<kThreads, kItems, HasValues, Arrays, Less>, name,
                         static_cast<unsigned>(tiles - 1), kThreads, staging, stream, arrays, less);
    }
}

// The integer type a search's bounds are counted in: what an output points to, an output
// iterator's value type where that is an integer, else (a transform or discard output, whose value
// type says nothing) long long.
template <class Out, class Value = typename std::iterator_traits<Out>::value_type>
using search_index_t = std::conditional_t<std::is_integral_v<Value>, Value, long long>;

template <Bound Ties, class Needles, class Haystack, class Out, class Less>
void launch_sorted_search(const char *name, Needles needles, std::size_t n_needles, Haystack haystack,
                          std::size_t n_haystack, Out out, Less less, cudaStream_t stream) {
    using K = input_value_t<Needles>;
    using Index = search_index_t<Out>;
    static_assert(alignof(K) <= 16, "keys aligned to at most 16 bytes");
    constexpr int kItems = sorted_search_items_per_thread<K>();
    constexpr int kTileItems = kMergeThreads * kItems;
    launch(sorted_search_kernel<kItems, Ties, K, Index, Needles, Haystack, Out, Less>, name,
           blocks_for(n_needles + n_haystack, kTileItems), kMergeThreads, staging_bytes<K, Index>(kTileItems), stream,
           needles, static_cast<long long>(n_needles), haystack, static_cast<long long>(n_haystack), out, less);
}

// Sorted needles: one merge-path pass over needles and haystack. Needles, haystack and out are
// pointers or iterators (contiguous ones unwrapped by the caller).
template <class Needles, class Haystack, class Out, class Less>
void sorted_search(const char *name, Needles needles, std::size_t n_needles, Haystack haystack,
                   std::size_t n_haystack, Out out, Bound bound, Less less, cudaStream_t stream) {
    require_device_input(name, n_needles, needles, "needles");
    require_device_input(name, n_needles, out, "output");
    if (n_needles == 0) return;
    require_device_input(name, n_haystack, haystack, "haystack");
    require_index_fits<search_index_t<Out>>(name, n_haystack, "a haystack");
    if (bound == Bound::Lower)
        launch_sorted_search<Bound::Lower>(name, needles, n_needles, haystack, n_haystack, out, less, stream);
    else launch_sorted_search<Bound::Upper>(name, needles, n_needles, haystack, n_haystack, out, less, stream);
}

// Needles in any order: a binary search each.
template <Bound Which, class Haystack, class Needles, class Out, class Less>
void binary_search(const char *name, Haystack haystack, std::size_t n, Needles needles, std::size_t m, Out out,
                   Less less, cudaStream_t stream) {
    using Index = search_index_t<Out>;
    require_device_input(name, m, needles, "needles");
    require_device_input(name, m, out, "output");
    if (m == 0) return;
    require_device_input(name, n, haystack, "haystack");
    require_index_fits<Index>(name, n, "a haystack");
    launch(binary_search_kernel<Which, input_value_t<Needles>, Index, Haystack, Needles, Out, Less>, name,
           blocks_for(m, kBinarySearchThreads), kBinarySearchThreads, 0, stream, haystack, static_cast<long long>(n),
           needles, static_cast<long long>(m), out, less);
}

// Sets *d_flag (device memory, zeroed by the caller) to 1 if keys[0, n) is not sorted under less.
template <class K, class Less>
void find_unsorted(const K *keys, std::size_t n, Less less, unsigned *d_flag, cudaStream_t stream) {
    if (n < 2) return;
    constexpr int kThreads = 256;
    constexpr unsigned kMaxBlocks = 4096;  // a grid-stride loop: enough blocks to fill the GPU
    const unsigned blocks = blocks_for(n - 1, kThreads);
    launch(find_unsorted_kernel<K, Less>, "find_unsorted_kernel", blocks < kMaxBlocks ? blocks : kMaxBlocks, kThreads,
           0, stream, keys, static_cast<long long>(n), less, d_flag);
}

// Throws std::invalid_argument naming the input that is not sorted under `less`, after reading
// back the two flags the checks leave in d_flags (device memory, two words): waits on the host.
template <class K, class Less>
void require_sorted(const char *name, const K *a, std::size_t na, const K *b, std::size_t nb, Less less,
                    unsigned *d_flags, cudaStream_t stream) {
    SC_CUDA_CHECK(cudaMemsetAsync(d_flags, 0, 2 * sizeof(unsigned), stream));
    find_unsorted(a, na, less, d_flags, stream);
    find_unsorted(b, nb, less, d_flags + 1, stream);
    unsigned flags[2] = {0, 0};
    SC_CUDA_CHECK(cudaMemcpyAsync(flags, d_flags, sizeof flags, cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (flags[0] != 0 || flags[1] != 0)
        throw std::invalid_argument(std::string(name) + ": input " + (flags[0] != 0 ? "a" : "b") +
                                    " is not sorted (an item is ordered before the one preceding it)");
}

}  // namespace detail
}  // namespace StreamCompaction

#pragma once
// The merge family's dispatch: argument checks, grids and launches of merge, sorted search, the
// binary searches, and the sortedness check of the join's inputs.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/merge/kernels.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/policies.h>

#include <cuda_runtime.h>

#include <cstddef>
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

// Throws std::invalid_argument when n > 0 and `d` is null.
inline void require_input(const char *name, std::size_t n, const void *d, const char *what) {
    if (n > 0 && d == nullptr)
        throw std::invalid_argument(std::string(name) + ": null " + what + " with " + std::to_string(n) + " items");
}

// The merge of tiles that find their own corners (merge_kernel), and of those whose corners a pass
// found first (merge_planned_kernel): threads per block; both take merge_items_per_thread steps a
// thread.
template <bool HasValues, bool Planned>
constexpr int merge_tile_threads() {
    return Planned ? kMergePlannedThreads : merge_threads<HasValues>();
}

// Whether a merge of n items runs the corner pass and the planned tiles: above
// merge_corner_pass_waves waves of the planned tiles resident at once (tuning/policies.h).
template <class K, class V, bool HasValues, class Less>
bool merge_runs_corner_pass(const char *name, std::size_t n) {
    constexpr int kThreads = merge_tile_threads<HasValues, true>();
    constexpr int kTileItems = kThreads * merge_items_per_thread<K, HasValues>();
    const std::size_t resident = resident_grid(
        reinterpret_cast<const void *>(merge_planned_kernel<kThreads, merge_items_per_thread<K, HasValues>(), HasValues,
                                                            K, V, Less>),
        name, kThreads, merge_staging_bytes<K, V, HasValues>(kTileItems));
    return blocks_for(n, kTileItems) > merge_corner_pass_waves<HasValues>() * resident;
}

// Block size of a merge of n items (for reports): the planned tiles' or the searched ones'.
template <class K, class V, bool HasValues, class Less>
int merge_block_threads(const char *name, std::size_t n) {
    return merge_runs_corner_pass<K, V, HasValues, Less>(name, n) ? merge_tile_threads<HasValues, true>()
                                                                  : merge_tile_threads<HasValues, false>();
}

template <class K, class V, bool HasValues, class Less>
void launch_merge(const char *name, const K *a_keys, const V *a_values, std::size_t na, const K *b_keys,
                  const V *b_values, std::size_t nb, K *out_keys, V *out_values, Less less, cudaStream_t stream) {
    static_assert(alignof(K) <= 16 && alignof(V) <= 16, "keys and values aligned to at most 16 bytes");
    if (na + nb == 0) return;
    constexpr int kItems = merge_items_per_thread<K, HasValues>();
    if (!merge_runs_corner_pass<K, V, HasValues, Less>(name, na + nb)) {
        constexpr int kThreads = merge_tile_threads<HasValues, false>();
        constexpr int kTileItems = kThreads * kItems;
        launch(merge_kernel<kThreads, kItems, HasValues, K, V, Less>, name,
               static_cast<unsigned>(blocks_for(na + nb, kTileItems)), kThreads,
               merge_staging_bytes<K, V, HasValues>(kTileItems), stream, a_keys, a_values, static_cast<long long>(na),
               b_keys, b_values, static_cast<long long>(nb), out_keys, out_values, less);
        return;
    }
    constexpr int kThreads = merge_tile_threads<HasValues, true>();
    constexpr int kTileItems = kThreads * kItems;
    static_assert(kTileItems * sizeof(K) >= 16, "a full tile's output holds its two corners");
    const std::size_t staging = merge_staging_bytes<K, V, HasValues>(kTileItems);
    const std::size_t tiles = blocks_for(na + nb, kTileItems);
    // A thread per boundary, and a block more for the last tile; the full tiles start while it runs.
    launch(merge_corner_pass_kernel<kThreads, kItems, HasValues, K, V, Less>, "merge_corner_pass_kernel",
           blocks_for(tiles, kThreads) + 1, kThreads, staging, stream, a_keys, a_values, static_cast<long long>(na),
           b_keys, b_values, static_cast<long long>(nb), out_keys, out_values, less, static_cast<long long>(tiles));
    launch_dependent(merge_planned_kernel<kThreads, kItems, HasValues, K, V, Less>, name,
                     static_cast<unsigned>(tiles - 1), kThreads, staging, stream, a_keys, a_values,
                     static_cast<long long>(na), b_keys, b_values, static_cast<long long>(nb), out_keys, out_values,
                     less);
}

template <Bound Ties, class K, class Index, class Less>
void launch_sorted_search(const char *name, const K *needles, std::size_t n_needles, const K *haystack,
                          std::size_t n_haystack, Index *out, Less less, cudaStream_t stream) {
    static_assert(alignof(K) <= 16, "keys aligned to at most 16 bytes");
    constexpr int kItems = sorted_search_items_per_thread<K>();
    constexpr int kTileItems = kMergeThreads * kItems;
    launch(sorted_search_kernel<kItems, Ties, K, Index, Less>, name, blocks_for(n_needles + n_haystack, kTileItems),
           kMergeThreads, staging_bytes<K, Index>(kTileItems), stream, needles, static_cast<long long>(n_needles),
           haystack, static_cast<long long>(n_haystack), out, less);
}

// Sorted needles: one merge-path pass over needles and haystack.
template <class K, class Index, class Less>
void sorted_search(const char *name, const K *needles, std::size_t n_needles, const K *haystack,
                   std::size_t n_haystack, Index *out, Bound bound, Less less, cudaStream_t stream) {
    require_device_pointers(name, n_needles, needles, out);
    if (n_needles == 0) return;
    require_input(name, n_haystack, haystack, "haystack");
    require_index_fits<Index>(name, n_haystack, "a haystack");
    if (bound == Bound::Lower)
        launch_sorted_search<Bound::Lower>(name, needles, n_needles, haystack, n_haystack, out, less, stream);
    else launch_sorted_search<Bound::Upper>(name, needles, n_needles, haystack, n_haystack, out, less, stream);
}

// Needles in any order: a binary search each.
template <Bound Which, class K, class Index, class Less>
void binary_search(const char *name, const K *haystack, std::size_t n, const K *needles, std::size_t m, Index *out,
                   Less less, cudaStream_t stream) {
    require_device_pointers(name, m, needles, out);
    if (m == 0) return;
    require_input(name, n, haystack, "haystack");
    require_index_fits<Index>(name, n, "a haystack");
    launch(binary_search_kernel<Which, K, Index, Less>, name, blocks_for(m, kBinarySearchThreads),
           kBinarySearchThreads, 0, stream, haystack, static_cast<long long>(n), needles, static_cast<long long>(m),
           out, less);
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

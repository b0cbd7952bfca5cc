#pragma once
// Segmented sort: the keys (and values) of each segment of CSR offsets sorted in place, ascending
// and stable, empty segments included. Composed of GPU-tested pieces: the load-balancing search
// gives each item its segment; a stable radix sort orders the items by key, carrying their input
// positions; a second one orders those by segment, carrying the same positions; a gather puts keys
// and values where the positions say. Both sorts being stable, the order is (segment, key, input
// position): each segment's stable sort. A first version (issue #14): it moves every item through
// two full sorts whatever the segment sizes, where a sort of small segments in registers or shared
// memory needs one read and one write; not yet measured.
//
// Example:
//   std::vector<int> keys = {3, 1, 2, 9, 5, 5, 0}, sorted(7);
//   std::vector<int> offsets = {0, 3, 3, 7};                  // segments [3 1 2] [] [9 5 5 0]
//   auto d_keys = DeviceBuffer<int>::from_host(keys.data(), 7);
//   auto d_offsets = DeviceBuffer<int>::from_host(offsets.data(), 4);
//   DeviceBuffer<int> d_sorted(7);
//   std::size_t bytes = segmented_sort_temp_bytes<int>(7);
//   DeviceBuffer<char> d_temp(bytes);
//   segmented_sort_keys(d_keys.get(), d_sorted.get(), 7, d_offsets.get(), 3, d_temp.get(), bytes);
//   d_sorted.copy_to_host(sorted.data(), 7);
//   if (sorted != std::vector<int>{1, 2, 3, 0, 5, 5, 9}) return 1;
//
// Contracts: keys int, unsigned or float, in the radix sort's order (radix_sort.cuh: -0.0 and +0.0
// equal, NaNs by their bits); values of 4 or 8 bytes; offsets as in load_balance.cuh, unchecked
// here (check_segment_offsets checks them); n and segments below 2^32. Outputs must not overlap
// inputs. Temporary storage: segmented_sort_temp_bytes<K>(n, env), sized with the radix sort's
// block size (the environment's Tuning::radix), at any alignment. Every call is a fixed sequence of
// launches: safe to capture in a CUDA graph and replay. Errors: std::invalid_argument for bad arguments (nothing
// enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/segmented_sort/kernels.cuh>
#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

// Either radix sort's storage: by key carrying positions, by segment carrying positions.
template <class K>
std::size_t segmented_sort_radix_bytes(std::size_t n, const CallEnvironment &env) {
    return std::max(radix_sort_temp_bytes<K, unsigned>(n, env), radix_sort_temp_bytes<unsigned, unsigned>(n, env));
}

// Each item's segment, positions by input (later: final), positions by key, keys by key, segments
// by key, segments sorted, the radix sorts' storage.
template <class K>
TempLayout<7> segmented_sort_layout(std::size_t n, const CallEnvironment &env) {
    const std::size_t words = n * sizeof(unsigned);
    return temp_layout(words, words, words, n * sizeof(K), words, words, segmented_sort_radix_bytes<K>(n, env));
}

template <bool Pairs, class K, class V, class Offset>
void segmented_sort(const char *name, const K *keys_in, K *keys_out, const V *values_in, V *values_out, std::size_t n,
                    const Offset *d_offsets, std::size_t segments, void *d_temp, std::size_t temp_bytes,
                    const CallEnvironment &env) {
    require_device_pointers(name, n, keys_in, keys_out);
    if (Pairs) require_device_pointers(name, n, values_in, values_out);
    if (n > std::numeric_limits<unsigned>::max() || segments > std::numeric_limits<unsigned>::max())
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) + " items in " +
                                    std::to_string(segments) + " segments; at most 2^32 - 1 of each");
    if (n > 0 && (segments == 0 || d_offsets == nullptr))
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) + " items and no segments");
    if (n == 0) return;
    const auto layout = segmented_sort_layout<K>(n, env);
    require_temp_storage(name, d_temp, temp_bytes, layout.bytes());
    const auto pieces = layout.carve(d_temp);
    unsigned *segment_of = reinterpret_cast<unsigned *>(pieces[0]);
    unsigned *positions = reinterpret_cast<unsigned *>(pieces[1]);
    unsigned *positions_by_key = reinterpret_cast<unsigned *>(pieces[2]);
    K *keys_by_key = reinterpret_cast<K *>(pieces[3]);
    unsigned *segments_by_key = reinterpret_cast<unsigned *>(pieces[4]);
    unsigned *segments_sorted = reinterpret_cast<unsigned *>(pieces[5]);
    const std::size_t radix_bytes = segmented_sort_radix_bytes<K>(n, env);
    const unsigned grid = segmented_sort_grid(n);

    load_balancing_search(n, d_offsets, segments, segment_of, env);
    launch(fill_positions<unsigned>, "fill_positions", grid, kSegmentedSortThreads, 0, env.stream, positions, n);
    radix_sort_pairs(keys_in, keys_by_key, positions, positions_by_key, n, pieces[6], radix_bytes, env);
    launch(gather_at<unsigned>, "gather_at", grid, kSegmentedSortThreads, 0, env.stream, segment_of, positions_by_key,
           segments_by_key, n);
    // The final positions go where the input positions were (no longer needed).
    radix_sort_pairs(segments_by_key, segments_sorted, positions_by_key, positions, n, pieces[6], radix_bytes, env);
    launch(gather_at<K>, "gather_at", grid, kSegmentedSortThreads, 0, env.stream, keys_in, positions, keys_out, n);
    if (Pairs)
        launch(gather_at<V>, "gather_at", grid, kSegmentedSortThreads, 0, env.stream, values_in, positions, values_out,
               n);
}

}  // namespace detail

template <class K>
std::size_t segmented_sort_temp_bytes(std::size_t n, const CallEnvironment &env = {}) {
    return n == 0 ? 0 : detail::segmented_sort_layout<K>(n, env).bytes();
}

template <class K, class Offset>
void segmented_sort_keys(const K *d_keys_in, K *d_keys_out, std::size_t n, const Offset *d_offsets,
                         std::size_t segments, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_sort_keys");
    detail::segmented_sort<false>("segmented_sort_keys", d_keys_in, d_keys_out, static_cast<const int *>(nullptr),
                                  static_cast<int *>(nullptr), n, d_offsets, segments, d_temp, temp_bytes, env);
}

template <class K, class V, class Offset>
void segmented_sort_pairs(const K *d_keys_in, K *d_keys_out, const V *d_values_in, V *d_values_out, std::size_t n,
                          const Offset *d_offsets, std::size_t segments, void *d_temp, std::size_t temp_bytes,
                          const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("segmented_sort_pairs");
    detail::segmented_sort<true>("segmented_sort_pairs", d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                 d_offsets, segments, d_temp, temp_bytes, env);
}

}  // namespace StreamCompaction

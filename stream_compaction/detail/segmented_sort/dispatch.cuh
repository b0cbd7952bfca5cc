#pragma once
// The segmented sort's launches (kernels.cuh): a fixed sequence for a given n, so that a call can be
// captured in a CUDA graph and replayed with new offsets. Which work each kernel finds is read on
// the device (classify's lists and counters): the merge levels are launched for the longest
// segment n items could make, and those that no segment needs return at once.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/segmented_sort/kernels.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

// The work lists' sizes for n items of keys K: the short pass's blocks, and the chunks of long
// segments (each longer than kShort, so at most n / kShort chunks of kTile).
template <class K>
struct SegmentedSortCounts {
    unsigned owner_blocks, chunk_capacity, merge_levels;
    explicit SegmentedSortCounts(std::size_t n)
        : owner_blocks(static_cast<unsigned>((n + SegmentedSortTile<K>::kShort - 1) / SegmentedSortTile<K>::kShort)),
          chunk_capacity(static_cast<unsigned>(n / SegmentedSortTile<K>::kShort + 1)),
          merge_levels(ceil_log2(static_cast<unsigned>((n + SegmentedSortTile<K>::kTile - 1) / SegmentedSortTile<K>::kTile))) {}
};

// The alternate keys and values (values of up to 8 bytes), the short pass's first segments, the
// chunk lists, the counters, the windows the tiny pass sorted.
template <class K>
TempLayout<7> segmented_sort_layout(std::size_t n) {
    const SegmentedSortCounts<K> counts(n);
    return temp_layout(n * sizeof(K), n * sizeof(unsigned long long), (counts.owner_blocks + 1) * sizeof(unsigned),
                       counts.chunk_capacity * sizeof(unsigned), counts.chunk_capacity * sizeof(unsigned),
                       kSegmentedSortCounters * sizeof(unsigned), counts.owner_blocks * sizeof(unsigned char));
}

template <bool Pairs, class K, class V, class Offset>
void segmented_sort(const char *name, const K *keys_in, K *keys_out, const V *values_in, V *values_out, std::size_t n,
                    const Offset *d_offsets, std::size_t segments, void *d_temp, std::size_t temp_bytes,
                    const CallEnvironment &env) {
    static_assert(radix_key_type<K>(),
                  "segmented sort keys are integers of 1, 2, 4 or 8 bytes, __half, __nv_bfloat16, float or double");
    static_assert(sizeof(V) <= 8, "segmented sort values of at most 8 bytes");
    require_device_pointers(name, n, keys_in, keys_out);
    if (Pairs) require_device_pointers(name, n, values_in, values_out);
    if (n > std::numeric_limits<unsigned>::max() || segments > std::numeric_limits<unsigned>::max())
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) + " items in " +
                                    std::to_string(segments) + " segments; at most 2^32 - 1 of each");
    if (n > 0 && (segments == 0 || d_offsets == nullptr))
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) + " items and no segments");
    if (n == 0) return;
    using Tile = SegmentedSortTile<K>;
    const auto layout = segmented_sort_layout<K>(n);
    require_temp_storage(name, d_temp, temp_bytes, layout.bytes());
    const auto pieces = layout.carve(d_temp);
    const SegmentedSortBuffers<K, V> buffers{keys_in,   keys_out,   reinterpret_cast<K *>(pieces[0]),
                                             values_in, values_out, reinterpret_cast<V *>(pieces[1])};
    unsigned *first_segment = reinterpret_cast<unsigned *>(pieces[2]);
    unsigned *chunk_segment = reinterpret_cast<unsigned *>(pieces[3]), *chunk_index = reinterpret_cast<unsigned *>(pieces[4]);
    unsigned *counters = reinterpret_cast<unsigned *>(pieces[5]);
    unsigned char *window_done = reinterpret_cast<unsigned char *>(pieces[6]);
    const SegmentedSortCounts<K> counts(n);
    const cudaStream_t stream = env.stream;

    SC_CUDA_CHECK(cudaMemsetAsync(counters, 0, kSegmentedSortCounters * sizeof(unsigned), stream));
    launch(segmented_sort_classify<Offset>, "segmented_sort_classify", std::min(blocks_for(segments + 1, 256), 65535u),
           256, 0, stream, d_offsets, segments, ceil_log2(Tile::kShort), Tile::kTile, counts.owner_blocks, first_segment,
           chunk_segment, chunk_index, counts.chunk_capacity, counters);
    launch(segmented_sort_tiny<Pairs, K, V, Offset>, "segmented_sort_tiny", counts.owner_blocks, Tile::kThreads, 0,
           stream, buffers, d_offsets, segments, first_segment, window_done);
    launch(segmented_sort_short<Pairs, K, V, Offset>, "segmented_sort_short", counts.owner_blocks, Tile::kThreads, 0,
           stream, buffers, d_offsets, segments, first_segment, window_done);
    const auto chunks_kernel = segmented_sort_chunks<Pairs, K, V, Offset>;
    const unsigned chunk_grid = std::min(counts.chunk_capacity, resident_grid(reinterpret_cast<const void *>(chunks_kernel),
                                                                              "segmented_sort_chunks", Tile::kThreads, 0));
    launch(chunks_kernel, "segmented_sort_chunks", chunk_grid, Tile::kThreads, 0, stream, buffers, d_offsets,
           chunk_segment, chunk_index, counts.chunk_capacity, counters);
    const auto merge_kernel = segmented_sort_merge_level<Pairs, K, V, Offset>;
    const unsigned merge_grid = std::min(counts.chunk_capacity, resident_grid(reinterpret_cast<const void *>(merge_kernel),
                                                                              "segmented_sort_merge_level", Tile::kThreads, 0));
    for (unsigned level = 0; level < counts.merge_levels; ++level)
        launch_dependent(merge_kernel, "segmented_sort_merge_level", merge_grid, Tile::kThreads, 0, stream, level,
                         buffers, d_offsets, chunk_segment, chunk_index, counts.chunk_capacity, counters);
}

}  // namespace detail
}  // namespace StreamCompaction

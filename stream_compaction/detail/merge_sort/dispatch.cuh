#pragma once
// The merge sort's dispatch: checks, temporary storage, the tile sort and the merge rounds, whose
// buffers alternate so that the last one writes the output.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/merge_sort/kernels.cuh>
#include <stream_compaction/detail/radix_sort/dispatch.cuh>  // require_disjoint
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>

#include <cstddef>
#include <string>

namespace StreamCompaction {
namespace detail {

// The rounds' tiles: of kThreads * kItems output positions, whole within a pair of runs.
template <class K, bool HasValues>
struct MergeSortRoundTile {
    static constexpr int kThreads = merge_threads<HasValues>();
    static constexpr int kItems = merge_items_per_thread<K, HasValues>();
    static constexpr long long kItemsPerTile = static_cast<long long>(kThreads) * kItems;
};

// The tile sort's runs of kMergeSortTileThreads * kMergeSortTileItems, then rounds of merges:
// ceil(log2(tiles)) of them; a round's tiles and tiles a pair for runs of `run` items.
struct MergeSortRound {
    long long tiles, tiles_per_pair;
};

template <class K>
constexpr long long merge_sort_first_run() {
    return static_cast<long long>(kMergeSortTileThreads) * kMergeSortTileItems<K>;
}

template <class K>
int merge_sort_rounds(std::size_t n) {
    const std::size_t first_run = static_cast<std::size_t>(merge_sort_first_run<K>());
    int rounds = 0;
    for (std::size_t runs = (n + first_run - 1) / first_run; runs > 1; runs = (runs + 1) / 2) ++rounds;
    return rounds;
}

inline MergeSortRound merge_sort_round(long long n, long long run, long long tile_items) {
    const long long tiles_per_pair = (2 * run + tile_items - 1) / tile_items;
    const long long pairs = (n + 2 * run - 1) / (2 * run);
    const long long last = n - (pairs - 1) * 2 * run;
    return {(pairs - 1) * tiles_per_pair + (last + tile_items - 1) / tile_items, tiles_per_pair};
}

// The most tiles a round of n items has: the corners' array.
template <class K, bool HasValues>
long long merge_sort_most_tiles(std::size_t n) {
    long long most = 0, run = merge_sort_first_run<K>();
    for (int round = 0; round < merge_sort_rounds<K>(n); ++round, run *= 2) {
        const long long tiles = merge_sort_round(static_cast<long long>(n), run,
                                                 MergeSortRoundTile<K, HasValues>::kItemsPerTile).tiles;
        most = tiles > most ? tiles : most;
    }
    return most;
}

// Temporary storage: a second buffer of keys (and values) for the rounds to alternate with the
// output, and the rounds' corners.
template <class K, class V, bool HasValues>
auto merge_sort_layout(std::size_t n) {
    return temp_layout(n * sizeof(K), HasValues ? n * sizeof(V) : 0,
                       static_cast<std::size_t>(merge_sort_most_tiles<K, HasValues>(n)) * sizeof(long long));
}

template <class K, class V, bool HasValues>
std::size_t merge_sort_temp_bytes(std::size_t n) {
    return n <= static_cast<std::size_t>(merge_sort_first_run<K>()) ? 0 : merge_sort_layout<K, V, HasValues>(n).bytes();
}

// The stable sort of keys (and values) by `less` behind every entry point. V is a placeholder
// (char) without values.
template <bool HasValues, class K, class V, class Less>
void merge_sort(const char *name, const K *keys_in, K *keys_out, const V *values_in, V *values_out, std::size_t n,
                Less less, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env) {
    static_assert(alignof(K) <= 16 && alignof(V) <= 16, "keys and values aligned to at most 16 bytes");
    require_device_pointers(name, n, keys_in, keys_out);
    require_disjoint(name, keys_in, keys_out, n);
    if constexpr (HasValues) {
        require_device_pointers(name, n, values_in, values_out);
        require_disjoint(name, values_in, values_out, n);
    }
    if (n == 0) return;
    const int rounds = merge_sort_rounds<K>(n);
    const std::size_t needed = merge_sort_temp_bytes<K, V, HasValues>(n);
    require_temp_storage(name, d_temp, temp_bytes, needed);
    const cudaStream_t stream = env.stream;
    K *alternate_keys = nullptr;
    V *alternate_values = nullptr;
    long long *corners = nullptr;
    if (needed > 0) {
        const auto piece = merge_sort_layout<K, V, HasValues>(n).carve(d_temp);
        alternate_keys = reinterpret_cast<K *>(piece[0]);
        alternate_values = reinterpret_cast<V *>(piece[1]);
        corners = reinterpret_cast<long long *>(piece[2]);
    }
    // The tile sort writes where an even number of rounds later the output is.
    K *keys = rounds % 2 == 0 ? keys_out : alternate_keys;
    V *values = rounds % 2 == 0 ? values_out : alternate_values;
    const long long first_run = merge_sort_first_run<K>();
    // Keys alone: the full tiles by themselves (stable, half the bytes of (key, position)), the
    // last short tile, if any, as (key, position) items after its padding.
    const std::size_t full_tiles = HasValues ? 0 : n / static_cast<std::size_t>(first_run);
    if (full_tiles > 0)
        launch(merge_sort_keys_tile_kernel<K, Less>, "merge_sort_keys_tile_kernel", blocks_for(full_tiles, 1),
               kMergeSortTileThreads, merge_sort_keys_tile_shared_bytes<K>(), stream, keys_in, keys, less);
    const std::size_t item_tiles = blocks_for(n, static_cast<std::size_t>(first_run)) - full_tiles;
    if (item_tiles > 0)
        launch(merge_sort_tile_kernel<HasValues, K, V, Less>, "merge_sort_tile_kernel", blocks_for(item_tiles, 1),
               kMergeSortTileThreads, merge_sort_tile_shared_bytes<K>(), stream, keys_in, values_in, n, keys, values,
               less, full_tiles);

    using Tile = MergeSortRoundTile<K, HasValues>;
    const long long items = static_cast<long long>(n);
    long long run = first_run;
    for (int round = 0; round < rounds; ++round, run *= 2) {
        K *next_keys = keys == keys_out ? alternate_keys : keys_out;
        V *next_values = values == values_out ? alternate_values : values_out;
        const MergeSortRound shape = merge_sort_round(items, run, Tile::kItemsPerTile);
        const unsigned tiles = blocks_for(static_cast<std::size_t>(shape.tiles), 1);
        launch(merge_sort_corners_kernel<Tile::kItemsPerTile, K, Less>, "merge_sort_corners_kernel",
               blocks_for(static_cast<std::size_t>(shape.tiles), kMergeSortCornerThreads), kMergeSortCornerThreads, 0,
               stream, static_cast<const K *>(keys), items, run, shape.tiles_per_pair, shape.tiles, corners, less);
        launch_dependent(merge_sort_round_kernel<Tile::kThreads, Tile::kItems, HasValues, K, V, Less>,
                         "merge_sort_round_kernel", tiles, Tile::kThreads,
                         merge_staging_bytes<K, V, HasValues>(Tile::kThreads * Tile::kItems), stream,
                         static_cast<const K *>(keys), static_cast<const V *>(values), items, next_keys, next_values,
                         run, shape.tiles_per_pair, static_cast<const long long *>(corners), less);
        keys = next_keys;
        values = next_values;
    }
}

}  // namespace detail
}  // namespace StreamCompaction

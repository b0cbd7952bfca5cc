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

// Rounds of merges after the tile sort: ceil(log2(tiles)).
inline int merge_sort_rounds(std::size_t n) {
    const std::size_t tile = static_cast<std::size_t>(kMergeSortTileThreads) * kMergeSortTileItems;
    int rounds = 0;
    for (std::size_t runs = (n + tile - 1) / tile; runs > 1; runs = (runs + 1) / 2) ++rounds;
    return rounds;
}

// Temporary storage: a second buffer of keys (and values) for the rounds to alternate with the output.
template <class K, class V, bool HasValues>
auto merge_sort_layout(std::size_t n) {
    return temp_layout(n * sizeof(K), HasValues ? n * sizeof(V) : 0);
}

template <class K, class V, bool HasValues>
std::size_t merge_sort_temp_bytes(std::size_t n) {
    return n <= static_cast<std::size_t>(kMergeSortTileThreads) * kMergeSortTileItems
               ? 0
               : merge_sort_layout<K, V, HasValues>(n).bytes();
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
    const int rounds = merge_sort_rounds(n);
    const std::size_t needed = merge_sort_temp_bytes<K, V, HasValues>(n);
    require_temp_storage(name, d_temp, temp_bytes, needed);
    const cudaStream_t stream = env.stream;
    K *alternate_keys = nullptr;
    V *alternate_values = nullptr;
    if (needed > 0) {
        const auto piece = merge_sort_layout<K, V, HasValues>(n).carve(d_temp);
        alternate_keys = reinterpret_cast<K *>(piece[0]);
        alternate_values = reinterpret_cast<V *>(piece[1]);
    }
    // The tile sort writes where an even number of rounds later the output is.
    K *keys = rounds % 2 == 0 ? keys_out : alternate_keys;
    V *values = rounds % 2 == 0 ? values_out : alternate_values;
    constexpr std::size_t kTile = static_cast<std::size_t>(kMergeSortTileThreads) * kMergeSortTileItems;
    launch(merge_sort_tile_kernel<HasValues, K, V, Less>, "merge_sort_tile_kernel", blocks_for(n, kTile),
           kMergeSortTileThreads, merge_sort_tile_shared_bytes<K>(), stream, keys_in, values_in, n, keys, values,
           less);

    constexpr int kThreads = merge_threads<HasValues>();
    constexpr int kItems = merge_items_per_thread<K, HasValues>();
    constexpr long long kMergeTile = static_cast<long long>(kThreads) * kItems;
    const long long items = static_cast<long long>(n);
    long long run = static_cast<long long>(kTile);
    for (int round = 0; round < rounds; ++round, run *= 2) {
        K *next_keys = keys == keys_out ? alternate_keys : keys_out;
        V *next_values = values == values_out ? alternate_values : values_out;
        const long long tiles_per_pair = (2 * run + kMergeTile - 1) / kMergeTile;
        const long long pairs = (items + 2 * run - 1) / (2 * run);
        const long long last = items - (pairs - 1) * 2 * run;
        const long long tiles = (pairs - 1) * tiles_per_pair + (last + kMergeTile - 1) / kMergeTile;
        launch(merge_sort_round_kernel<kThreads, kItems, HasValues, K, V, Less>, "merge_sort_round_kernel",
               blocks_for(static_cast<std::size_t>(tiles), 1), kThreads,
               merge_staging_bytes<K, V, HasValues>(kThreads * kItems), stream, static_cast<const K *>(keys),
               static_cast<const V *>(values), items, next_keys, next_values, run, tiles_per_pair, less);
        keys = next_keys;
        values = next_values;
    }
}

}  // namespace detail
}  // namespace StreamCompaction

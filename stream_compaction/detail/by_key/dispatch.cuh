#pragma once
// By-key dispatch: argument checks, temporary storage, block size and the one launch.
#include <stream_compaction/detail/by_key/kernels.cuh>
#include <stream_compaction/detail/by_key/staged_kernel.cuh>
#include <stream_compaction/detail/host/call_tag.h>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

// The most items a by-key call takes: run counts are 32-bit (RunPair::heads).
constexpr std::size_t kMaxByKeyItems = 0xffffffffull;

template <class K, class V>
std::size_t by_key_tile_items(int threads) {
    return static_cast<std::size_t>(threads) * by_key_vector_items<K>() * by_key_rows<K, V>();
}

// Storage: the call state, then the tile status words of RunPair<V>, sized for the smallest block
// size (so a block-size change between query and call never makes it too small).
template <class K, class V>
TempLayout<2> by_key_layout(std::size_t n) {
    const std::size_t max_tiles = (n + by_key_tile_items<K, V>(kWarpThreads) - 1) / by_key_tile_items<K, V>(kWarpThreads);
    return temp_layout(sizeof(CallState), TileStatus<RunPair<V>>::bytes(max_tiles));
}

template <class K, class V>
std::size_t by_key_temp_bytes_for(std::size_t n) {
    return by_key_layout<K, V>(n).bytes();
}

// The checks of every by-key call, then its launch; with n == 0 the run count (0) is all it writes.
template <class K, class Values, class ValueOut, class Op, class Equal>
void launch_by_key(const char *name, const K *d_keys, Values values, K *d_keys_out, ValueOut *d_values_out,
                   std::size_t *d_run_count, std::size_t n, Op op, Equal equal, void *d_temp, std::size_t temp_bytes,
                   const CallEnvironment &env) {
    using V = typename Values::value_type;
    const cudaStream_t stream = env.stream;
    require_device_pointers(name, n, d_keys, d_keys_out);
    require_device_pointers(name, n, d_keys, d_values_out);
    if (d_run_count == nullptr) throw std::invalid_argument(std::string(name) + ": null run count pointer");
    if (n > kMaxByKeyItems)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) + " items, at most 2^32 - 1");
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_run_count, 0, sizeof(std::size_t), stream));
        return;
    }
    require_temp_storage(name, d_temp, temp_bytes, by_key_temp_bytes_for<K, V>(n));
    const int threads = single_pass_threads(env.tuning);
    const std::size_t tile_items = by_key_tile_items<K, V>(threads);
    const auto pieces = by_key_layout<K, V>(n).carve(d_temp);
    constexpr int VEC = by_key_vector_items<K>();
    ByKeyParams<K, Values, ValueOut, Op, Equal> params{
        d_keys,
        values,
        d_keys_out,
        d_values_out,
        d_run_count,
        n,
        op,
        equal,
        /*status_storage=*/pieces[1],
        /*tiles=*/(n + tile_items - 1) / tile_items,
        /*state=*/reinterpret_cast<CallState *>(pieces[0]),
        /*call_tag=*/next_call_tag(),
        /*look_back_delay=*/{0, 0},  // below, for the kernel that runs
        /*keys_vectorized=*/aligned_to(d_keys, vector_alignment<K, VEC>())};
    if constexpr (by_key_stageable<K, Values>()) {
        static_assert(kStagedByKeyPolicy.threads == kStagedScanPolicy.threads,
                      "runs_staged checks the block size against the staged scan's");
        const auto kernel = staged_reduce_by_key_kernel<K, Values, ValueOut, Op, Equal>;
        constexpr std::size_t staged_items = StagedRuns<K, V, Values::reads_values>::kItems;
        const std::size_t staged_tiles = (n + staged_items - 1) / staged_items;
        bool aligned = aligned_to(d_keys, 16);
        if constexpr (Values::reads_values) aligned = aligned && aligned_to(values.values, 16);
        if (runs_staged(env.tuning.scan_staging, reinterpret_cast<const void *>(kernel), name, threads, aligned,
                        staged_tiles, kStagedByKeyFromTenthsOfAWave)) {
            params.tiles = staged_tiles;
            params.look_back_delay = look_back_delay_for(kernel, name, kTileLookBackDelay, staged_tiles, threads, 0);
            launch(kernel, name, blocks_for(staged_tiles, 1), threads, 0, stream, params);
            return;
        }
    }
    constexpr TilePolicy tuned = by_key_policy(Values::reads_values);
    const auto kernel =
        threads == tuned.threads
            ? reduce_by_key_kernel<K, Values, ValueOut, Op, Equal, tuned.threads, tuned.min_blocks_per_sm>
            : reduce_by_key_kernel<K, Values, ValueOut, Op, Equal, kAnyBlockSize.threads,
                                   kAnyBlockSize.min_blocks_per_sm>;
    params.look_back_delay = look_back_delay_for(kernel, name, kTileLookBackDelay, params.tiles, threads, 0);
    launch(kernel, name, blocks_for(params.tiles, 1), threads, 0, stream, params);
}

// The values of a reduce_by_key call, vector-loaded where they are aligned for it.
template <class K, class V>
ValueArray<V> value_array(const V *d_values, std::size_t n, const char *name) {
    require_device_pointers(name, n, d_values, d_values);
    return {d_values, aligned_to(d_values, vector_alignment<V, by_key_vector_items<K>()>())};
}

}  // namespace detail
}  // namespace StreamCompaction

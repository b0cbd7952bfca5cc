#pragma once
// By-key dispatch: argument checks, temporary storage, block size, the path (pointers or iterators)
// and the one launch.
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
#include <type_traits>

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

// The type a run's value is converted to before its store: a pointer's item type (any type the
// value converts to, as run_length_encode's integer lengths), else the value's own type, V, which
// an output iterator takes as it does (a discard or transform output iterator).
template <class V, class ValuesOut>
using stored_value_t = std::conditional_t<std::is_pointer_v<ValuesOut>, std::remove_pointer_t<ValuesOut>, V>;

// Whether a call's values keep the pointer path: an array of V, or no values at all (CountOnes).
template <class Values>
struct values_in_memory : std::true_type {};
template <class V, class Input>
struct values_in_memory<ValueArray<V, Input>> : std::bool_constant<std::is_same_v<Input, const V *>> {};

// Whether a by-key launch takes the pointer path (the vector loads and, where it pays, the staged
// kernel): keys from a pointer to K and to a pointer to K, values from a pointer to V (or none)
// and to any pointer. Anything else takes the portable kernel, an item at a time. The device API
// hands contiguous inputs over as pointers to const (read_only_input) and outputs unwrapped.
template <class K, class Values, class KeysIn, class KeysOut, class ValuesOut>
constexpr bool by_key_pointers() {
    return std::is_same_v<KeysIn, const K *> && std::is_same_v<KeysOut, K *> && values_in_memory<Values>::value &&
           std::is_pointer_v<ValuesOut>;
}

// The checks of every by-key call, then its launch; with n == 0 the run count (0) is all it writes.
// Both paths tile as by_key_tile_items<K, V> does, so by_key_temp_bytes_for<K, V> covers either.
template <class K, class KeysIn, class Values, class KeysOut, class ValuesOut, class Op, class Equal>
void launch_by_key(const char *name, KeysIn d_keys, Values values, KeysOut d_keys_out, ValuesOut d_values_out,
                   std::size_t *d_run_count, std::size_t n, Op op, Equal equal, void *d_temp, std::size_t temp_bytes,
                   const CallEnvironment &env) {
    using V = typename Values::value_type;
    using ValueOut = stored_value_t<V, ValuesOut>;
    const cudaStream_t stream = env.stream;
    require_device_input(name, n, d_keys, "keys");
    require_device_input(name, n, d_keys_out, "keys output");
    require_device_input(name, n, d_values_out, "values output");
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
    bool keys_vectorized = false;
    if constexpr (std::is_same_v<KeysIn, const K *>) keys_vectorized = aligned_to(d_keys, vector_alignment<K, VEC>());
    ByKeyParams<K, Values, ValueOut, Op, Equal, KeysIn, KeysOut, ValuesOut> params{
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
        keys_vectorized};
    if constexpr (by_key_pointers<K, Values, KeysIn, KeysOut, ValuesOut>() && by_key_stageable<K, Values>()) {
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
    const auto kernel = threads == tuned.threads
                            ? reduce_by_key_kernel<K, Values, ValueOut, Op, Equal, tuned.threads,
                                                   tuned.min_blocks_per_sm, KeysIn, KeysOut, ValuesOut>
                            : reduce_by_key_kernel<K, Values, ValueOut, Op, Equal, kAnyBlockSize.threads,
                                                   kAnyBlockSize.min_blocks_per_sm, KeysIn, KeysOut, ValuesOut>;
    params.look_back_delay = look_back_delay_for(kernel, name, kTileLookBackDelay, params.tiles, threads, 0);
    launch(kernel, name, blocks_for(params.tiles, 1), threads, 0, stream, params);
}

// The values of a reduce_by_key or unique_by_key call, as the device API hands them over (a pointer
// to const V, or an iterator): a pointer vector-loaded where it is aligned for it.
template <class K, class V, class Input>
ValueArray<V, Input> value_array(Input d_values, std::size_t n, const char *name) {
    require_device_input(name, n, d_values, "values");
    bool vectorized = false;
    if constexpr (std::is_same_v<Input, const V *>)
        vectorized = aligned_to(d_values, vector_alignment<V, by_key_vector_items<K>()>());
    return {d_values, vectorized};
}

}  // namespace detail
}  // namespace StreamCompaction

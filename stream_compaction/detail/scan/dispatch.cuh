#pragma once
// The single-pass scan's dispatch: temporary storage, block size and the launch.
#include <stream_compaction/detail/host/call_tag.h>
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/scan/kernels.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace detail {

// Tiles of a plain scan and of a transform scan (larger: more items per thread) at `threads`.
template <class T>
std::size_t tile_items_for(int threads) {
    return static_cast<std::size_t>(threads) * vector_items<T>() * kSinglePassVectorsPerThread;
}

template <class T>
std::size_t transform_tile_items_for(int threads) {
    return static_cast<std::size_t>(threads) * vector_items<T>() * kTransformScanRows;
}

// A single-pass launch's storage: its call state, then the status words of its tiles, sized for
// the smallest block size (so a block-size change between query and call never makes it too
// small) and for the plain scan's tiles (which the transform scan's cover too).
template <class T>
TempLayout<2> single_pass_layout(std::size_t n) {
    const std::size_t max_tiles = (n + tile_items_for<T>(kWarpThreads) - 1) / tile_items_for<T>(kWarpThreads);
    return temp_layout(sizeof(CallState), TileStatus<T>::bytes(scan_status_words<T>(max_tiles)));
}

template <class T>
std::size_t single_pass_temp_bytes(std::size_t n) {
    return single_pass_layout<T>(n).bytes();
}

struct SinglePassStorage {
    CallState *state;
    void *status;
};

template <class T>
SinglePassStorage carve_single_pass(std::size_t n, void *d_temp) {
    const auto pieces = single_pass_layout<T>(n).carve(d_temp);
    return {reinterpret_cast<CallState *>(pieces[0]), pieces[1]};
}

// Whether a launch of `staged_tiles` staged tiles (the scan's, the select's or the by-key scans')
// runs the staged kernel under `staging` (ScanStaging, support/call_environment.h): it needs the
// tuned block size, 16-byte aligned input and output (`vectorized`) and the kernel compiled for
// sm_90 or later, where its body with the bulk copies is (kernel_compiled_for_sm90: what the binary
// holds for the device, not what the device could run; compiled for older GPUs, the body traps);
// by default it also needs `from_tenths` tenths of a wave of tiles (tuning/policies.h), since far
// below a wave the portable kernel's smaller tiles keep more SMs busy.
inline bool runs_staged(ScanStaging staging, const void *kernel, const char *name, int threads, bool vectorized,
                        std::size_t staged_tiles, unsigned from_tenths) {
    if (staging == ScanStaging::Portable || threads != kStagedScanPolicy.threads || !vectorized ||
        !kernel_compiled_for_sm90(kernel))
        return false;
    return staging == ScanStaging::Staged ||
           10 * staged_tiles >= std::size_t{from_tenths} * resident_grid(kernel, name, threads, 0);
}

template <bool Exclusive, class T, class Op>
void single_pass_scan(const char *name, const T *d_in, T *d_out, std::size_t n, Op op, T init, void *d_temp,
                      std::size_t temp_bytes, const CallEnvironment &env) {
    require_device_pointers(name, n, d_in, d_out);
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, single_pass_temp_bytes<T>(n));
    const int threads = single_pass_threads(env.tuning);
    const cudaStream_t stream = env.stream;
    const std::size_t tiles = (n + tile_items_for<T>(threads) - 1) / tile_items_for<T>(threads);
    const bool vectorized = stageable<T>() && aligned16(d_in) && aligned16(d_out);
    const SinglePassStorage storage = carve_single_pass<T>(n, d_temp);
    if constexpr (stageable<T>()) {
        const auto kernel = staged_scan_kernel<T, Op, Exclusive>;
        const std::size_t staged_tiles = (n + StagedTile<T>::kItems - 1) / StagedTile<T>::kItems;
        if (runs_staged(env.tuning.scan_staging, reinterpret_cast<const void *>(kernel), name, threads, vectorized,
                        staged_tiles, kStagedScanFromTenthsOfAWave)) {
            const LookBackDelay delay = look_back_delay_for(kernel, name, kScanLookBackDelay, staged_tiles, threads, 0);
            launch(kernel, name, blocks_for(staged_tiles, 1), threads, 0, stream, d_in, d_out, n, op, init,
                   storage.status, staged_tiles, storage.state, next_call_tag(), delay);
            return;
        }
    }
    constexpr TilePolicy tuned = scan_policy<T>();
    const auto kernel = threads == tuned.threads
                            ? single_pass_scan_kernel<T, Op, Exclusive, tuned.threads, tuned.min_blocks_per_sm>
                            : single_pass_scan_kernel<T, Op, Exclusive, kAnyBlockSize.threads,
                                                      kAnyBlockSize.min_blocks_per_sm>;
    const LookBackDelay delay = look_back_delay_for(kernel, name, kScanLookBackDelay, tiles, threads, 0);
    launch(kernel, name, blocks_for(tiles, 1), threads, 0, stream, d_in, d_out, n, op, init, storage.status, tiles,
           storage.state, next_call_tag(), delay, vectorized);
}

// A scan of 16-bit floats under a sum: in float, on the portable kernel at float's tiles (the staged
// kernel moves items as they are stored). Its storage is float's scan's.
template <bool Exclusive, class T>
void widened_scan(const char *name, const T *d_in, T *d_out, std::size_t n, T init, void *d_temp,
                  std::size_t temp_bytes, const CallEnvironment &env) {
    require_device_pointers(name, n, d_in, d_out);
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, single_pass_temp_bytes<float>(n));
    const int threads = single_pass_threads(env.tuning);
    const std::size_t tiles = (n + tile_items_for<float>(threads) - 1) / tile_items_for<float>(threads);
    constexpr std::size_t kRowAlignment = vector_alignment<T, vector_items<float>()>();
    const bool vectorized = aligned_to(d_in, kRowAlignment) && aligned_to(d_out, kRowAlignment);
    const SinglePassStorage storage = carve_single_pass<float>(n, d_temp);
    constexpr TilePolicy tuned = scan_policy<float>();
    const auto kernel =
        threads == tuned.threads
            ? widened_scan_kernel<T, Exclusive, tuned.threads, tuned.min_blocks_per_sm>
            : widened_scan_kernel<T, Exclusive, kAnyBlockSize.threads, kAnyBlockSize.min_blocks_per_sm>;
    const LookBackDelay delay = look_back_delay_for(kernel, name, kScanLookBackDelay, tiles, threads, 0);
    launch(kernel, name, blocks_for(tiles, 1), threads, 0, env.stream, d_in, d_out, n, to_float(init), storage.status,
           tiles, storage.state, next_call_tag(), delay, vectorized);
}

template <class T, class Op, class Load, class Store>
void transform_scan(std::size_t n, Load load, Store store, Op op, void *d_temp, std::size_t temp_bytes,
                    const CallEnvironment &env) {
    if (n == 0) return;
    require_temp_storage("transform_inclusive_scan", d_temp, temp_bytes, single_pass_temp_bytes<T>(n));
    const int threads = single_pass_threads(env.tuning);
    const cudaStream_t stream = env.stream;
    const std::size_t tiles = (n + transform_tile_items_for<T>(threads) - 1) / transform_tile_items_for<T>(threads);
    const SinglePassStorage storage = carve_single_pass<T>(n, d_temp);
    const auto kernel = transform_scan_kernel<T, Op, Load, Store>;
    const char *name = "transform_inclusive_scan";
    const LookBackDelay delay = look_back_delay_for(kernel, name, kTileLookBackDelay, tiles, threads, 0);
    launch(kernel, name, blocks_for(tiles, 1), threads, 0, stream, n, load, store, op, storage.status, tiles,
           storage.state, next_call_tag(), delay);
}

// Storage for the overloads that manage it themselves: `bytes` from the environment's memory
// resource on its stream, given back on that stream once `body` has enqueued its work (or thrown).
template <class Body>
void with_temp_storage(std::size_t bytes, const CallEnvironment &env, Body body) {
    const ResourceBuffer temp(env.memory_resource(), bytes, env.stream);
    body(temp.get());
}

}  // namespace detail
}  // namespace StreamCompaction

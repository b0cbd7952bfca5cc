#pragma once
// Select and partition dispatch: temporary storage, block size, the stable partition's count pass
// and the launch.
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/select/kernels.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>

namespace StreamCompaction {
namespace detail {

// Storage: the call state, the count of all trues (stable partition), the tile status words
// (sized for the smallest block size).
template <class T>
TempLayout<3> select_layout(std::size_t n) {
    const std::size_t max_tiles = (n + tile_items_for<T>(kWarpThreads) - 1) / tile_items_for<T>(kWarpThreads);
    return temp_layout(sizeof(CallState), sizeof(u64), TileStatus<u64>::bytes(max_tiles));
}

template <class T>
std::size_t select_temp_bytes_for(std::size_t n) {
    return select_layout<T>(n).bytes();
}

// A select or partition launch, planned: its grid, its shared memory and its arguments.
template <class T, class Keep>
struct SelectLaunch {
    int threads;
    std::size_t staging_bytes;  // dynamic shared memory: one tile of T
    u64 *total_true;            // the stable partition's count of all trues (params.total_true)
    SelectParams<T, Keep> params;
};

// The checks every select and partition makes, then the plan of its launch; none when n == 0,
// after writing the count (0).
template <class T, class Keep>
std::optional<SelectLaunch<T, Keep>> plan_select(const char *name, const T *d_in, T *d_out, std::size_t *d_count,
                                                 std::size_t n, Keep keep, void *d_temp, std::size_t temp_bytes,
                                                 cudaStream_t stream) {
    require_device_pointers(name, n, d_in, d_out);
    if (d_count == nullptr) throw std::invalid_argument(std::string(name) + ": null count pointer");
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
        return std::nullopt;
    }
    require_temp_storage(name, d_temp, temp_bytes, select_temp_bytes_for<T>(n));
    const int threads = checked_block_size(block_sizes().single_pass);
    const std::size_t tile_items = tile_items_for<T>(threads);
    const auto pieces = select_layout<T>(n).carve(d_temp);
    u64 *total_true = reinterpret_cast<u64 *>(pieces[1]);
    const SelectParams<T, Keep> params{d_in,
                                       d_out,
                                       n,
                                       keep,
                                       /*status_storage=*/pieces[2],
                                       /*tiles=*/(n + tile_items - 1) / tile_items,
                                       /*state=*/reinterpret_cast<CallState *>(pieces[0]),
                                       /*call_tag=*/0,            // launch_select's, one per launch
                                       /*look_back_delay=*/{0, 0},  // launch_select's, for its kernel
                                       /*vectorized=*/vector_items<T>() * sizeof(T) == 16 && aligned16(d_in),
                                       total_true,
                                       /*count_out=*/d_count};
    return SelectLaunch<T, Keep>{threads, tile_items * sizeof(T), total_true, params};
}

// The select kernel of the plan's block size: the tuned policy's, or the one for any block size.
template <StagedFalses Falses, class T, class Keep>
auto select_kernel_for(int threads) {
    return threads == kSelectPolicy.threads
               ? select_kernel<Falses, T, Keep, kSelectPolicy.threads, kSelectPolicy.min_blocks_per_sm>
               : select_kernel<Falses, T, Keep, kAnyBlockSize.threads, kAnyBlockSize.min_blocks_per_sm>;
}

// Launches one tile kernel of the plan, under a new call tag.
template <StagedFalses Falses, class T, class Keep>
void launch_select(const char *name, SelectLaunch<T, Keep> plan, cudaStream_t stream) {
    const auto kernel = select_kernel_for<Falses, T, Keep>(plan.threads);
    plan.params.call_tag = next_call_tag();
    plan.params.look_back_delay =
        look_back_delay_for(kernel, name, kTileLookBackDelay, plan.params.tiles, plan.threads, plan.staging_bytes);
    launch(kernel, name, blocks_for(plan.params.tiles, 1), plan.threads, plan.staging_bytes, stream, plan.params);
}

// select_if, select_flagged: one pass.
template <class T, class Keep>
void single_pass_select(const char *name, const T *d_in, T *d_out, std::size_t *d_count, std::size_t n, Keep keep,
                        void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    auto plan = plan_select(name, d_in, d_out, d_count, n, keep, d_temp, temp_bytes, stream);
    if (!plan) return;
    if constexpr (stageable<T>()) {
        static_assert(kStagedSelectPolicy.threads == kStagedScanPolicy.threads,
                      "runs_staged checks the block size against the staged scan's");
        const auto kernel = staged_select_kernel<T, Keep>;
        constexpr std::size_t tile_items = StagedTile<T, kStagedSelectVectorsPerThread>::kItems;
        const std::size_t staged_tiles = (n + tile_items - 1) / tile_items;
        if (runs_staged(reinterpret_cast<const void *>(kernel), name, plan->threads, plan->params.vectorized,
                        staged_tiles, kStagedSelectFromTenthsOfAWave)) {
            plan->params.tiles = staged_tiles;
            plan->params.call_tag = next_call_tag();
            plan->params.look_back_delay =
                look_back_delay_for(kernel, name, kTileLookBackDelay, staged_tiles, plan->threads, 0);
            launch(kernel, name, blocks_for(staged_tiles, 1), plan->threads, 0, stream, plan->params);
            return;
        }
    }
    launch_select<StagedFalses::Dropped>(name, *plan, stream);
}

// partition: one pass, the falses from the back.
template <class T, class Keep>
void single_pass_partition(const char *name, const T *d_in, T *d_out, std::size_t *d_count, std::size_t n,
                           Keep keep, void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    const auto plan = plan_select(name, d_in, d_out, d_count, n, keep, d_temp, temp_bytes, stream);
    if (plan) launch_select<StagedFalses::Reversed>(name, *plan, stream);
}

// stable_partition: the falses' place depends on the count of all trues, so a count pass comes
// first (it also writes *d_count), then the partition pass.
template <class T, class Keep>
void single_pass_stable_partition(const char *name, const T *d_in, T *d_out, std::size_t *d_count, std::size_t n,
                                  Keep keep, void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    const auto plan = plan_select(name, d_in, d_out, d_count, n, keep, d_temp, temp_bytes, stream);
    if (!plan) return;
    // The partition pass is checked before the count pass writes *d_count: a configuration it
    // cannot run is refused with nothing enqueued.
    const auto partition_pass = select_kernel_for<StagedFalses::InOrder, T, Keep>(plan->threads);
    prepare_launch(reinterpret_cast<const void *>(partition_pass), name, plan->threads, plan->staging_bytes);
    constexpr int kCountThreads = 256;
    u64 *total_true = plan->total_true;
    SC_CUDA_CHECK(cudaMemsetAsync(total_true, 0, sizeof(u64), stream));
    launch(count_kept_kernel<T, Keep>, name, std::min(blocks_for(n, kCountThreads), 4096u), kCountThreads, 0, stream,
           d_in, n, keep, total_true);
    SC_CUDA_CHECK(cudaMemcpyAsync(d_count, total_true, sizeof(u64), cudaMemcpyDeviceToDevice, stream));
    launch_select<StagedFalses::InOrder>(name, *plan, stream);
}

}  // namespace detail
}  // namespace StreamCompaction

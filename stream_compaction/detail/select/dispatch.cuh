#pragma once
// Select and partition dispatch: temporary storage, block size, the count pass and the launch.
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/select/kernels.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <algorithm>
#include <cstddef>
#include <string>

namespace StreamCompaction {
namespace detail {

// Storage: the call state, the count of all trues (partition), the tile status words (sized for
// the smallest block size).
template <class T>
TempLayout<3> select_layout(std::size_t n) {
    const std::size_t max_tiles = (n + tile_items_for<T>(kWarpThreads) - 1) / tile_items_for<T>(kWarpThreads);
    return temp_layout(sizeof(CallState), sizeof(u64), TileStatus<u64>::bytes(max_tiles));
}

template <class T>
std::size_t select_temp_bytes_for(std::size_t n) {
    return select_layout<T>(n).bytes();
}

template <bool Partition, class T, class Keep>
void single_pass_select(const char *name, const T *d_in, T *d_out, std::size_t *d_count, std::size_t n, Keep keep,
                        void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    require_device_pointers(name, n, d_in, d_out);
    if (d_count == nullptr) throw std::invalid_argument(std::string(name) + ": null count pointer");
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
        return;
    }
    require_temp_storage(name, d_temp, temp_bytes, select_temp_bytes_for<T>(n));
    const int threads = checked_block_size(block_sizes().single_pass);
    const std::size_t tiles = (n + tile_items_for<T>(threads) - 1) / tile_items_for<T>(threads);
    const std::size_t staging_bytes = tile_items_for<T>(threads) * sizeof(T);
    const bool vectorized = vector_items<T>() * sizeof(T) == 16 && aligned16(d_in);
    const auto pieces = select_layout<T>(n).carve(d_temp);
    CallState *state = reinterpret_cast<CallState *>(pieces[0]);
    u64 *total_true = reinterpret_cast<u64 *>(pieces[1]);

    if (Partition) {
        constexpr int kCountThreads = 256;
        SC_CUDA_CHECK(cudaMemsetAsync(total_true, 0, sizeof(u64), stream));
        launch(count_kept_kernel<T, Keep>, name, std::min(blocks_for(n, kCountThreads), 4096u), kCountThreads, 0,
               stream, d_in, n, keep, total_true);
        SC_CUDA_CHECK(cudaMemcpyAsync(d_count, total_true, sizeof(u64), cudaMemcpyDeviceToDevice, stream));
    }
    launch(single_pass_select_kernel<T, Keep, Partition>, name, blocks_for(tiles, 1), threads, staging_bytes, stream,
           d_in, d_out, n, keep, pieces[2], tiles, state, next_call_tag(), vectorized, total_true, d_count);
}

}  // namespace detail
}  // namespace StreamCompaction

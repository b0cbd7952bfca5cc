#pragma once
// Select and partition dispatch: temporary storage, block size, the count pass and the launch.
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/select/kernels.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <cstddef>
#include <string>

namespace StreamCompaction {
namespace detail {

// Storage: ticket (16 bytes), total of trues (16 bytes), tile status words.
template <class T>
std::size_t select_temp_bytes_for(std::size_t n) {
    const std::size_t max_tiles = (n + tile_items_for<T>(32) - 1) / tile_items_for<T>(32);
    return 32 + TileStatus<u64>::bytes(max_tiles);
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
    char *storage = static_cast<char *>(d_temp);
    u64 *ticket = reinterpret_cast<u64 *>(storage);
    u64 *total_true = reinterpret_cast<u64 *>(storage + 16);

    if (Partition) {
        SC_CUDA_CHECK(cudaMemsetAsync(total_true, 0, sizeof(u64), stream));
        count_kept_kernel<<<blocks_for(n, 256) < 4096 ? blocks_for(n, 256) : 4096, 256, 0, stream>>>(
            d_in, n, keep, total_true);
        SC_CHECK_LAUNCH(count_kept_kernel);
        SC_CUDA_CHECK(cudaMemcpyAsync(d_count, total_true, sizeof(u64), cudaMemcpyDeviceToDevice, stream));
    }
    const auto kernel = single_pass_select_kernel<T, Keep, Partition>;
    if (staging_bytes > 48 * 1024)
        SC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(staging_bytes)));
    kernel<<<blocks_for(tiles, 1), threads, staging_bytes, stream>>>(d_in, d_out, n, keep, storage + 32, tiles,
                                                                     ticket, next_scan_epoch(), vectorized,
                                                                     total_true, d_count);
    SC_CHECK_LAUNCH(single_pass_select_kernel);
}

}  // namespace detail
}  // namespace StreamCompaction

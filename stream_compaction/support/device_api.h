#pragma once
// What every device-API entry point shares: argument checks made before any kernel can touch
// memory, and grid arithmetic for the one-thread-per-item kernels.
#include <stream_compaction/support/cuda_check.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {

// Throws std::invalid_argument when n > 0 and an input or output pointer is null.
inline void require_device_pointers(const char *operation, std::size_t n, const void *d_in,
                                    const void *d_out) {
    if (n > 0 && (d_in == nullptr || d_out == nullptr))
        throw std::invalid_argument(std::string(operation) + ": null device pointer with n = " +
                                    std::to_string(n));
}

// Throws std::invalid_argument when n > 0 and `input` (a pointer, or an iterator, which no check
// can see through: nothing to check) is a null pointer; `what` names it.
template <class Iterator>
void require_device_input(const char *operation, std::size_t n, const Iterator &input, const char *what) {
    if constexpr (std::is_pointer_v<Iterator>)
        if (n > 0 && input == nullptr)
            throw std::invalid_argument(std::string(operation) + ": null " + what + " with n = " + std::to_string(n));
}

// Throws std::invalid_argument when the caller's temporary storage is missing or too small.
inline void require_temp_storage(const char *operation, const void *d_temp, std::size_t temp_bytes,
                                 std::size_t needed) {
    if (needed > 0 && (d_temp == nullptr || temp_bytes < needed))
        throw std::invalid_argument(std::string(operation) + ": temporary storage of " +
                                    std::to_string(temp_bytes) + " bytes, " + std::to_string(needed) +
                                    " needed");
}

// Throws std::invalid_argument when `stream` is capturing a CUDA graph, for the calls that wait on
// the host (`waits_for`: what for), before anything is enqueued: the capture is left as it was.
inline void require_not_capturing(const char *operation, cudaStream_t stream, const char *waits_for) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    SC_CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
    if (capture != cudaStreamCaptureStatusNone)
        throw std::invalid_argument(std::string(operation) + ": cannot be captured in a CUDA graph (it waits on the host for " +
                                    waits_for + "); call it outside the capture");
}

// The most blocks a grid's x dimension takes.
constexpr std::size_t kMaxGridBlocks = 0x7fffffffu;

// Blocks of `threads` that give each of `count` items one thread. Throws std::length_error past
// the grid's x limit (kMaxGridBlocks) rather than launching a grid that silently skips items.
inline unsigned blocks_for(std::size_t count, int threads) {
    const std::size_t blocks = (count + threads - 1) / threads;
    if (blocks > kMaxGridBlocks) throw std::length_error("grid of " + std::to_string(blocks) + " blocks is too large");
    return static_cast<unsigned>(blocks);
}

}  // namespace StreamCompaction

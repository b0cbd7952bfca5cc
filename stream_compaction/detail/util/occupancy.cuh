#pragma once
// Threads and blocks an SM holds, for launch bounds: what the code being compiled may assume.

namespace StreamCompaction {
namespace detail {

// The most threads an SM holds on the GPU the device code is compiled for (the host pass, which
// ignores launch bounds, sees 2048).
constexpr int max_threads_per_sm() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
    return 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || \
                                 __CUDA_ARCH__ >= 1200)
    return 1536;
#else
    return 2048;
#endif
}

// The blocks an SM is asked to hold in a kernel's launch bounds: a policy's min_blocks_per_sm,
// at most what fits the SM's threads (asking for more is ignored, with a warning from ptxas).
constexpr int resident_blocks(int threads, int min_blocks_per_sm) {
    return min_blocks_per_sm * threads <= max_threads_per_sm() ? min_blocks_per_sm : max_threads_per_sm() / threads;
}

}  // namespace detail
}  // namespace StreamCompaction

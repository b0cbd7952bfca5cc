#pragma once
// Checks before every kernel launch of the device API (the launch itself: launch.cuh): the block
// size and the shared memory are checked against the kernel and the device first, so that a configuration the GPU cannot run
// is refused with std::invalid_argument naming the limit, before anything is enqueued (a failed
// launch would only say "invalid argument"). Above 48 KiB of shared memory per block, static and
// dynamic together, the kernel opts in to more.
#include <stream_compaction/support/cuda_check.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace detail {

// Where a launch is made, for its error messages: the kernel's name, and the file and line of the
// call (filled in at the call site).
struct LaunchSite {
    const char *name;
    const char *file;
    int line;
    LaunchSite(const char *kernel_name, const char *call_file = __builtin_FILE(), int call_line = __builtin_LINE())
        : name(kernel_name), file(call_file), line(call_line) {}
};

// Checks `threads` and `dynamic_shared_bytes` against `kernel` on the current device and opts the
// kernel in to the shared memory it needs. Throws std::invalid_argument (naming `name` and the
// limit) when it cannot run, cuda_error when CUDA fails. The kernel's attributes are looked up
// once per kernel and device.
void prepare_launch(const void *kernel, const char *name, int threads, std::size_t dynamic_shared_bytes);

// The grid of a kernel that loops over its work (a grid sized to the GPU): how many blocks of
// `kernel` at `threads` and `dynamic_shared_bytes` are resident on the current device at once,
// resident blocks per SM times SMs, at least 1. Runs prepare_launch first (same errors). Looked up
// once per kernel, device and configuration, so that a call pays a map lookup, not an occupancy query.
unsigned resident_grid(const void *kernel, const char *name, int threads, std::size_t dynamic_shared_bytes);

// Whether the code of `kernel` that runs on the current device was compiled for sm_90 or later:
// its PTX version, the virtual architecture its __CUDA_ARCH__ branches were taken for. Not the
// device's capability, nor the binary version (which reads 90 on an H100 after a JIT from older
// PTX): a kernel compiled for compute_80 runs its pre-Hopper branches on an H100 too. Every path
// that needs Hopper's bulk copies, clusters or griddepcontrol is taken only where this holds; the
// bodies compiled without them trap (a backstop: never launched). Looked up once per kernel and
// device; cuda_error where the binary holds no code for the device.
bool kernel_compiled_for_sm90(const void *kernel);

// Whether `p` may be read in accesses of `alignment` bytes (a kernel's vectorized path).
inline bool aligned_to(const void *p, std::size_t alignment) {
    return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

}  // namespace detail
}  // namespace StreamCompaction

#include <stream_compaction/support/kernel_image.h>

#ifndef SC_CUDA_ARCHITECTURES
#define SC_CUDA_ARCHITECTURES "unknown"
#endif

namespace StreamCompaction {
namespace {

// Compiled, like every kernel of the build, for the configured architectures: where its code does
// not load, no other kernel's does.
__global__ void kernel_image_probe() {}

}  // namespace

cudaError_t probe_kernel_image() {
    cudaFuncAttributes attributes{};
    const cudaError_t status = cudaFuncGetAttributes(&attributes, kernel_image_probe);
    if (status != cudaSuccess) cudaGetLastError();  // not sticky: clear it for the caller's next call
    return status;
}

const char *compiled_cuda_architectures() { return SC_CUDA_ARCHITECTURES; }

}  // namespace StreamCompaction

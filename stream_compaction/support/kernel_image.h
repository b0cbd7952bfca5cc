#pragma once
// Whether this binary holds GPU code the current device can run (probe_device's last check): a
// build for other architectures fails every kernel launch with "no kernel image is available".
#include <cuda_runtime.h>

namespace StreamCompaction {

// cudaSuccess when the library's code for the current device loads; the error of the lookup
// otherwise (cudaErrorNoKernelImageForDevice where it was built for other GPUs), cleared.
cudaError_t probe_kernel_image();

// The CUDA architectures this build's GPU code was compiled for, as configured
// (CMAKE_CUDA_ARCHITECTURES, e.g. "90" or "86 90"), or "unknown".
const char *compiled_cuda_architectures();

}  // namespace StreamCompaction

#include <stream_compaction/support/device_probe.h>
#include <stream_compaction/support/kernel_image.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

namespace StreamCompaction {
namespace {

std::string cuda_version_text(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// Why `err` (from the first CUDA calls) leaves no usable device, in words a user can act on.
// Without libcuda, or with a driver but no GPU, the runtime's own strings ("CUDA driver version is
// insufficient for CUDA runtime version", "no CUDA-capable device is detected") point the wrong
// way; they stay in parentheses for the record.
std::string unusable_reason(cudaError_t err) {
    const std::string detail = std::string("CUDA: ") + cudaGetErrorString(err);
    int driver = 0;  // 0 when no driver (libcuda) is installed
    if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
    if (err == cudaErrorNoDevice || (err == cudaErrorInsufficientDriver && driver == 0))
        return "no NVIDIA driver or GPU found (" + detail + ")";
    if (err == cudaErrorInsufficientDriver) {
        int runtime = 0;
        cudaRuntimeGetVersion(&runtime);
        return "the NVIDIA driver supports CUDA " + cuda_version_text(driver) + ", older than this build's CUDA " +
               cuda_version_text(runtime) + " (" + detail + ")";
    }
    return "no usable CUDA device (" + detail + ")";
}

}  // namespace

DeviceStatus probe_device() {
    DeviceStatus status;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0) err = cudaErrorNoDevice;
    if (err == cudaSuccess) err = cudaFree(nullptr);  // creates the context: driver problems show here
    if (err != cudaSuccess) {
        status.reason = unusable_reason(err);
        return status;
    }
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        status.reason = "no usable CUDA device (cannot read the device's properties)";
        return status;
    }
    char memory[32];
    std::snprintf(memory, sizeof memory, "%.1f GiB", prop.totalGlobalMem / double(1 << 30));
    const std::string sm = std::to_string(prop.major) + std::to_string(prop.minor);
    status.usable = true;
    status.description = std::string(prop.name) + ", sm_" + sm + ", " + std::to_string(prop.multiProcessorCount) +
                         " SMs, " + memory;
    const cudaError_t image = probe_kernel_image();
    if (image != cudaSuccess)
        status.no_code_for_device = std::string("this binary holds no GPU code for the ") + prop.name + " (sm_" + sm +
                                    "): it was built for CUDA architectures " + compiled_cuda_architectures() +
                                    "; configure with -DCMAKE_CUDA_ARCHITECTURES=" + sm +
                                    " (or native) and rebuild (CUDA: " + cudaGetErrorString(image) + ")";
    return status;
}

}  // namespace StreamCompaction

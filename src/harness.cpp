#include "harness.h"

#include <cuda_runtime.h>

#include <cstdio>

DeviceStatus probeDevice() {
    DeviceStatus status;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0) err = cudaErrorNoDevice;
    if (err == cudaSuccess) err = cudaFree(nullptr);  // creates the context: driver problems show here
    if (err != cudaSuccess) {
        status.reason = cudaGetErrorString(err);
        return status;
    }
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        status.reason = "cannot read the device's properties";
        return status;
    }
    char text[256];
    std::snprintf(text, sizeof text, "%s, sm_%d%d, %d SMs, %.1f GiB", prop.name, prop.major, prop.minor,
                  prop.multiProcessorCount, prop.totalGlobalMem / double(1 << 30));
    status.usable = true;
    status.description = text;
    return status;
}

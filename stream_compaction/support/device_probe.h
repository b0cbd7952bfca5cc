#pragma once
// Whether CUDA work can run here and, when not, why: the one probe the harness, the tests and the
// benchmark share, so that a machine without a driver or GPU gets one clear line instead of the
// runtime's "CUDA driver version is insufficient".
#include <string>

namespace StreamCompaction {

struct DeviceStatus {
    bool usable = false;
    // When not usable: a phrase that stands on its own, e.g. "no NVIDIA driver or GPU found (CUDA:
    // no CUDA-capable device is detected)".
    std::string reason;
    std::string description;  // e.g. "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.1 GiB"
    // When usable but this binary holds no GPU code the device runs (it was built for other
    // architectures): one line naming the device's sm_XY, the architectures built and the configure
    // flag that fixes it. Empty otherwise. The programs print it and exit kExitNoCodeForDevice.
    std::string no_code_for_device;
};

// The exit code of the harness, the benchmarks and the test programs when the binary holds no code
// for the GPU: a configuration error, neither a skip (77: no device) nor a failed test (1).
constexpr int kExitNoCodeForDevice = 4;

// Makes the first CUDA calls (and so the context) of the current device, and checks that this
// build's kernels load on it.
DeviceStatus probe_device();

}  // namespace StreamCompaction

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
};

// Makes the first CUDA calls (and so the context) of the current device.
DeviceStatus probe_device();

}  // namespace StreamCompaction

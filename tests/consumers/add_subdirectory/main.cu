// Consumer that builds StreamCompaction with add_subdirectory and links StreamCompaction::core:
// a device exclusive scan checked against the course CPU scan.
// Exit codes: 0 pass, 1 fail, 77 no CUDA device.
#include <stream_compaction/cpu.h>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/device_buffer.h>

#include <cstdio>
#include <exception>
#include <vector>

int main() {
    namespace SC = StreamCompaction;
    int devices = 0;
    const cudaError_t status = cudaGetDeviceCount(&devices);
    if (status != cudaSuccess || devices == 0) {
        std::printf("skipped: no CUDA device (%s)\n", status != cudaSuccess ? cudaGetErrorString(status) : "none found");
        return 77;
    }
    try {
        const int n = 100000;
        std::vector<int> in(n), expected(n), out(n);
        for (int i = 0; i < n; ++i) in[i] = (i * 5) % 13;
        SC::CPU::scan(n, expected.data(), in.data());

        auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
        SC::DeviceBuffer<int> d_out(n);
        const std::size_t bytes = SC::scan_temp_bytes<int>(n);
        SC::DeviceBuffer<char> d_temp(bytes);
        SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, 0, d_temp.get(), bytes);
        d_out.copy_to_host(out.data(), n);
        if (out != expected) {
            std::printf("FAIL: device exclusive scan differs from the CPU scan\n");
            return 1;
        }
        std::printf("device exclusive scan of %d ints: ok\n", n);
        return 0;
    } catch (const std::exception &e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}

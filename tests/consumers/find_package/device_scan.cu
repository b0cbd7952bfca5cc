// The device API from an installed package: exclusive scan with caller-provided temporary storage,
// under a call environment of its own (a block size). async_resource.cuh is included to show that
// the installed adapter of cuda::mr resources compiles against the consumer's CCCL.
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/async_resource.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_buffer.h>

#include <vector>

std::vector<int> device_exclusive_scan(const std::vector<int> &in) {
    namespace SC = StreamCompaction;
    const std::size_t n = in.size();
    auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
    SC::DeviceBuffer<int> d_out(n);
    const std::size_t bytes = SC::scan_temp_bytes<int>(n);
    SC::DeviceBuffer<char> d_temp(bytes);
    SC::Tuning tuning;
    tuning.single_pass = 128;
    SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, 0, d_temp.get(), bytes,
                       SC::CallEnvironment{nullptr, tuning});
    std::vector<int> out(n);
    d_out.copy_to_host(out.data(), n);
    return out;
}

#include <stream_compaction/naive.h>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/support/nvtx.h>

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <utility>

namespace StreamCompaction {
namespace Naive {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

// out[0] = 0, out[i] = in[i - 1]: turns the inclusive Hillis-Steele levels into an exclusive scan.
__global__ void kernShiftRight(std::size_t n, int *out, const int *in) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    out[i] = i == 0 ? 0 : in[i - 1];
}

// One level: out[i] = in[i - offset] + in[i] for i >= offset. After the levels with offsets
// 1, 2, 4, ... < n, element i holds the sum of the 2*offset elements ending at i.
__global__ void kernScanLevel(std::size_t n, std::size_t offset, int *out, const int *in) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    out[i] = i >= offset ? in[i - offset] + in[i] : in[i];
}

// Storage: the shifted input, n ints (at any alignment of d_temp: see detail::TempLayout).
static detail::TempLayout<1> scan_layout(std::size_t n) { return detail::temp_layout(n * sizeof(int)); }

std::size_t scan_temp_bytes(std::size_t n) { return scan_layout(n).bytes(); }

void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream) {
    SC_NVTX_RANGE("Naive::exclusive_scan");
    require_device_pointers("Naive::exclusive_scan", n, d_in, d_out);
    require_temp_storage("Naive::exclusive_scan", d_temp, temp_bytes, scan_temp_bytes(n));
    if (n == 0) return;
    const int threads = checked_block_size(block_sizes().naive);
    const unsigned blocks = blocks_for(n, threads);

    // The shift writes into temp, never into d_out, so d_out may alias d_in.
    int *src = reinterpret_cast<int *>(scan_layout(n).carve(d_temp)[0]);
    int *dst = d_out;
    kernShiftRight<<<blocks, threads, 0, stream>>>(n, src, d_in);
    SC_CHECK_LAUNCH(kernShiftRight);
    for (std::size_t offset = 1; offset < n; offset *= 2) {
        kernScanLevel<<<blocks, threads, 0, stream>>>(n, offset, dst, src);
        SC_CHECK_LAUNCH(kernScanLevel);
        std::swap(src, dst);
    }
    if (src != d_out)
        SC_CUDA_CHECK(cudaMemcpyAsync(d_out, src, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

void scan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Naive::scan", n, odata, idata);
    if (n == 0) return;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(scan_temp_bytes(n));
    Common::timeGpu(timer(), [&] { exclusive_scan(in.get(), out.get(), n, temp.get(), temp.bytes()); });
    out.copy_to_host(odata, n);
}

}  // namespace Naive
}  // namespace StreamCompaction

#include <stream_compaction/efficient.h>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/support/nvtx.h>

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <climits>

namespace StreamCompaction {
namespace Efficient {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

// Up-sweep level with tree nodes `stride` apart: node k's right child accumulates its left
// sibling. Only the `nodes` = padded / stride active nodes get a thread.
__global__ void kernUpSweep(std::size_t nodes, std::size_t stride, int *data) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k >= nodes) return;
    const std::size_t right = (k + 1) * stride - 1;
    data[right] += data[right - stride / 2];
}

// Down-sweep level: the left child takes the parent's prefix, the right child the parent's
// prefix plus the left subtree's sum.
__global__ void kernDownSweep(std::size_t nodes, std::size_t stride, int *data) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k >= nodes) return;
    const std::size_t right = (k + 1) * stride - 1;
    const std::size_t left = right - stride / 2;
    const int leftSum = data[left];
    data[left] = data[right];
    data[right] += leftSum;
}

static std::size_t nextPowerOfTwo(std::size_t n) {
    std::size_t p = 1;
    while (p < n) p *= 2;
    return p;
}

// Exclusive scan in place of data[0, padded), padded a power of two.
static void scanInPlace(int *data, std::size_t padded, cudaStream_t stream) {
    const int threads = checked_block_size(block_sizes().efficient);
    for (std::size_t stride = 2; stride <= padded; stride *= 2) {
        const std::size_t nodes = padded / stride;
        kernUpSweep<<<blocks_for(nodes, threads), threads, 0, stream>>>(nodes, stride, data);
        SC_CHECK_LAUNCH(kernUpSweep);
    }
    SC_CUDA_CHECK(cudaMemsetAsync(data + padded - 1, 0, sizeof(int), stream));
    for (std::size_t stride = padded; stride >= 2; stride /= 2) {
        const std::size_t nodes = padded / stride;
        kernDownSweep<<<blocks_for(nodes, threads), threads, 0, stream>>>(nodes, stride, data);
        SC_CHECK_LAUNCH(kernDownSweep);
    }
}

// Storage: the padded array the sweeps run on (at any alignment of d_temp: see detail::TempLayout).
static detail::TempLayout<1> scan_layout(std::size_t n) {
    return detail::temp_layout(n == 0 ? 0 : nextPowerOfTwo(n) * sizeof(int));
}

std::size_t scan_temp_bytes(std::size_t n) { return scan_layout(n).bytes(); }

void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream) {
    SC_NVTX_RANGE("Efficient::exclusive_scan");
    require_device_pointers("Efficient::exclusive_scan", n, d_in, d_out);
    require_temp_storage("Efficient::exclusive_scan", d_temp, temp_bytes, scan_temp_bytes(n));
    if (n == 0) return;
    const std::size_t padded = nextPowerOfTwo(n);
    int *data = reinterpret_cast<int *>(scan_layout(n).carve(d_temp)[0]);
    SC_CUDA_CHECK(cudaMemcpyAsync(data, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
    SC_CUDA_CHECK(cudaMemsetAsync(data + n, 0, (padded - n) * sizeof(int), stream));  // identity padding
    scanInPlace(data, padded, stream);
    SC_CUDA_CHECK(cudaMemcpyAsync(d_out, data, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

// Layout: bools[n], then the padded scan buffer over n + 1 flags (the extra flag is 0), whose
// element n is the total count.
static detail::TempLayout<2> compact_layout(std::size_t n) {
    return detail::temp_layout(n * sizeof(int), nextPowerOfTwo(n + 1) * sizeof(int));
}

std::size_t compact_temp_bytes(std::size_t n) { return compact_layout(n).bytes(); }

void compact(const int *d_in, int *d_out, int *d_count, std::size_t n, void *d_temp, std::size_t temp_bytes,
             cudaStream_t stream) {
    SC_NVTX_RANGE("Efficient::compact");
    require_device_pointers("Efficient::compact", n, d_in, d_out);
    if (d_count == nullptr) throw std::invalid_argument("Efficient::compact: null d_count");
    if (n > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("Efficient::compact: n > INT_MAX does not fit its int indices");
    require_temp_storage("Efficient::compact", d_temp, temp_bytes, compact_temp_bytes(n));
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(int), stream));
        return;
    }
    const int count = static_cast<int>(n);
    const int threads = checked_block_size(block_sizes().efficient);
    const unsigned blocks = blocks_for(n, threads);
    const auto pieces = compact_layout(n).carve(d_temp);
    int *bools = reinterpret_cast<int *>(pieces[0]);
    int *indices = reinterpret_cast<int *>(pieces[1]);
    const std::size_t padded = nextPowerOfTwo(n + 1);

    Common::kernMapToBoolean<<<blocks, threads, 0, stream>>>(count, bools, d_in);
    SC_CHECK_LAUNCH(Common::kernMapToBoolean);
    SC_CUDA_CHECK(cudaMemcpyAsync(indices, bools, n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
    SC_CUDA_CHECK(cudaMemsetAsync(indices + n, 0, (padded - n) * sizeof(int), stream));
    scanInPlace(indices, padded, stream);
    Common::kernScatter<<<blocks, threads, 0, stream>>>(count, d_out, d_in, bools, indices);
    SC_CHECK_LAUNCH(Common::kernScatter);
    SC_CUDA_CHECK(cudaMemcpyAsync(d_count, indices + n, sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

void scan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Efficient::scan", n, odata, idata);
    if (n == 0) return;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(scan_temp_bytes(n));
    Common::timeGpu(timer(), [&] { exclusive_scan(in.get(), out.get(), n, temp.get(), temp.bytes()); });
    out.copy_to_host(odata, n);
}

int compact(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Efficient::compact", n, odata, idata);
    if (n == 0) return 0;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<int> count(1);
    DeviceBuffer<char> temp(compact_temp_bytes(n));
    Common::timeGpu(timer(), [&] { compact(in.get(), out.get(), count.get(), n, temp.get(), temp.bytes()); });
    int kept = 0;
    count.copy_to_host(&kept, 1);
    out.copy_to_host(odata, kept);
    return kept;
}

}  // namespace Efficient
}  // namespace StreamCompaction

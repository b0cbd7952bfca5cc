#include <stream_compaction/radix.h>
#include <stream_compaction/support/nvtx.h>

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <cstddef>

namespace StreamCompaction {
namespace Radix {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

void sort(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Radix::sort", n, odata, idata);
    if (n == 0) return;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(radix_sort_temp_bytes<int>(n, course_environment()));
    Common::timeGpu(timer(), [&] { radix_sort_keys(in.get(), out.get(), n, temp.get(), temp.bytes(),
                                                   course_environment()); });
    out.copy_to_host(odata, n);
}

// The stable_partition predicate of one bit: true for the keys that go first. Below the sign bit a
// 0 bit goes first; at the sign bit a 1 (negative) does, which turns unsigned order into signed
// order.
struct GoesFirstOnBit {
    int bit;
    __host__ __device__ bool operator()(int key) const {
        return bit == 31 ? key < 0 : ((static_cast<unsigned>(key) >> bit) & 1u) == 0;
    }
};

// The classic sort's storage: the count of each partition's trues (which the sort does not need,
// but stable_partition writes), then the partition's own storage.
static detail::TempLayout<2> classic_sort_layout(std::size_t n) {
    return detail::temp_layout(sizeof(std::size_t), select_temp_bytes<int>(n));
}

std::size_t classic_sort_temp_bytes(std::size_t n) { return n == 0 ? 0 : classic_sort_layout(n).bytes(); }

void classic_sort_keys(const int *d_in, int *d_out, int *d_alternate, std::size_t n, void *d_temp,
                       std::size_t temp_bytes, cudaStream_t stream) {
    SC_NVTX_RANGE("Radix::classic_sort_keys");
    constexpr const char *kName = "classic_sort_keys";
    require_device_pointers(kName, n, d_in, d_out);
    require_device_pointers(kName, n, d_in, d_alternate);
    detail::require_disjoint(kName, d_in, d_out, n);
    detail::require_disjoint(kName, d_in, d_alternate, n);
    detail::require_disjoint(kName, d_alternate, d_out, n);
    if (n == 0) return;
    require_temp_storage(kName, d_temp, temp_bytes, classic_sort_temp_bytes(n));
    const auto pieces = classic_sort_layout(n).carve(d_temp);
    std::size_t *true_count = reinterpret_cast<std::size_t *>(pieces[0]);
    void *partition_temp = pieces[1];
    const std::size_t partition_bytes = select_temp_bytes<int>(n);
    constexpr int kBits = 32;
    static_assert(kBits % 2 == 0, "with an even number of passes, the odd ones (the last included) write d_out");
    const int *from = d_in;
    for (int bit = 0; bit < kBits; ++bit) {
        int *to = bit % 2 == 0 ? d_alternate : d_out;
        // Stable: LSD radix sort needs each pass to keep the order of the passes before it.
        stable_partition(from, to, true_count, n, GoesFirstOnBit{bit}, partition_temp, partition_bytes,
                         course_environment(stream));
        from = to;
    }
}

void sortClassic(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Radix::sortClassic", n, odata, idata);
    if (n == 0) return;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<int> alternate(n);
    DeviceBuffer<char> temp(classic_sort_temp_bytes(n));
    Common::timeGpu(timer(), [&] {
        classic_sort_keys(in.get(), out.get(), alternate.get(), n, temp.get(), temp.bytes());
    });
    out.copy_to_host(odata, n);
}

}  // namespace Radix
}  // namespace StreamCompaction

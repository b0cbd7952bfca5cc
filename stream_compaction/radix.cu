#include "radix.h"

#include "device_buffer.h"
#include "radix_sort.cuh"
#include "select.cuh"

#include <utility>

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
    DeviceBuffer<char> temp(radix_sort_temp_bytes<int>(n));
    Common::timeGpu(timer(), [&] { radix_sort_keys(in.get(), out.get(), n, temp.get(), temp.bytes()); });
    out.copy_to_host(odata, n);
}

// The partition predicate of one bit: true for the keys that go first. Below the sign bit a 0 bit
// goes first; at the sign bit a 1 (negative) does, which turns unsigned order into signed order.
struct GoesFirstOnBit {
    int bit;
    __host__ __device__ bool operator()(int key) const {
        return bit == 31 ? key < 0 : ((static_cast<unsigned>(key) >> bit) & 1u) == 0;
    }
};

void sortClassic(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Radix::sortClassic", n, odata, idata);
    if (n == 0) return;
    constexpr int kBits = 32;
    static_assert(kBits % 2 == 0, "an even number of passes leaves the keys in their first buffer");
    DeviceBuffer<int> keys = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> alternate(n);
    DeviceBuffer<std::size_t> first_count(1);
    DeviceBuffer<char> temp(select_temp_bytes<int>(n));
    Common::timeGpu(timer(), [&] {
        int *from = keys.get();
        int *to = alternate.get();
        for (int bit = 0; bit < kBits; ++bit) {
            partition(from, to, first_count.get(), n, GoesFirstOnBit{bit}, temp.get(), temp.bytes());
            std::swap(from, to);
        }
    });
    keys.copy_to_host(odata, n);
}

}  // namespace Radix
}  // namespace StreamCompaction

#include <stream_compaction/segmented.h>

#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <climits>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace Segmented {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

static void segmentedScan(const char *name, bool exclusive, int n, int *odata, const int *idata, const int *flags) {
    Common::checkHostArgs(name, n, odata, idata);
    Common::checkHostArgs(name, n, odata, flags);
    if (n == 0) return;
    DeviceBuffer<int> values = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> heads = DeviceBuffer<int>::from_host(flags, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(segmented_scan_temp_bytes<int>(n));
    Common::timeGpu(timer(), [&] {
        if (exclusive)
            segmented_exclusive_scan(values.get(), heads.get(), out.get(), n, Sum{}, 0, temp.get(), temp.bytes(),
                                     course_environment());
        else
            segmented_inclusive_scan(values.get(), heads.get(), out.get(), n, Sum{}, temp.get(), temp.bytes(),
                                     course_environment());
    });
    out.copy_to_host(odata, n);
}

void scan(int n, int *odata, const int *idata, const int *flags) {
    segmentedScan("Segmented::scan", true, n, odata, idata, flags);
}

void inclusiveScan(int n, int *odata, const int *idata, const int *flags) {
    segmentedScan("Segmented::inclusiveScan", false, n, odata, idata, flags);
}

void reduce(int segments, int *odata, const int *idata, const int *offsets) {
    if (segments < 0 || (segments > 0 && (odata == nullptr || offsets == nullptr)))
        throw std::invalid_argument("Segmented::reduce: bad segment count or null pointer");
    if (segments == 0) return;
    if (offsets[0] != 0) throw std::invalid_argument("Segmented::reduce: offsets[0] is not 0");
    for (int s = 0; s < segments; ++s)
        if (offsets[s + 1] < offsets[s])
            throw std::invalid_argument("Segmented::reduce: offsets decrease at segment " + std::to_string(s));
    const int n = offsets[segments];
    if (n > 0 && idata == nullptr) throw std::invalid_argument("Segmented::reduce: null input");
    DeviceBuffer<int> values = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> bounds = DeviceBuffer<int>::from_host(offsets, segments + 1);
    DeviceBuffer<int> out(segments);
    DeviceBuffer<char> temp(segmented_reduce_temp_bytes<int>(n, segments));
    Common::timeGpu(timer(), [&] {
        segmented_reduce(values.get(), n, bounds.get(), segments, out.get(), Sum{}, 0, temp.get(), temp.bytes(),
                         course_environment());
    });
    out.copy_to_host(odata, segments);
}

int makeFlags(int segments, int *flags, const int *shape) {
    if (segments < 0 || (segments > 0 && shape == nullptr))
        throw std::invalid_argument("Segmented::makeFlags: bad segment count or null shape");
    long long total = 0;
    for (int s = 0; s < segments; ++s) {
        if (shape[s] < 0) throw std::invalid_argument("Segmented::makeFlags: negative length at " + std::to_string(s));
        total += shape[s];
    }
    if (total > INT_MAX) throw std::invalid_argument("Segmented::makeFlags: lengths sum past INT_MAX");
    const int n = static_cast<int>(total);
    if (n == 0) return 0;
    if (flags == nullptr) throw std::invalid_argument("Segmented::makeFlags: null flags");
    DeviceBuffer<int> lengths = DeviceBuffer<int>::from_host(shape, segments);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(make_flags_temp_bytes(segments));
    Common::timeGpu(timer(),
                    [&] { make_flags(lengths.get(), segments, out.get(), n, temp.get(), temp.bytes(),
                                     course_environment()); });
    out.copy_to_host(flags, n);
    return n;
}

}  // namespace Segmented
}  // namespace StreamCompaction

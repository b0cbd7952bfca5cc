#include <stream_compaction/load_balance.h>

#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/device/segmented_sort.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace LoadBalance {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

// Uploads and checks the offsets (segments >= 0, then on the device).
static DeviceBuffer<int> checkedOffsets(const char *name, int n, const int *offsets, int segments) {
    if (segments < 0) throw std::invalid_argument(std::string(name) + ": segments = " + std::to_string(segments));
    Common::checkHostArgs(name, segments + 1, offsets, offsets);
    DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets, segments + 1);
    check_segment_offsets(d_offsets.get(), segments, n, course_environment());
    return d_offsets;
}

void loadBalancingSearch(int n, const int *offsets, int segments, int *segmentOfItem) {
    Common::checkHostArgs("LoadBalance::loadBalancingSearch", n, segmentOfItem, segmentOfItem);
    const DeviceBuffer<int> d_offsets = checkedOffsets("LoadBalance::loadBalancingSearch", n, offsets, segments);
    DeviceBuffer<int> d_out(n);
    Common::timeGpu(timer(), [&] { load_balancing_search(n, d_offsets.get(), segments, d_out.get(),
                                                         course_environment()); });
    d_out.copy_to_host(segmentOfItem, n);
}

void intervalExpand(int n, const int *offsets, int segments, const int *values, int *out) {
    Common::checkHostArgs("LoadBalance::intervalExpand", n, out, out);
    Common::checkHostArgs("LoadBalance::intervalExpand", segments, values, values);
    const DeviceBuffer<int> d_offsets = checkedOffsets("LoadBalance::intervalExpand", n, offsets, segments);
    const DeviceBuffer<int> d_values = DeviceBuffer<int>::from_host(values, segments);
    DeviceBuffer<int> d_out(n);
    Common::timeGpu(timer(), [&] { interval_expand(n, d_offsets.get(), segments, d_values.get(), d_out.get(),
                                                   course_environment()); });
    d_out.copy_to_host(out, n);
}

void segmentedSort(int n, const int *offsets, int segments, const int *keys, int *out) {
    Common::checkHostArgs("LoadBalance::segmentedSort", n, out, keys);
    const DeviceBuffer<int> d_offsets = checkedOffsets("LoadBalance::segmentedSort", n, offsets, segments);
    const DeviceBuffer<int> d_keys = DeviceBuffer<int>::from_host(keys, n);
    DeviceBuffer<int> d_out(n);
    DeviceBuffer<char> temp(segmented_sort_temp_bytes<int>(n, course_environment()));
    Common::timeGpu(timer(), [&] {
        segmented_sort_keys(d_keys.get(), d_out.get(), n, d_offsets.get(), segments, temp.get(), temp.bytes(),
                            course_environment());
    });
    d_out.copy_to_host(out, n);
}

}  // namespace LoadBalance
}  // namespace StreamCompaction

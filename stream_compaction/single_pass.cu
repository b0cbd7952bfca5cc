#include <stream_compaction/single_pass.h>

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

namespace StreamCompaction {
namespace SinglePass {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

void scan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("SinglePass::scan", n, odata, idata);
    if (n == 0) return;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(scan_temp_bytes<int>(n));
    Common::timeGpu(timer(), [&] { exclusive_scan(in.get(), out.get(), n, Sum{}, 0, temp.get(), temp.bytes(),
                                                  course_environment()); });
    out.copy_to_host(odata, n);
}

// Runs a selection-type operation and returns its count; odata receives `kept(count)` elements.
template <class Run, class Kept>
static int runSelection(int n, int *odata, const int *idata, Run run, Kept kept) {
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<std::size_t> count(1);
    DeviceBuffer<char> temp(select_temp_bytes<int>(n));
    Common::timeGpu(timer(), [&] { run(in.get(), out.get(), count.get(), temp.get(), temp.bytes()); });
    std::size_t selected = 0;
    count.copy_to_host(&selected, 1);
    out.copy_to_host(odata, kept(selected));
    return static_cast<int>(selected);
}

int compact(int n, int *odata, const int *idata) {
    Common::checkHostArgs("SinglePass::compact", n, odata, idata);
    if (n == 0) return 0;
    return runSelection(
        n, odata, idata,
        [&](const int *d_in, int *d_out, std::size_t *d_count, void *d_temp, std::size_t bytes) {
            select_if(d_in, d_out, d_count, n, NonZero{}, d_temp, bytes, course_environment());
        },
        [](std::size_t selected) { return selected; });
}

// Runs a partition (all n elements written) and returns its count of trues.
template <class Partition>
static int runPartition(int n, int *odata, const int *idata, Partition partition) {
    return runSelection(
        n, odata, idata,
        [&](const int *d_in, int *d_out, std::size_t *d_count, void *d_temp, std::size_t bytes) {
            partition(d_in, d_out, d_count, static_cast<std::size_t>(n), d_temp, bytes);
        },
        [n](std::size_t) { return static_cast<std::size_t>(n); });
}

int stablePartition(int n, int *odata, const int *idata, int pivot) {
    Common::checkHostArgs("SinglePass::stablePartition", n, odata, idata);
    if (n == 0) return 0;
    return runPartition(n, odata, idata,
                        [pivot](const int *d_in, int *d_out, std::size_t *d_count, std::size_t size, void *d_temp,
                                std::size_t bytes) {
                            stable_partition(d_in, d_out, d_count, size, LessThan<int>{pivot}, d_temp, bytes,
                                             course_environment());
                        });
}

int partition(int n, int *odata, const int *idata, int pivot) {
    Common::checkHostArgs("SinglePass::partition", n, odata, idata);
    if (n == 0) return 0;
    return runPartition(n, odata, idata,
                        [pivot](const int *d_in, int *d_out, std::size_t *d_count, std::size_t size, void *d_temp,
                                std::size_t bytes) {
                            StreamCompaction::partition(d_in, d_out, d_count, size, LessThan<int>{pivot}, d_temp,
                                                        bytes, course_environment());
                        });
}

}  // namespace SinglePass
}  // namespace StreamCompaction

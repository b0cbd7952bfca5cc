#include <stream_compaction/reduce.h>

#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

namespace StreamCompaction {
namespace Reduce {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

std::size_t sum_temp_bytes(ReduceStrategy strategy, std::size_t n) { return reduce_temp_bytes<int>(n, strategy); }

void sum(ReduceStrategy strategy, const int *d_in, int *d_sum, std::size_t n, void *d_temp, std::size_t temp_bytes,
         cudaStream_t stream) {
    StreamCompaction::reduce(strategy, d_in, d_sum, n, Sum{}, 0, d_temp, temp_bytes, course_environment(stream));
}

std::size_t max_segment_sum_temp_bytes(std::size_t n) { return StreamCompaction::max_segment_sum_temp_bytes(n); }

void max_segment_sum(const int *d_in, MaxSegmentSum *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                     cudaStream_t stream) {
    StreamCompaction::max_segment_sum(d_in, d_out, n, d_temp, temp_bytes, course_environment(stream));
}

int sum(ReduceStrategy strategy, int n, const int *idata) {
    Common::checkHostArgs("Reduce::sum", n, idata, idata);
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(1);
    out.fill_bytes(0xA5);  // a launch that wrote nothing cannot return a stale result from reused memory
    DeviceBuffer<char> temp(sum_temp_bytes(strategy, n));
    Common::timeGpu(timer(), [&] { Reduce::sum(strategy, in.get(), out.get(), n, temp.get(), temp.bytes()); });
    int result = 0;
    out.copy_to_host(&result, 1);
    return result;
}

MaxSegmentSum maxSegmentSum(int n, const int *idata) {
    Common::checkHostArgs("Reduce::maxSegmentSum", n, idata, idata);
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<MaxSegmentSum> out(1);
    out.fill_bytes(0xA5);
    DeviceBuffer<char> temp(Reduce::max_segment_sum_temp_bytes(n));
    Common::timeGpu(timer(), [&] { Reduce::max_segment_sum(in.get(), out.get(), n, temp.get(), temp.bytes()); });
    MaxSegmentSum result{};
    out.copy_to_host(&result, 1);
    return result;
}

}  // namespace Reduce
}  // namespace StreamCompaction

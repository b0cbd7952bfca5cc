#include <stream_compaction/by_key.h>

#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/histogram.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <cstddef>
#include <stdexcept>

namespace StreamCompaction {
namespace ByKey {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

// The count a call left in device memory.
static int countBack(const DeviceBuffer<std::size_t> &count) {
    std::size_t runs = 0;
    count.copy_to_host(&runs, 1);
    return static_cast<int>(runs);
}

// reduceByKey and uniqueByKey: one by-key call on uploaded keys and values.
template <class Call>
static int keysAndValues(const char *name, int n, int *keysOut, int *valuesOut, const int *keys, const int *values,
                         Call call) {
    Common::checkHostArgs(name, n, keysOut, keys);
    Common::checkHostArgs(name, n, valuesOut, values);
    DeviceBuffer<int> d_keys = DeviceBuffer<int>::from_host(keys, n), d_values = DeviceBuffer<int>::from_host(values, n);
    DeviceBuffer<int> d_keys_out(n), d_values_out(n);
    DeviceBuffer<std::size_t> d_runs(1);
    DeviceBuffer<char> temp(reduce_by_key_temp_bytes<int, int>(n));
    Common::timeGpu(timer(), [&] {
        call(d_keys.get(), d_values.get(), d_keys_out.get(), d_values_out.get(), d_runs.get(), temp.get(), temp.bytes());
    });
    const int runs = countBack(d_runs);
    d_keys_out.copy_to_host(keysOut, runs);
    d_values_out.copy_to_host(valuesOut, runs);
    return runs;
}

int reduceByKey(int n, int *uniqueKeys, int *sums, const int *keys, const int *values) {
    return keysAndValues("ByKey::reduceByKey", n, uniqueKeys, sums, keys, values,
                         [n](const int *k, const int *v, int *ko, int *vo, std::size_t *runs, void *t, std::size_t b) {
                             reduce_by_key(k, v, ko, vo, runs, n, Sum{}, EqualTo{}, t, b, course_environment());
                         });
}

int uniqueByKey(int n, int *keysOut, int *valuesOut, const int *keys, const int *values) {
    return keysAndValues("ByKey::uniqueByKey", n, keysOut, valuesOut, keys, values,
                         [n](const int *k, const int *v, int *ko, int *vo, std::size_t *runs, void *t, std::size_t b) {
                             unique_by_key(k, v, ko, vo, runs, n, EqualTo{}, t, b, course_environment());
                         });
}

int unique(int n, int *odata, const int *idata) {
    Common::checkHostArgs("ByKey::unique", n, odata, idata);
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(idata, n), d_out(n);
    DeviceBuffer<std::size_t> d_count(1);
    DeviceBuffer<char> temp(unique_temp_bytes<int>(n));
    Common::timeGpu(timer(), [&] {
        StreamCompaction::unique(d_in.get(), d_out.get(), d_count.get(), n, EqualTo{}, temp.get(), temp.bytes(),
                                 course_environment());
    });
    const int count = countBack(d_count);
    d_out.copy_to_host(odata, count);
    return count;
}

int runLengthEncode(int n, int *uniqueOut, int *lengths, const int *idata) {
    Common::checkHostArgs("ByKey::runLengthEncode", n, uniqueOut, idata);
    Common::checkHostArgs("ByKey::runLengthEncode", n, lengths, idata);
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(idata, n), d_out(n), d_lengths(n);
    DeviceBuffer<std::size_t> d_runs(1);
    DeviceBuffer<char> temp(run_length_encode_temp_bytes<int>(n));
    Common::timeGpu(timer(), [&] {
        run_length_encode(d_in.get(), d_out.get(), d_lengths.get(), d_runs.get(), n, temp.get(), temp.bytes(),
                          course_environment());
    });
    const int runs = countBack(d_runs);
    d_out.copy_to_host(uniqueOut, runs);
    d_lengths.copy_to_host(lengths, runs);
    return runs;
}

void histogramEven(int n, const int *samples, int numBins, int lower, int upper, unsigned *counts) {
    Common::checkHostArgs("ByKey::histogramEven", n, counts, samples);
    if (numBins <= 0 || counts == nullptr)
        throw std::invalid_argument("ByKey::histogramEven: needs numBins > 0 and counts");
    DeviceBuffer<int> d_samples = DeviceBuffer<int>::from_host(samples, n);
    DeviceBuffer<unsigned> d_counts(numBins);
    Common::timeGpu(timer(), [&] { histogram_even(d_samples.get(), n, d_counts.get(), numBins, lower, upper,
                                                  course_environment()); });
    d_counts.copy_to_host(counts, numBins);
}

}  // namespace ByKey
}  // namespace StreamCompaction

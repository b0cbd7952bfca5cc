#include <stream_compaction/cpu.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace StreamCompaction {
namespace CPU {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

// Untimed, so that compactWithScan can use it inside its own timing.
static void exclusiveScan(int n, int *odata, const int *idata) {
    unsigned sum = 0;  // unsigned: overflow wraps instead of being undefined
    for (int i = 0; i < n; ++i) {
        const unsigned value = static_cast<unsigned>(idata[i]);  // read first: odata may alias idata
        odata[i] = static_cast<int>(sum);
        sum += value;
    }
}

void scan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("CPU::scan", n, odata, idata);
    timer().startCpuTimer();
    exclusiveScan(n, odata, idata);
    timer().endCpuTimer();
}

int compactWithoutScan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("CPU::compactWithoutScan", n, odata, idata);
    timer().startCpuTimer();
    int count = 0;
    for (int i = 0; i < n; ++i)
        if (idata[i] != 0) odata[count++] = idata[i];
    timer().endCpuTimer();
    return count;
}

int compactWithScan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("CPU::compactWithScan", n, odata, idata);
    std::vector<int> bools(n), indices(n);  // allocated before timing, as the GPU versions do
    timer().startCpuTimer();
    for (int i = 0; i < n; ++i) bools[i] = idata[i] != 0;
    exclusiveScan(n, indices.data(), bools.data());
    for (int i = 0; i < n; ++i)
        if (bools[i]) odata[indices[i]] = idata[i];
    const int count = n > 0 ? indices[n - 1] + bools[n - 1] : 0;
    timer().endCpuTimer();
    return count;
}

int sum(int n, const int *idata) {
    Common::checkHostArgs("CPU::sum", n, idata, idata);
    timer().startCpuTimer();
    unsigned total = 0;  // unsigned: overflow wraps instead of being undefined
    for (int i = 0; i < n; ++i) total += static_cast<unsigned>(idata[i]);
    timer().endCpuTimer();
    return static_cast<int>(total);
}

MaxSegmentSum maxSegmentSum(int n, const int *idata) {
    Common::checkHostArgs("CPU::maxSegmentSum", n, idata, idata);
    timer().startCpuTimer();
    // `current` is the best segment ending at element i, [current_begin, i + 1); of those with the
    // same sum, the one that starts first, so a run that sums to 0 is extended, not restarted.
    // A later segment replaces the best only when strictly larger: with an equal sum it starts no
    // earlier (begins only move forward) and ends later.
    MaxSegmentSum best{0, 0, 0};  // the empty segment [0, 0): a segment must be positive to beat it
    long long current = -1;
    std::size_t current_begin = 0;
    for (int i = 0; i < n; ++i) {
        if (current < 0) {
            current = idata[i];
            current_begin = static_cast<std::size_t>(i);
        } else {
            current += idata[i];
        }
        if (current > best.sum) best = {current, current_begin, static_cast<std::size_t>(i) + 1};
    }
    timer().endCpuTimer();
    return best;
}

// ---- runs and histograms ----

// Calls run(first, end) for each run [first, end) of equal keys, in order; returns their number.
template <class Run>
static int forEachRun(int n, const int *keys, Run run) {
    int runs = 0;
    for (int first = 0, end = 0; first < n; first = end, ++runs) {
        end = first + 1;
        while (end < n && keys[end] == keys[first]) ++end;
        run(runs, first, end);
    }
    return runs;
}

int reduceByKey(int n, int *uniqueKeys, int *sums, const int *keys, const int *values) {
    Common::checkHostArgs("CPU::reduceByKey", n, uniqueKeys, keys);
    Common::checkHostArgs("CPU::reduceByKey", n, sums, values);
    timer().startCpuTimer();
    const int runs = forEachRun(n, keys, [&](int j, int first, int end) {
        unsigned sum = 0;  // unsigned: overflow wraps instead of being undefined
        for (int i = first; i < end; ++i) sum += static_cast<unsigned>(values[i]);
        uniqueKeys[j] = keys[first];
        sums[j] = static_cast<int>(sum);
    });
    timer().endCpuTimer();
    return runs;
}

int unique(int n, int *odata, const int *idata) {
    Common::checkHostArgs("CPU::unique", n, odata, idata);
    timer().startCpuTimer();
    const int runs = forEachRun(n, idata, [&](int j, int first, int) { odata[j] = idata[first]; });
    timer().endCpuTimer();
    return runs;
}

int uniqueByKey(int n, int *keysOut, int *valuesOut, const int *keys, const int *values) {
    Common::checkHostArgs("CPU::uniqueByKey", n, keysOut, keys);
    Common::checkHostArgs("CPU::uniqueByKey", n, valuesOut, values);
    timer().startCpuTimer();
    const int runs = forEachRun(n, keys, [&](int j, int first, int) {
        keysOut[j] = keys[first];
        valuesOut[j] = values[first];
    });
    timer().endCpuTimer();
    return runs;
}

int runLengthEncode(int n, int *uniqueOut, int *lengths, const int *idata) {
    Common::checkHostArgs("CPU::runLengthEncode", n, uniqueOut, idata);
    Common::checkHostArgs("CPU::runLengthEncode", n, lengths, idata);
    timer().startCpuTimer();
    const int runs = forEachRun(n, idata, [&](int j, int first, int end) {
        uniqueOut[j] = idata[first];
        lengths[j] = end - first;
    });
    timer().endCpuTimer();
    return runs;
}

static void checkHistogramArgs(int n, const void *samples, int numBins, const unsigned *counts, bool ordered) {
    Common::checkHostArgs("CPU::histogramEven", n, counts, samples);
    if (numBins <= 0 || counts == nullptr || !ordered)
        throw std::invalid_argument("CPU::histogramEven: needs numBins > 0, counts and lower < upper");
}

void histogramEven(int n, const int *samples, int numBins, int lower, int upper, unsigned *counts) {
    checkHistogramArgs(n, samples, numBins, counts, lower < upper);
    timer().startCpuTimer();
    std::fill(counts, counts + numBins, 0u);
    const long long range = static_cast<long long>(upper) - lower;  // < 2^32: the products below fit
    for (int i = 0; i < n; ++i)
        if (samples[i] >= lower && samples[i] < upper)
            ++counts[(static_cast<long long>(samples[i]) - lower) * numBins / range];
    timer().endCpuTimer();
}

void histogramEven(int n, const float *samples, int numBins, float lower, float upper, unsigned *counts) {
    checkHistogramArgs(n, samples, numBins, counts, lower < upper);
    timer().startCpuTimer();
    std::fill(counts, counts + numBins, 0u);
    const double scale = static_cast<double>(numBins) / (static_cast<double>(upper) - static_cast<double>(lower));
    for (int i = 0; i < n; ++i) {
        const float x = samples[i];
        if (!(x >= lower && x < upper)) continue;
        const long long bin = static_cast<long long>((static_cast<double>(x) - static_cast<double>(lower)) * scale);
        ++counts[bin < numBins ? bin : numBins - 1];
    }
    timer().endCpuTimer();
}

}  // namespace CPU
}  // namespace StreamCompaction

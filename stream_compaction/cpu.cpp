#include <stream_compaction/cpu.h>

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

}  // namespace CPU
}  // namespace StreamCompaction

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

}  // namespace CPU
}  // namespace StreamCompaction

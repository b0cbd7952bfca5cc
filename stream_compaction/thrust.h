#pragma once
// Library baseline: thrust::exclusive_scan (CCCL).
#include <stream_compaction/common.h>

#include <cstddef>

namespace StreamCompaction {
namespace Thrust {

StreamCompaction::Common::PerformanceTimer &timer();

// Course interface (host pointers).
void scan(int n, int *odata, const int *idata);

// Device API. Thrust's temporary storage comes from d_temp (at least scan_temp_bytes(n) bytes)
// so that nothing is allocated while the scan runs.
std::size_t scan_temp_bytes(std::size_t n);
void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream = 0);

}  // namespace Thrust
}  // namespace StreamCompaction

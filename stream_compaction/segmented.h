#pragma once
// Segmented scan and reduction in the course interface (host pointers, timer). The device API with
// every type, operator and segment description is segmented_scan.cuh.
#include <stream_compaction/common.h>

namespace StreamCompaction {
namespace Segmented {

StreamCompaction::Common::PerformanceTimer &timer();

// Exclusive segmented prefix sum of n ints: flags[i] != 0 starts a new segment at i (element 0
// always starts one), and each segment's sums start again from 0.
// idata 1 2 3 4 5 6 7 8, flags 1 0 1 0 0 1 0 0 -> odata 0 1 0 3 7 0 6 13.
void scan(int n, int *odata, const int *idata, const int *flags);

// Inclusive segmented prefix sum, segments as in scan().
void inclusiveScan(int n, int *odata, const int *idata, const int *flags);

// odata[s] = the sum of idata[offsets[s], offsets[s + 1]) for s < segments (0 for an empty
// segment). offsets has segments + 1 entries: 0, ascending, then n. Throws std::invalid_argument
// for offsets that break these rules.
void reduce(int segments, int *odata, const int *idata, const int *offsets);

// Head flags of the segments whose lengths are shape[0, segments) (zeros allowed): flags[i] = 1
// where a non-empty segment starts, else 0. Returns n, the sum of the lengths; flags needs room
// for n. Shape [0,3,1,0,4,2,0] gives flags [1,0,0,1,1,0,0,0,1,0] and returns 10.
int makeFlags(int segments, int *flags, const int *shape);

}  // namespace Segmented
}  // namespace StreamCompaction

#pragma once
// CPU reference implementations, timed with the CPU timer.
#include <stream_compaction/common.h>
#include <stream_compaction/support/reduction.h>

namespace StreamCompaction {
namespace CPU {

StreamCompaction::Common::PerformanceTimer &timer();

// odata[i] = idata[0] + ... + idata[i-1]; odata[0] = 0. Sums wrap modulo 2^32.
void scan(int n, int *odata, const int *idata);

// Copies the non-zero elements of idata to odata in order; returns their count. One pass.
int compactWithoutScan(int n, int *odata, const int *idata);

// The same result through map -> scan -> scatter, the shape of the GPU algorithm.
int compactWithScan(int n, int *odata, const int *idata);

// idata[0] + ... + idata[n-1], wrapping modulo 2^32 as int sums on the GPU do; 0 for n = 0.
int sum(int n, const int *idata);

// The maximum segment sum and its segment by Kadane's algorithm, one pass, 64-bit sums, with the
// convention of MaxSegmentSum (support/reduction.h): the empty segment [0, 0) when no segment has a
// positive sum; of the segments with the largest sum, the one that starts first, then the shortest.
MaxSegmentSum maxSegmentSum(int n, const int *idata);

// ---- runs and histograms: the references of device/by_key.cuh and device/histogram.cuh ----
// A run is a maximal stretch of consecutive equal keys (items). Each returns the number of runs;
// outputs need room for n.

// uniqueKeys[j] = the key of run j, sums[j] = the sum of its values (wrapping like int32).
int reduceByKey(int n, int *uniqueKeys, int *sums, const int *keys, const int *values);

// The first item of each run, in order.
int unique(int n, int *odata, const int *idata);

// The first key of each run and the value beside it.
int uniqueByKey(int n, int *keysOut, int *valuesOut, const int *keys, const int *values);

// uniqueOut[j] = the item of run j, lengths[j] = its length.
int runLengthEncode(int n, int *uniqueOut, int *lengths, const int *idata);

// counts[b] = the samples x in [lower, upper) with floor((x - lower) * numBins / (upper - lower)) = b,
// for numBins > 0 and lower < upper; samples outside the range count nowhere. Integers exactly;
// floats in double precision, (x - lower) * (numBins / (upper - lower)) truncated, the last bin
// taking any sample that rounds up to numBins (as histogram_even does), NaN nowhere.
void histogramEven(int n, const int *samples, int numBins, int lower, int upper, unsigned *counts);
void histogramEven(int n, const float *samples, int numBins, float lower, float upper, unsigned *counts);

}  // namespace CPU
}  // namespace StreamCompaction

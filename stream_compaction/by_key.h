#pragma once
// Runs of equal keys and even histograms in the course interface (host pointers, timer). The device
// API with every type, operator and key comparison is device/by_key.cuh and device/histogram.cuh.
#include <stream_compaction/common.h>

namespace StreamCompaction {
namespace ByKey {

StreamCompaction::Common::PerformanceTimer &timer();

// Each returns the number of runs (maximal stretches of consecutive equal keys); outputs need room
// for n. Example: keys 1 1 2 2 2 3 1, values 1 2 3 4 5 6 7 -> reduceByKey: keys 1 2 3 1, sums
// 3 12 6 7 (returns 4).
int reduceByKey(int n, int *uniqueKeys, int *sums, const int *keys, const int *values);
int unique(int n, int *odata, const int *idata);
int uniqueByKey(int n, int *keysOut, int *valuesOut, const int *keys, const int *values);
int runLengthEncode(int n, int *uniqueOut, int *lengths, const int *idata);

// counts[b] = the samples in bin b of numBins even bins over [lower, upper) (histogram.cuh).
void histogramEven(int n, const int *samples, int numBins, int lower, int upper, unsigned *counts);

}  // namespace ByKey
}  // namespace StreamCompaction

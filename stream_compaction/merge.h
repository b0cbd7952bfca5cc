#pragma once
// Sorted search, merge and inner join in the course interface (host pointers, int keys, timer).
// The device API with every key type and ordering is device/merge.cuh and device/join.cuh; the CPU
// references are reference/merge.h.
#include <stream_compaction/common.h>

namespace StreamCompaction {
namespace Merge {

StreamCompaction::Common::PerformanceTimer &timer();

// indices[i] = the number of haystack items below needles[i] (lowerBound) or not above it
// (upperBound); needles and haystack sorted ascending (one merge-path pass over both).
void lowerBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack);
void upperBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack);

// out[0, na + nb) = the stable merge of sorted a and b (of equal keys, a's first).
void mergeKeys(int na, const int *a, int nb, const int *b, int *out);
void mergePairs(int na, const int *aKeys, const int *aValues, int nb, const int *bKeys, const int *bValues,
                int *keysOut, int *valuesOut);

// Every pair (i, j) with a[i] == b[j], in order of i, then j: returns their number and writes the
// first min(number, capacity). Throws std::invalid_argument when a or b is not sorted (checked on
// the device when neither is empty; an empty side gives 0 pairs). Example: a = 1 2 2 5, b = 2 2 3 5 5 -> 6 pairs: (1,0) (1,1) (2,0) (2,1) (3,3) (3,4).
long long innerJoin(int na, const int *a, int nb, const int *b, long long capacity, int *aIndices, int *bIndices);

}  // namespace Merge
}  // namespace StreamCompaction

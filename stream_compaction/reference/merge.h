#pragma once
// CPU references of the merge family (device/merge.cuh, device/join.cuh) on int keys, timed with
// CPU::timer() (cpu.h). Inputs that must be sorted are sorted ascending; nothing checks it.
#include <stream_compaction/cpu.h>

namespace StreamCompaction {
namespace CPU {

// indices[i] = the number of haystack items below needles[i] (lowerBound) or not above it
// (upperBound), for sorted needles: one pass over both, as a merge.
void lowerBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack);
void upperBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack);

// out[0, na + nb) = the stable merge of a and b: of equal keys, a's first.
void mergeKeys(int na, const int *a, int nb, const int *b, int *out);

// The same with a value beside each key.
void mergePairs(int na, const int *aKeys, const int *aValues, int nb, const int *bKeys, const int *bValues,
                int *keysOut, int *valuesOut);

// Every pair (i, j) with a[i] == b[j], in order of i, then j: returns their number and writes the
// first min(number, capacity) to aIndices and bIndices (which may be null when capacity is 0).
long long innerJoin(int na, const int *a, int nb, const int *b, long long capacity, int *aIndices, int *bIndices);

}  // namespace CPU
}  // namespace StreamCompaction

#include <stream_compaction/reference/merge.h>

#include <stdexcept>

namespace StreamCompaction {
namespace CPU {

// The walk both bounds share: a needle's bound is the haystack items passed when it is reached,
// passing the items below it (lower) or not above it (upper).
template <bool Upper>
static void bounds(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack,
                   const char *name) {
    Common::checkHostArgs(name, nNeedles, indices, needles);
    Common::checkHostArgs(name, nNeedles > 0 ? nHaystack : 0, indices, haystack);
    timer().startCpuTimer();
    int j = 0;
    for (int i = 0; i < nNeedles; ++i) {
        while (j < nHaystack && (Upper ? haystack[j] <= needles[i] : haystack[j] < needles[i])) ++j;
        indices[i] = j;
    }
    timer().endCpuTimer();
}

void lowerBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack) {
    bounds<false>(nNeedles, indices, needles, nHaystack, haystack, "CPU::lowerBound");
}

void upperBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack) {
    bounds<true>(nNeedles, indices, needles, nHaystack, haystack, "CPU::upperBound");
}

// The merge both forms share: emit(from_a, index) for each output in order.
template <class Emit>
static void merge(int na, const int *a, int nb, const int *b, Emit emit) {
    int i = 0, j = 0;
    while (i < na || j < nb) {
        const bool fromA = j >= nb || (i < na && !(b[j] < a[i]));  // ties: a first
        emit(fromA, fromA ? i++ : j++);
    }
}

void mergeKeys(int na, const int *a, int nb, const int *b, int *out) {
    Common::checkHostArgs("CPU::mergeKeys", na, out, a);
    Common::checkHostArgs("CPU::mergeKeys", nb, out, b);
    timer().startCpuTimer();
    int k = 0;
    merge(na, a, nb, b, [&](bool fromA, int index) { out[k++] = fromA ? a[index] : b[index]; });
    timer().endCpuTimer();
}

void mergePairs(int na, const int *aKeys, const int *aValues, int nb, const int *bKeys, const int *bValues,
                int *keysOut, int *valuesOut) {
    Common::checkHostArgs("CPU::mergePairs", na, keysOut, aKeys);
    Common::checkHostArgs("CPU::mergePairs", na, valuesOut, aValues);
    Common::checkHostArgs("CPU::mergePairs", nb, keysOut, bKeys);
    Common::checkHostArgs("CPU::mergePairs", nb, valuesOut, bValues);
    timer().startCpuTimer();
    int k = 0;
    merge(na, aKeys, nb, bKeys, [&](bool fromA, int index) {
        keysOut[k] = fromA ? aKeys[index] : bKeys[index];
        valuesOut[k++] = fromA ? aValues[index] : bValues[index];
    });
    timer().endCpuTimer();
}

long long innerJoin(int na, const int *a, int nb, const int *b, long long capacity, int *aIndices, int *bIndices) {
    Common::checkHostArgs("CPU::innerJoin", na, a, a);
    Common::checkHostArgs("CPU::innerJoin", nb, b, b);
    if (capacity < 0 || (capacity > 0 && (aIndices == nullptr || bIndices == nullptr)))
        throw std::invalid_argument("CPU::innerJoin: needs capacity >= 0 and outputs for it");
    timer().startCpuTimer();
    // Runs of equal keys: a's run [i, iEnd) against b's [j, jEnd) when the keys are equal.
    long long pairs = 0, written = 0;
    int i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j]) ++i;
        else if (b[j] < a[i]) ++j;
        else {
            int iEnd = i, jEnd = j;
            while (iEnd < na && a[iEnd] == a[i]) ++iEnd;
            while (jEnd < nb && b[jEnd] == b[j]) ++jEnd;
            for (int x = i; x < iEnd && written < capacity; ++x)
                for (int y = j; y < jEnd && written < capacity; ++y, ++written) {
                    aIndices[written] = x;
                    bIndices[written] = y;
                }
            pairs += static_cast<long long>(iEnd - i) * (jEnd - j);
            i = iEnd;
            j = jEnd;
        }
    }
    timer().endCpuTimer();
    return pairs;
}

}  // namespace CPU
}  // namespace StreamCompaction

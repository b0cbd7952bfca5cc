#include <stream_compaction/merge.h>

#include <stream_compaction/device/join.cuh>
#include <stream_compaction/device/merge.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <cstddef>
#include <stdexcept>

namespace StreamCompaction {
namespace Merge {

using StreamCompaction::Common::PerformanceTimer;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

static void bounds(const char *name, Bound bound, int nNeedles, int *indices, const int *needles, int nHaystack,
                   const int *haystack) {
    Common::checkHostArgs(name, nNeedles, indices, needles);
    Common::checkHostArgs(name, nNeedles > 0 ? nHaystack : 0, indices, haystack);
    if (nNeedles == 0) return;
    DeviceBuffer<int> d_needles = DeviceBuffer<int>::from_host(needles, nNeedles);
    DeviceBuffer<int> d_haystack = DeviceBuffer<int>::from_host(haystack, nHaystack), d_indices(nNeedles);
    Common::timeGpu(timer(), [&] {
        sorted_search(d_needles.get(), nNeedles, d_haystack.get(), nHaystack, d_indices.get(), bound, Less{},
                      course_environment());
    });
    d_indices.copy_to_host(indices, nNeedles);
}

void lowerBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack) {
    bounds("Merge::lowerBound", Bound::Lower, nNeedles, indices, needles, nHaystack, haystack);
}

void upperBound(int nNeedles, int *indices, const int *needles, int nHaystack, const int *haystack) {
    bounds("Merge::upperBound", Bound::Upper, nNeedles, indices, needles, nHaystack, haystack);
}

void mergeKeys(int na, const int *a, int nb, const int *b, int *out) {
    Common::checkHostArgs("Merge::mergeKeys", na, out, a);
    Common::checkHostArgs("Merge::mergeKeys", nb, out, b);
    const std::size_t n = static_cast<std::size_t>(na) + nb;
    DeviceBuffer<int> d_a = DeviceBuffer<int>::from_host(a, na), d_b = DeviceBuffer<int>::from_host(b, nb), d_out(n);
    Common::timeGpu(timer(), [&] { merge_keys(d_a.get(), na, d_b.get(), nb, d_out.get(), Less{},
                                              course_environment()); });
    d_out.copy_to_host(out, n);
}

void mergePairs(int na, const int *aKeys, const int *aValues, int nb, const int *bKeys, const int *bValues,
                int *keysOut, int *valuesOut) {
    const char *name = "Merge::mergePairs";
    Common::checkHostArgs(name, na, keysOut, aKeys);
    Common::checkHostArgs(name, na, valuesOut, aValues);
    Common::checkHostArgs(name, nb, keysOut, bKeys);
    Common::checkHostArgs(name, nb, valuesOut, bValues);
    const std::size_t n = static_cast<std::size_t>(na) + nb;
    DeviceBuffer<int> d_a_keys = DeviceBuffer<int>::from_host(aKeys, na);
    DeviceBuffer<int> d_a_values = DeviceBuffer<int>::from_host(aValues, na);
    DeviceBuffer<int> d_b_keys = DeviceBuffer<int>::from_host(bKeys, nb);
    DeviceBuffer<int> d_b_values = DeviceBuffer<int>::from_host(bValues, nb);
    DeviceBuffer<int> d_keys_out(n), d_values_out(n);
    Common::timeGpu(timer(), [&] {
        merge_pairs(d_a_keys.get(), d_a_values.get(), na, d_b_keys.get(), d_b_values.get(), nb, d_keys_out.get(),
                    d_values_out.get(), Less{}, course_environment());
    });
    d_keys_out.copy_to_host(keysOut, n);
    d_values_out.copy_to_host(valuesOut, n);
}

// Timed: the sortedness check and count (inner_join_size), the output's allocation, and the join.
long long innerJoin(int na, const int *a, int nb, const int *b, long long capacity, int *aIndices, int *bIndices) {
    const char *name = "Merge::innerJoin";
    Common::checkHostArgs(name, na, a, a);
    Common::checkHostArgs(name, nb, b, b);
    if (capacity < 0 || (capacity > 0 && (aIndices == nullptr || bIndices == nullptr)))
        throw std::invalid_argument("Merge::innerJoin: needs capacity >= 0 and outputs for it");
    DeviceBuffer<int> d_a = DeviceBuffer<int>::from_host(a, na), d_b = DeviceBuffer<int>::from_host(b, nb);
    DeviceBuffer<char> temp(inner_join_temp_bytes(na, nb));
    DeviceBuffer<std::size_t> d_pairs(1);
    DeviceBuffer<int> d_a_indices, d_b_indices;
    std::size_t pairs = 0, written = 0;
    Common::timeGpu(timer(), [&] {
        pairs = inner_join_size(d_a.get(), na, d_b.get(), nb, temp.get(), temp.bytes(), course_environment());
        written = pairs < static_cast<std::size_t>(capacity) ? pairs : static_cast<std::size_t>(capacity);
        d_a_indices = DeviceBuffer<int>(written);
        d_b_indices = DeviceBuffer<int>(written);
        inner_join(d_a.get(), na, d_b.get(), nb, d_a_indices.get(), d_b_indices.get(), written, d_pairs.get(),
                   temp.get(), temp.bytes(), course_environment());
    });
    d_a_indices.copy_to_host(aIndices, written);
    d_b_indices.copy_to_host(bIndices, written);
    return static_cast<long long>(pairs);
}

}  // namespace Merge
}  // namespace StreamCompaction

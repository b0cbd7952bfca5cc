#pragma once
// How the benchmark programs check what an implementation computed: its outputs and count are
// poisoned (every byte kPoisonByte) before a checked run, whose whole output and count are then
// compared with a reference computed on the host. The NVBench programs poison before the timed runs
// and check the last one (bench/nvbench/check.cuh); sc_dist_bench's scan and compaction make one
// more run after theirs, on outputs poisoned by device_check.h's poison. Poisoned, an output the
// run leaves unwritten, in whole or in part, cannot match; compared in full, an output wrong
// anywhere fails, not only one wrong at its end. Plain C++: tests/cpu/bench_check_test.cpp tests it.
#include <stream_compaction/support/reduction.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace bench {

// The byte every poisoned output holds. 0xA5A5A5A5 as int is negative: no count, sum or maximum
// of the benchmarks' inputs. As float or double it is a tiny negative number, which the relative
// comparison (agrees) rejects where 0 is expected.
constexpr int kPoisonByte = 0xA5;

// A T of poisoned bytes: what a count kept on the host is set to before a checked run.
template <class T>
T poison_value() {
    static_assert(std::is_trivially_copyable_v<T>);
    unsigned char bytes[sizeof(T)];
    std::memset(bytes, kPoisonByte, sizeof bytes);
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

// What a checked run must leave: its output's elements and, for a compaction or a partition, its
// count.
template <class T>
struct Expected {
    std::vector<T> values;
    std::optional<std::size_t> count;  // none: the operation has no count (a copy, a scan)
};

// ---- comparisons ----

// Whether `got` passes for `expected`: equal for integers (and structs with ==); for floating types
// within `relative` of |expected| (0: equal). So NaN never passes, nor anything but 0 where 0 is
// expected, as at the start of every exclusive scan.
template <class T>
bool agrees(const T &got, const T &expected, double relative) {
    if constexpr (std::is_floating_point_v<T>)
        return std::fabs(double(got) - double(expected)) <= relative * std::fabs(double(expected));
    else
        return got == expected;
}

// The index of the first element where got[0, n) and expected[0, n) disagree; n when none does.
template <class T>
std::size_t first_mismatch(const T *got, const T *expected, std::size_t n, double relative = 0) {
    std::size_t i = 0;
    while (i < n && agrees(got[i], expected[i], relative)) ++i;
    return i;
}

// A value as the mismatch messages show it.
inline std::string describe(const StreamCompaction::MaxSegmentSum &segment) {
    return "sum " + std::to_string(segment.sum) + " over [" + std::to_string(segment.begin) + ", " +
           std::to_string(segment.end) + ")";
}

template <class T>
std::string describe(const T &value) {
    if constexpr (std::is_floating_point_v<T>) {
        char text[32];
        std::snprintf(text, sizeof text, "%.17g", double(value));
        return text;
    } else {
        return std::to_string(value);
    }
}

// "element i of n: got x, expected y".
template <class T>
std::string element_mismatch(std::size_t index, std::size_t n, const T &got, const T &expected) {
    return "element " + std::to_string(index) + " of " + std::to_string(n) + ": got " + describe(got) +
           ", expected " + describe(expected);
}

// "" when got[0, n) agrees with expected[0, n) element by element, else the first element that does not.
template <class T>
std::string elements_mismatch(const T *got, const T *expected, std::size_t n, double relative = 0) {
    const std::size_t i = first_mismatch(got, expected, n, relative);
    return i == n ? "" : element_mismatch(i, n, got[i], expected[i]);
}

// "" when a count is the expected one, else "count x, expected y". Counts are read as long long,
// so that a poisoned one (int or std::size_t) shows as the negative number it is.
inline std::string count_mismatch(long long got, std::size_t expected) {
    if (got >= 0 && static_cast<std::size_t>(got) == expected) return "";
    return "count " + std::to_string(got) + ", expected " + std::to_string(expected);
}

// "" when a single result (a reduction's) is the expected one, else "got x, expected y".
template <class T>
std::string value_mismatch(const T &got, const T &expected) {
    return agrees(got, expected, 0) ? "" : "got " + describe(got) + ", expected " + describe(expected);
}

// The line on stderr for a failed check, before sc_dist_bench marks its row WRONG:
// "warning: <implementation> <operation>, <point>: <mismatch>".
inline void warn_mismatch(const std::string &implementation, const std::string &operation, const std::string &point,
                          const std::string &mismatch) {
    std::fprintf(stderr, "warning: %s %s, %s: %s\n", implementation.c_str(), operation.c_str(), point.c_str(),
                 mismatch.c_str());
}

// ---- CPU references ----

// out[i] = init + in[0] + ... + in[i - 1] for i in [0, n), summed as Sum and written as Out; returns
// init + in[0] + ... + in[n - 1], where a scan of the items that follow starts. Sum = unsigned: int
// sums wrap modulo 2^32, as the GPU's do; long long: integer-valued items of any type, exactly.
template <class Sum, class In, class Out>
Sum exclusive_sum(const In *in, std::size_t n, Out *out, Sum init = Sum{}) {
    Sum sum = init;
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = static_cast<Out>(sum);
        sum += static_cast<Sum>(in[i]);
    }
    return sum;
}

// A compaction of in[0, n): the items `keep` accepts, in order, and their count.
template <class T, class Keep>
Expected<T> selected(const T *in, std::size_t n, Keep keep) {
    Expected<T> expected;
    for (std::size_t i = 0; i < n; ++i)
        if (keep(in[i])) expected.values.push_back(in[i]);
    expected.count = expected.values.size();
    return expected;
}

// Where a partition puts its falses after its trues: in their input order (stable_partition), or
// reversed (CUB's DevicePartition::If and partition: the i-th false of the input at out[n - 1 - i]).
enum class Falses { InOrder, Reversed };

// A partition of in[0, n): the items `is_true` accepts in order, then the others as `falses` says;
// the count is the trues'.
template <class T, class Pred>
Expected<T> partitioned(const T *in, std::size_t n, Pred is_true, Falses falses) {
    Expected<T> expected;
    expected.values.reserve(n);
    std::vector<T> rest;
    for (std::size_t i = 0; i < n; ++i) (is_true(in[i]) ? expected.values : rest).push_back(in[i]);
    expected.count = expected.values.size();
    if (falses == Falses::Reversed)
        expected.values.insert(expected.values.end(), rest.rbegin(), rest.rend());
    else
        expected.values.insert(expected.values.end(), rest.begin(), rest.end());
    return expected;
}

}  // namespace bench

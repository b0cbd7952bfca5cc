#pragma once
// The reductions' plain-C++ vocabulary, shared by the course unit (reduce.h), the device API
// (device/reduce.cuh), the CPU reference (cpu.h) and the harness: the strategies, and the result
// of the maximum segment sum.
#include <cstddef>

namespace StreamCompaction {

// How a reduction combines n values (docs/usage.md, "Reductions"):
//   Tree     one level per launch, pairs combined: ceil(log2 n) launches, the textbook version.
//   Group    each launch combines groups of one block's size: ceil(log_B n) launches.
//   Chunked  one launch on a fixed grid sized to the GPU: each thread folds its share
//            sequentially (Brent), blocks combine their threads, and the last block to finish
//            combines the blocks' partials in block order.
//   Atomics  the chunked grid and block fold, blocks combined by one atomic each into the
//            result, which a first launch sets to the identity. Sum, Min, Max, BitAnd, BitOr only.
enum class ReduceStrategy { Tree, Group, Chunked, Atomics };

inline constexpr ReduceStrategy kReduceStrategies[] = {ReduceStrategy::Tree, ReduceStrategy::Group,
                                                       ReduceStrategy::Chunked, ReduceStrategy::Atomics};

inline const char *reduce_strategy_name(ReduceStrategy strategy) {
    switch (strategy) {
    case ReduceStrategy::Tree: return "tree";
    case ReduceStrategy::Group: return "group";
    case ReduceStrategy::Chunked: return "chunked";
    case ReduceStrategy::Atomics: return "atomics";
    }
    return "?";
}

// The maximum segment sum of an array and its segment [begin, end): the largest sum of
// consecutive elements, the empty segment (sum 0) included. Of the segments with that sum, the
// one that starts first, then the shortest. The empty segment counts as [0, 0): it wins every tie
// at 0, so an array whose maximum is 0 (all elements negative or zero, or none) gives {0, 0, 0}.
struct MaxSegmentSum {
    long long sum;
    std::size_t begin;
    std::size_t end;
};

inline bool operator==(const MaxSegmentSum &a, const MaxSegmentSum &b) {
    return a.sum == b.sum && a.begin == b.begin && a.end == b.end;
}
inline bool operator!=(const MaxSegmentSum &a, const MaxSegmentSum &b) { return !(a == b); }

}  // namespace StreamCompaction

#pragma once
// Row lengths on SpMV Auto's decision boundary (plan_spmv, bounds in tuning/policies.h), one side or
// the other, for the CPU test of the plan and the GPU test of what Auto runs. Their numbers are
// worked out for the bounds below, and stop compiling when those change.
#include <stream_compaction/tuning/policies.h>

#include <vector>

static_assert(StreamCompaction::kVectorCsrMaxLongestOverMean == 16.0 && StreamCompaction::kVectorCsrMaxSpread == 1.0,
              "spmv_boundary.h: work the boundary matrices out again for the new bounds");

// 1039 rows of 64 nonzeros and one of `longest`: 16x the mean, 16 (1039 * 64 + longest) / 1040,
// is exactly 1039 for longest = 1039 (the longest row on the bound: vector-CSR, 32 lanes) and
// 1039.015... for 1040 (past it: merge path). Spread 0.47, no empty rows, longest under 2048.
inline std::vector<int> longestRowOnBoundary(bool vector_side) {
    std::vector<int> lengths(1039, 64);
    lengths.push_back(vector_side ? 1039 : 1040);
    return lengths;
}

// 1000 times {4, 4, 4, 4, big}: with big = 24 the mean is 8 and the standard deviation 8, a
// coefficient of variation of exactly 1 (on the bound: vector-CSR, 8 lanes); with big = 25 it is
// 1.02 (merge path). The longest row is 3x the mean, no row is empty.
inline std::vector<int> spreadOnBoundary(bool vector_side) {
    std::vector<int> lengths;
    for (int group = 0; group < 1000; ++group) lengths.insert(lengths.end(), {4, 4, 4, 4, vector_side ? 24 : 25});
    return lengths;
}

#pragma once
// Row lengths on SpMV Auto's decision boundary (plan_spmv, bounds in tuning/policies.h), one side or
// the other, for the CPU test of the plan and the GPU test of what Auto runs. Their numbers are
// worked out for the bounds below, and stop compiling when those change.
#include <stream_compaction/tuning/policies.h>

#include <vector>

static_assert(StreamCompaction::kVectorCsrMaxRowSteps == 128 && StreamCompaction::kVectorCsrMaxNonzeros == 1LL << 22,
              "spmv_boundary.h: work the boundary matrices out again for the new bounds");

// 2000 rows of 16 nonzeros and one of `longest`: the mean, about 18.04, takes 32 lanes, and the
// longest row 4096 / 32 = 128 steps (on the bound: vector-CSR) or, one longer, 129 (merge path).
inline std::vector<int> longestRowStepsOnBoundary(bool vector_side) {
    std::vector<int> lengths(2000, 16);
    lengths.push_back(vector_side ? 4096 : 4097);
    return lengths;
}

// 2^20 rows of 4 nonzeros: 2^22 in all (on the bound: vector-CSR, 4 lanes); one more row of one
// nonzero is past it (merge path), the mean still taking 4 lanes.
inline std::vector<int> nonzerosOnBoundary(bool vector_side) {
    std::vector<int> lengths(1 << 20, 4);
    if (!vector_side) lengths.push_back(1);
    return lengths;
}

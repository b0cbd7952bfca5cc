#pragma once
// SpMV's algorithms by name, and how Auto picks one for a matrix (plain C++, no CUDA: the CPU tests
// check the rule on hand-made row offsets). The row-length statistics are computed once per
// matrix, when its Spmv is made; plan_spmv turns them into an algorithm and, for vector-CSR, the
// lanes per row. The bounds of the rule, and why: tuning/policies.h (kVectorCsrMax...).
#include <cstddef>

namespace StreamCompaction {

// Auto is resolved when the Spmv is made, to VectorCsr or MergePath (Spmv::chosen()).
enum class SpmvAlgorithm { Flat, MergePath, CusparseCsrAlg1, CusparseCsrAlg2, VectorCsr, Auto };

// "flat", "merge-path", "cusparse-alg1", "cusparse-alg2", "vector-csr", "auto"
const char *spmv_algorithm_name(SpmvAlgorithm algorithm);

// The lengths of a matrix's rows. All zero for a matrix without rows.
struct SpmvRowStats {
    long long rows = 0;
    long long nnz = 0;
    double mean = 0;                // nnz / rows
    double standard_deviation = 0;  // of the row lengths (the population's: over every row)
    long long longest = 0;
    long long empty_rows = 0;

    // standard_deviation / mean; 0 when there are no nonzeros.
    double coefficient_of_variation() const { return mean > 0 ? standard_deviation / mean : 0; }
};

// The statistics of the rows that `count` CSR row offsets delimit (rows = count - 1; count 0 or 1:
// no rows). The offsets must be non-decreasing (validate_csr checks it). O(rows) time, two passes.
template <class Offset>
SpmvRowStats row_length_stats(const Offset *row_offsets, std::size_t count);

// An algorithm and, for VectorCsr, the width of the sub-warp that reads each row: a power of two in
// [2, 32]. 0 lanes: for VectorCsr, sized from the matrix (vector_csr_lanes); for the others, unused.
struct SpmvPlan {
    SpmvAlgorithm algorithm;
    int lanes_per_row = 0;
};

// The smallest power of two at least the mean row length, within [2, 32]: every lane of a sub-warp
// gets about one nonzero of a row of the mean length per step, and a full warp is the widest.
int vector_csr_lanes(double mean_row_length);

// Auto's choice: VectorCsr with vector_csr_lanes(mean) lanes when its longest row takes at most
// kVectorCsrMaxRowSteps steps of those lanes and it has at most kVectorCsrMaxNonzeros nonzeros
// (tuning/policies.h says why), else MergePath. A matrix without nonzeros takes VectorCsr: there is
// nothing to balance, and it needs no temporary storage.
SpmvPlan plan_spmv(const SpmvRowStats &stats);

}  // namespace StreamCompaction

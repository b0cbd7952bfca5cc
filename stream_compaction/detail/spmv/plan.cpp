#include <stream_compaction/detail/spmv/plan.h>
#include <stream_compaction/tuning/policies.h>

#include <cmath>
#include <cstdint>

namespace StreamCompaction {

const char *spmv_algorithm_name(SpmvAlgorithm algorithm) {
    switch (algorithm) {
    case SpmvAlgorithm::Flat: return "flat";
    case SpmvAlgorithm::MergePath: return "merge-path";
    case SpmvAlgorithm::CusparseCsrAlg1: return "cusparse-alg1";
    case SpmvAlgorithm::CusparseCsrAlg2: return "cusparse-alg2";
    case SpmvAlgorithm::VectorCsr: return "vector-csr";
    case SpmvAlgorithm::Auto: return "auto";
    }
    return "unknown";
}

template <class Offset>
SpmvRowStats row_length_stats(const Offset *row_offsets, std::size_t count) {
    SpmvRowStats stats;
    if (count < 2) return stats;
    stats.rows = static_cast<long long>(count - 1);
    stats.nnz = static_cast<long long>(row_offsets[count - 1] - row_offsets[0]);
    stats.mean = static_cast<double>(stats.nnz) / static_cast<double>(stats.rows);
    // Deviations from the mean, not the sum of squares less the squared sum: no cancellation.
    double squared_deviations = 0;
    for (std::size_t r = 0; r + 1 < count; ++r) {
        const long long length = static_cast<long long>(row_offsets[r + 1] - row_offsets[r]);
        const double deviation = static_cast<double>(length) - stats.mean;
        squared_deviations += deviation * deviation;
        if (length > stats.longest) stats.longest = length;
        if (length == 0) ++stats.empty_rows;
    }
    stats.standard_deviation = std::sqrt(squared_deviations / static_cast<double>(stats.rows));
    return stats;
}

template SpmvRowStats row_length_stats<int>(const int *, std::size_t);
template SpmvRowStats row_length_stats<std::int64_t>(const std::int64_t *, std::size_t);

int vector_csr_lanes(double mean_row_length) {
    int lanes = 2;
    while (lanes < 32 && lanes < mean_row_length) lanes *= 2;
    return lanes;
}

SpmvPlan plan_spmv(const SpmvRowStats &stats) {
    const SpmvPlan vector_csr{SpmvAlgorithm::VectorCsr, vector_csr_lanes(stats.mean)};
    if (stats.nnz == 0) return vector_csr;
    const long long lanes = vector_csr.lanes_per_row;
    const long long longest_row_steps = (stats.longest + lanes - 1) / lanes;
    const bool vector_csr_pays = longest_row_steps <= kVectorCsrMaxRowSteps && stats.nnz <= kVectorCsrMaxNonzeros;
    return vector_csr_pays ? vector_csr : SpmvPlan{SpmvAlgorithm::MergePath};
}

}  // namespace StreamCompaction

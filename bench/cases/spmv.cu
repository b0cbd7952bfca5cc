// sc_bench's SpMV part: y = A x in float and double for every .mtx in the matrix directory and
// three generated matrices, the project's flat, merge-path and vector-CSR algorithms and Auto
// against cuSPARSE's CSR ALG1 and ALG2 (both anchors: the ratio is to the faster). Auto's row is
// named for what it chose ("auto:vector_csr/8", "auto:merge_path"); vector_csr runs at the lanes
// planned for the matrix, printed on stderr with the row-length statistics Auto decided on.
//
// Bytes counted: what an ideal CSR SpMV moves, each array once: the values, column indices and row
// offsets, x and y. Flops: 2 per nonzero.
//
// L2: no rotation. A matrix that fits in L2 (every shared SuiteSparse matrix fits in an H100's
// 50 MB) stays there from one run to the next. That is what a solver multiplying by the same matrix
// again and again sees, and every algorithm, cuSPARSE included, runs under it, so the ratios are
// fair; its GB/s can exceed the DRAM bandwidth. Such runs take ~10 us, about a launch's latency, so
// below kRotateBelowBytes of data a timed run is kSmallBatch multiplications back to back and the
// time reported is per multiplication; the larger matrices are timed one multiplication at a time.
// Those small matrices also get a row of operation spmv_<type>_graph: the same batch captured in
// one CUDA graph and replayed, the kernels' time without the launches' (us and cuSPARSE alike).
#include "cases.h"
#include "spmv_inputs.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/detail/spmv/plan.h>
#include <stream_compaction/tuning/call_tuning.h>
#include <stream_compaction/tuning/policies.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <type_traits>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::CsrMatrix;
using SC::DeviceBuffer;
using SC::SpmvAlgorithm;

constexpr int kSmallBatch = 10;

struct SpmvImpl {
    const char *name;
    SpmvAlgorithm algorithm;
    bool anchor;
};

// The anchors first, as the report needs them.
constexpr SpmvImpl kImpls[] = {{"cusparse_alg1", SpmvAlgorithm::CusparseCsrAlg1, true},
                               {"cusparse_alg2", SpmvAlgorithm::CusparseCsrAlg2, true},
                               {"flat", SpmvAlgorithm::Flat, false},
                               {"merge_path", SpmvAlgorithm::MergePath, false},
                               {"vector_csr", SpmvAlgorithm::VectorCsr, false},
                               {"auto", SpmvAlgorithm::Auto, false}};

// The block size each of ours runs at, made and called with `tuning`: flat is a single-pass scan
// (scan.cuh), merge path the segmented reduction's kernel (segmented_scan.cuh), vector-CSR a
// compiled constant.
int block_size_of(SpmvAlgorithm algorithm, const SC::Tuning &tuning) {
    switch (algorithm) {
    case SpmvAlgorithm::Flat: return SC::single_pass_threads(tuning);
    case SpmvAlgorithm::MergePath: return SC::segmented_threads(tuning);
    case SpmvAlgorithm::VectorCsr: return SC::kVectorCsrThreads;
    default: return 0;
    }
}

// The row's implementation: the impl's name; for Auto, "auto:" and the name of what it chose, with
// vector-CSR's lanes ("auto:vector_csr/8").
template <class V>
std::string row_name(const SpmvImpl &impl, const SC::Spmv<V> &multiply) {
    if (impl.algorithm != SpmvAlgorithm::Auto) return impl.name;
    std::string name = "auto:";
    for (const SpmvImpl &chosen : kImpls)
        if (chosen.algorithm == multiply.chosen()) name += chosen.name;
    if (multiply.lanes_per_row() != 0) name += "/" + std::to_string(multiply.lanes_per_row());
    return name;
}

// One stderr line per matrix: the row-length statistics Auto decides on, and its decision.
void print_plan(const std::string &name, const CsrMatrix<double> &matrix) {
    const SC::SpmvRowStats stats = SC::row_length_stats(matrix.row_offsets.data(), matrix.row_offsets.size());
    const SC::SpmvPlan plan = SC::plan_spmv(stats);
    std::fprintf(stderr,
                 "[spmv] %s: %lld rows, mean row %.2f, spread (cv) %.2f, longest %lld, %lld empty: auto chooses %s"
                 " (%d lanes); vector_csr runs with %d lanes\n",
                 name.c_str(), stats.rows, stats.mean, stats.coefficient_of_variation(), stats.longest,
                 stats.empty_rows, SC::spmv_algorithm_name(plan.algorithm), plan.lanes_per_row,
                 SC::vector_csr_lanes(stats.mean));
}

// Every .mtx file of the matrix directory by name, then the generated matrices.
std::vector<MatrixSource> matrix_sources(const Options &options) {
    return spmv_matrix_sources(matrix_directory(options));
}

// max |got - expected| within `tolerance` of max |expected|; a NaN anywhere fails.
template <class V>
bool close_in_max_norm(const std::vector<V> &got, const std::vector<V> &expected, double tolerance) {
    double largest = 0, worst_error = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double error = std::fabs(double(got[i]) - double(expected[i]));
        if (std::isnan(error)) return false;
        largest = std::max(largest, std::fabs(double(expected[i])));
        worst_error = std::max(worst_error, error);
    }
    return worst_error <= tolerance * largest;
}

// Every algorithm on one matrix of V: cuSPARSE ALG1's y is the reference for the others.
template <class V>
void run_matrix(const std::string &name, const CsrMatrix<V> &host, const Options &options, const Sink &sink,
                cudaStream_t stream) {
    const SC::DeviceCsr<V> matrix(host);
    const std::vector<V> x_host = spmv_vector<V>(host.cols);
    const DeviceBuffer<V> x = DeviceBuffer<V>::from_host(x_host.data(), x_host.size());
    const DeviceBuffer<V> y(host.rows);
    // The uploads above ran on the legacy default stream, which does not order the non-blocking one.
    SC_CUDA_CHECK(cudaDeviceSynchronize());

    const std::size_t nnz = matrix.nnz();
    const double bytes = double(nnz) * (sizeof(V) + sizeof(int)) + (host.rows + 1.0) * sizeof(int) +
                         double(host.cols) * sizeof(V) + double(host.rows) * sizeof(V);
    const int batch = bytes < kRotateBelowBytes ? kSmallBatch : 1;
    const double tolerance = std::is_same_v<V, float> ? 1e-4 : 1e-10;
    const char *operation = std::is_same_v<V, float> ? "spmv_float" : "spmv_double";
    Rotation one_copy(1, copy_stride(1));  // run(offset) ignores the offset: see the L2 note above
    std::vector<V> reference, got(host.rows);
    const SC::CallEnvironment env(stream);  // of ours: the stream, at the library's default tuning
    for (const SpmvImpl &impl : kImpls) {
        SC::Spmv<V> multiply(matrix, impl.algorithm, env);
        // Storage made once, as cuSPARSE's buffer is: the timing is the multiplication alone.
        DeviceBuffer<char> temp(multiply.temp_bytes());
        // beta = 0: y is only written. The first call also makes cuSPARSE's buffer (and ALG2's analysis).
        const auto run = [&] { multiply(V(1), x.get(), V(0), y.get(), temp.get(), temp.bytes(), env); };
        SC_CUDA_CHECK(cudaMemsetAsync(y.get(), 0xFF, y.bytes(), stream));  // NaN: an unwritten row fails
        run();
        SC_CUDA_CHECK(cudaMemcpyAsync(got.data(), y.get(), y.bytes(), cudaMemcpyDeviceToHost, stream));
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        if (reference.empty()) reference = got;
        const bool ok = close_in_max_norm(got, reference, tolerance);
        if (!ok)
            std::fprintf(stderr, "warning: %s %s on %s: y differs from cuSPARSE ALG1's\n",
                         row_name(impl, multiply).c_str(), operation, name.c_str());
        const double ms = median_ms(stream, one_copy, options.runs, [&](std::size_t) {
                              for (int i = 0; i < batch; ++i) run();
                          }) / batch;
        const int block_size = block_size_of(multiply.chosen(), env.tuning);
        sink(Measurement{operation, row_name(impl, multiply), {nnz, std::to_string(nnz)}, name, ms, bytes, block_size,
                         ok, impl.anchor, 2.0 * nnz});
        if (batch == 1) continue;
        // The small matrices again, kernels alone: the batch captured in one graph (launch costs gone).
        const double kernel_ms = median_graph_ms(stream, options.runs, batch, run);
        sink(Measurement{operation + std::string("_graph"), row_name(impl, multiply), {nnz, std::to_string(nnz)},
                         name, kernel_ms, bytes, block_size, ok, impl.anchor, 2.0 * nnz});
    }
}

}  // namespace

std::string matrix_directory(const Options &options) {
    const char *from_environment = std::getenv("SC_MATRIX_DIR");
    const std::string candidates[] = {options.matrix_dir, from_environment ? from_environment : "",
                                      ".data/matrices", "../shared/data/matrices"};
    for (const std::string &dir : candidates) {
        std::error_code error;
        if (!dir.empty() && std::filesystem::is_directory(dir, error)) return dir;
    }
    std::fprintf(stderr, "note: no matrix directory (--matrix-dir, $SC_MATRIX_DIR, .data/matrices, "
                         "../shared/data/matrices): SpMV and BFS run on generated inputs only\n");
    return "";
}


void run_spmv(const Options &options, const Sink &sink) {
    const Stream stream;
    const std::vector<MatrixSource> sources = matrix_sources(options);
    std::size_t step = 0;
    const auto progress = [&](const std::string &name, const char *type) {
        std::fprintf(stderr, "[spmv %zu/%zu] %s %s\n", ++step, 2 * sources.size(), name.c_str(), type);
    };
    for (const MatrixSource &source : sources) {
        CsrMatrix<double> matrix;
        try {
            matrix = source.make();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "warning: SpMV skips %s: %s\n", source.name.c_str(), e.what());
            step += 2;
            continue;
        }
        print_plan(source.name, matrix);
        progress(source.name, "float");
        run_matrix(source.name, SC::convert_values<float>(matrix), options, sink, stream.get());
        progress(source.name, "double");
        run_matrix(source.name, matrix, options, sink, stream.get());
    }
}

}  // namespace bench

// The SpMV group of the harness: a generated matrix, or the Matrix Market file of --matrix.
#include <stream_compaction/common.h>
#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;

// y = A x by `algorithm`, compared with a double-precision CPU product: within 1e-5 (float) or
// 1e-12 (double) of each row's sum of |a x|. Auto prints what it chose for the matrix.
template <class V>
static bool checkSpmv(const SC::CsrMatrix<V> &host, SC::SpmvAlgorithm algorithm, const std::vector<V> &x,
                      const std::vector<double> &expected, const std::vector<double> &magnitude) {
    static SC::Common::PerformanceTimer timer;
    const SC::DeviceCsr<V> a(host);
    SC::DeviceBuffer<V> d_x = SC::DeviceBuffer<V>::from_host(x.data(), x.size());
    SC::DeviceBuffer<V> d_y(host.rows);
    // The harness's --block-size reaches the plan and the calls through the course environment.
    const SC::CallEnvironment env = SC::course_environment();
    SC::Spmv<V> multiply(a, algorithm, env);
    if (algorithm == SC::SpmvAlgorithm::Auto || algorithm == SC::SpmvAlgorithm::VectorCsr)
        std::printf("    runs %s, %d lanes per row\n", SC::spmv_algorithm_name(multiply.chosen()),
                    multiply.lanes_per_row());
    multiply(V(1), d_x.get(), V(0), d_y.get(), env);  // untimed first call: loads the kernels, prepares cuSPARSE
    d_y.fill_bytes(0xFF);
    SC::Common::timeGpu(timer, [&] { multiply(V(1), d_x.get(), V(0), d_y.get(), env); });
    printElapsedTime(timer.getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
    std::vector<V> y(host.rows);
    d_y.copy_to_host(y.data(), y.size());
    const double tolerance = std::is_same_v<V, float> ? 1e-5 : 1e-12;
    for (int r = 0; r < host.rows; ++r) {
        const double error = std::fabs(double(y[r]) - expected[r]) / (magnitude[r] + 1e-30);
        if (!(double(y[r]) == expected[r] || error <= tolerance)) {
            std::printf("    y[%d] = %.9g, expected %.9g (relative error %.3g)\n", r, double(y[r]), expected[r], error);
            std::printf("    FAIL VALUE \n");
            return false;
        }
    }
    std::printf("    passed \n");
    return true;
}

template <class V>
static void spmvTestsOf(Harness &h, const SC::CsrMatrix<double> &matrix, std::mt19937 &rng) {
    const SC::CsrMatrix<V> host = SC::convert_values<V>(matrix);
    std::uniform_real_distribution<double> unit(-1, 1);
    std::vector<V> x(host.cols);
    for (V &v : x) v = static_cast<V>(unit(rng));
    std::vector<double> expected(host.rows), magnitude(host.rows);
    for (int r = 0; r < host.rows; ++r)
        for (int k = host.row_offsets[r]; k < host.row_offsets[r + 1]; ++k) {
            const double product = double(host.values[k]) * double(x[host.column_indices[k]]);
            expected[r] += product;
            magnitude[r] += std::fabs(product);
        }
    for (const SC::SpmvAlgorithm algorithm :
         {SC::SpmvAlgorithm::Flat, SC::SpmvAlgorithm::MergePath, SC::SpmvAlgorithm::VectorCsr, SC::SpmvAlgorithm::Auto,
          SC::SpmvAlgorithm::CusparseCsrAlg1, SC::SpmvAlgorithm::CusparseCsrAlg2}) {
        const std::string desc = std::string("SpMV ") + SC::spmv_algorithm_name(algorithm) + ", " +
                                 (std::is_same_v<V, float> ? "float" : "double");
        h.gpuTest("spmv", desc.c_str(), [&] { return checkSpmv(host, algorithm, x, expected, magnitude); });
    }
}

static void spmvTests(Harness &h, std::mt19937 &rng, const std::optional<SC::CsrMatrix<double>> &fileMatrix,
               const std::string &matrixPath) {
    if (!h.selected("spmv")) return;
    std::printf("\n****************\n** SPMV TESTS **\n****************\n");
    // Reading or generating the matrix is set-up, not a test: it prints as information and counts
    // neither as passed nor failed (a file that cannot be read stopped main before any test).
    SC::CsrMatrix<double> generated;
    if (!fileMatrix && h.deviceUsable()) {  // without a device every SpMV test skips: nothing to generate
        // Power-law rows (Pareto, alpha 1.5, at least 4 per row): about 1.5 * SIZE nonzeros.
        const int rows = static_cast<int>(SIZE / 8);
        generated = SC::power_law(rows, rows, 1.5, 4, rng());
        std::printf("matrix: generated power-law, %d x %d, %zu nonzeros\n", generated.rows, generated.cols,
                    generated.nnz());
    } else if (fileMatrix) {
        std::printf("matrix: %s, %d x %d, %zu nonzeros\n", matrixPath.c_str(), fileMatrix->rows, fileMatrix->cols,
                    fileMatrix->nnz());
    }
    const SC::CsrMatrix<double> &matrix = fileMatrix ? *fileMatrix : generated;
    spmvTestsOf<float>(h, matrix, rng);
    spmvTestsOf<double>(h, matrix, rng);
}

const RegisterTests kSpmvTests(60, {"spmv"},
                    [](Harness &h, const GroupContext &c) { spmvTests(h, c.rng, c.fileMatrix, c.matrixPath); });

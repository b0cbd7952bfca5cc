// The segmented scan and SpMV groups of the harness.
#include <stream_compaction/device_buffer.h>
#include <stream_compaction/matrix_generators.h>
#include <stream_compaction/matrix_market.h>
#include <stream_compaction/segmented.h>
#include <stream_compaction/spmv.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;

// Independent of the implementations under test: unsigned sums wrap as GPU int sums do; element 0
// always starts a segment.
static std::vector<int> referenceSegmentedScan(long long n, const int *in, const int *flags, bool exclusive) {
    std::vector<int> out(n);
    unsigned acc = 0;
    for (long long i = 0; i < n; ++i) {
        if (i == 0 || flags[i]) acc = 0;
        if (exclusive) out[i] = static_cast<int>(acc);
        acc += static_cast<unsigned>(in[i]);
        if (!exclusive) out[i] = static_cast<int>(acc);
    }
    return out;
}

void segmentedTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("segmented")) return;
    std::printf("\n**************************\n** SEGMENTED SCAN TESTS **\n**************************\n");
    std::vector<int> a(SIZE), flags(SIZE), out(SIZE);
    genArray(SIZE, a.data(), 50, rng);
    genArray(SIZE, flags.data(), 16, rng);
    for (int &f : flags) f = f == 0;  // a segment starts at about 1 element in 16
    std::printf("    values:\n");
    printArray(SIZE, a.data(), true);
    std::printf("    head flags:\n");
    printArray(SIZE, flags.data(), true);

    for (const bool pot : {true, false}) {
        const long long n = pot ? SIZE : NPOT;
        const char *size = pot ? "power-of-two" : "non-power-of-two";
        for (const bool exclusive : {true, false}) {
            const std::vector<int> expected = referenceSegmentedScan(n, a.data(), flags.data(), exclusive);
            const std::string desc = std::string(exclusive ? "segmented scan" : "segmented inclusive scan") + ", " + size;
            const auto scan = exclusive ? SC::Segmented::scan : SC::Segmented::inclusiveScan;
            h.gpuTest("segmented", desc.c_str(), [&] {
                scan(static_cast<int>(n), out.data(), a.data(), flags.data());  // untimed first call: loads the kernels
                poisonArray(n, out.data());
                scan(static_cast<int>(n), out.data(), a.data(), flags.data());
                printElapsedTime(SC::Segmented::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
                printArray(n, out.data(), true);
                return printCmpResult(n, expected.data(), out.data());
            });
        }
        // The same segments as offsets, one sum per segment.
        std::vector<int> offsets;
        for (long long i = 0; i < n; ++i)
            if (i == 0 || flags[i]) offsets.push_back(static_cast<int>(i));
        offsets.push_back(static_cast<int>(n));
        const int segments = static_cast<int>(offsets.size()) - 1;
        std::vector<int> expected(segments);
        for (int s = 0; s < segments; ++s) {
            unsigned sum = 0;
            for (int i = offsets[s]; i < offsets[s + 1]; ++i) sum += static_cast<unsigned>(a[i]);
            expected[s] = static_cast<int>(sum);
        }
        const std::string desc = std::string("segmented reduce (") + std::to_string(segments) + " segments), " + size;
        h.gpuTest("segmented", desc.c_str(), [&] {
            SC::Segmented::reduce(segments, out.data(), a.data(), offsets.data());  // untimed first call
            poisonArray(segments, out.data());
            SC::Segmented::reduce(segments, out.data(), a.data(), offsets.data());
            printElapsedTime(SC::Segmented::timer().getGpuElapsedTimeForPreviousOperation(), "(CUDA Measured)");
            printArray(segments, out.data(), true);
            return printCmpResult(segments, expected.data(), out.data());
        });
    }
}

// y = A x by `algorithm`, compared with a double-precision CPU product: within 1e-5 (float) or
// 1e-12 (double) of each row's sum of |a x|.
template <class V>
static bool checkSpmv(const SC::CsrMatrix<V> &host, SC::SpmvAlgorithm algorithm, const std::vector<V> &x,
                      const std::vector<double> &expected, const std::vector<double> &magnitude) {
    static SC::Common::PerformanceTimer timer;
    const SC::DeviceCsr<V> a(host);
    SC::DeviceBuffer<V> d_x = SC::DeviceBuffer<V>::from_host(x.data(), x.size());
    SC::DeviceBuffer<V> d_y(host.rows);
    SC::Spmv<V> multiply(a, algorithm);
    multiply(V(1), d_x.get(), V(0), d_y.get());  // untimed first call: loads the kernels, prepares cuSPARSE
    d_y.fill_bytes(0xFF);
    SC::Common::timeGpu(timer, [&] { multiply(V(1), d_x.get(), V(0), d_y.get()); });
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
    for (const SC::SpmvAlgorithm algorithm : {SC::SpmvAlgorithm::Flat, SC::SpmvAlgorithm::MergePath,
                                              SC::SpmvAlgorithm::CusparseCsrAlg1, SC::SpmvAlgorithm::CusparseCsrAlg2}) {
        const std::string desc = std::string("SpMV ") + SC::spmv_algorithm_name(algorithm) + ", " +
                                 (std::is_same_v<V, float> ? "float" : "double");
        h.gpuTest("spmv", desc.c_str(), [&] { return checkSpmv(host, algorithm, x, expected, magnitude); });
    }
}

void spmvTests(Harness &h, std::mt19937 &rng, const std::string &matrixPath) {
    if (!h.selected("spmv")) return;
    std::printf("\n****************\n** SPMV TESTS **\n****************\n");
    SC::CsrMatrix<double> matrix;
    bool loaded = false;
    if (matrixPath.empty()) {
        // Power-law rows (Pareto, alpha 1.5, at least 4 per row): about 1.5 * SIZE nonzeros.
        const int rows = static_cast<int>(SIZE / 8);
        const std::string desc = "generate power-law matrix, " + std::to_string(rows) + " rows";
        h.cpuTest("spmv", desc.c_str(), [&] {
            matrix = SC::power_law(rows, rows, 1.5, 4, rng());
            loaded = true;
            return true;
        });
    } else {
        const std::string desc = "read matrix " + matrixPath;
        h.cpuTest("spmv", desc.c_str(), [&] {
            matrix = SC::read_matrix_market(matrixPath);
            loaded = true;
            return true;
        });
    }
    if (!loaded) return;
    std::printf("    %d x %d, %zu nonzeros\n", matrix.rows, matrix.cols, matrix.nnz());
    spmvTestsOf<float>(h, matrix, rng);
    spmvTestsOf<double>(h, matrix, rng);
}

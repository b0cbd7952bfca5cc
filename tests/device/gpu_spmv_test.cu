// SpMV, y = alpha * A * x + beta * y, by every algorithm (flat, merge path, vector-CSR at every
// width and at the planned one, Auto, cuSPARSE ALG1/ALG2) in float and double, against a CPU
// reference accumulating in double: generated matrices, every shared SuiteSparse matrix, rows of
// length 0, 1 and 2^20, all-empty matrices, 1 x N and N x 1 shapes, 64-bit row offsets, rows on both
// sides of vector-CSR's switch to vector loads, matrices on each side of Auto's decision boundary;
// invalid CSR and invalid plans rejected before any kernel. GpuLarge: big matrices (sc_nvbench_spmv
// times them), and one of more than 2^31 nonzeros.
#include <gtest/gtest.h>

#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/support/call_environment.h>

#include "gpu_test_util.h"
#include "matrix_files.h"
#include "spmv_boundary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <thread>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using SC::SpmvAlgorithm;
using SC::SpmvPlan;

namespace {

constexpr int kEveryLanes[] = {2, 4, 8, 16, 32};

// "merge-path", "vector-csr", "vector-csr, 8 lanes"
std::string describe(const SpmvPlan &plan) {
    return std::string(SC::spmv_algorithm_name(plan.algorithm)) +
           (plan.lanes_per_row ? ", " + std::to_string(plan.lanes_per_row) + " lanes" : "");
}

template <class V>
std::vector<V> randomVector(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(-1, 1);
    std::vector<V> v(n);
    for (V &x : v) x = static_cast<V>(unit(rng));
    return v;
}

// y = alpha A x + beta y in double, and the magnitude |alpha| sum |a x| + |beta y| of each row.
template <class V, class Offset>
void reference(const SC::CsrMatrix<V, Offset> &a, const std::vector<V> &x, double alpha, double beta,
               const std::vector<V> &y_old, std::vector<double> &y, std::vector<double> &size) {
    y.assign(a.rows, 0);
    size.assign(a.rows, 0);
    for (int r = 0; r < a.rows; ++r) {
        double sum = 0, magnitude = 0;
        for (Offset k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
            const double product = double(a.values[k]) * double(x[a.column_indices[k]]);
            sum += product;
            magnitude += std::fabs(product);
        }
        const double old = beta == 0 ? 0 : beta * double(y_old[r]);
        y[r] = alpha * sum + old;
        size[r] = std::fabs(alpha) * magnitude + std::fabs(old);
    }
}

// Relative error at most 1e-5 (float) or 1e-12 (double) of each row's magnitude.
template <class V>
::testing::AssertionResult close(const std::vector<V> &got, const std::vector<double> &expected,
                                 const std::vector<double> &size) {
    const double tolerance = std::is_same_v<V, float> ? 1e-5 : 1e-12;
    for (std::size_t r = 0; r < got.size(); ++r) {
        const double error = std::fabs(double(got[r]) - expected[r]) / (size[r] + 1e-30);
        if (!(double(got[r]) == expected[r] || error <= tolerance))
            return ::testing::AssertionFailure() << "row " << r << ": got " << got[r] << ", expected " << expected[r]
                                                 << " (relative error " << error << ")";
    }
    return ::testing::AssertionSuccess();
}

// Every plan on one matrix at `tuning`, twice: y = 1.5 A x - 0.5 y, and y = A x over a y full of
// NaN (beta = 0 must not read it). What runs is what was asked for: Auto resolved, forced lanes kept.
template <class V, class Offset>
void checkSpmv(const SC::CsrMatrix<V, Offset> &host, const std::vector<SpmvPlan> &plans,
               const SC::Tuning &tuning = {}) {
    const SC::CallEnvironment env{nullptr, tuning};
    const SC::DeviceCsr<V, Offset> a(host);
    const std::vector<V> x = randomVector<V>(host.cols, freshSeed());
    const std::vector<V> y_old = randomVector<V>(host.rows, freshSeed());
    DeviceBuffer<V> d_x = DeviceBuffer<V>::from_host(x.data(), x.size());
    DeviceBuffer<V> d_y(host.rows);
    std::vector<double> expected, size;
    std::vector<V> got(host.rows);
    for (const SpmvPlan &plan : plans) {
        SCOPED_TRACE(describe(plan));
        SC::Spmv<V, Offset> multiply(a, plan, env);
        SCOPED_TRACE("ran " + describe({multiply.chosen(), multiply.lanes_per_row()}));
        if (plan.algorithm == SpmvAlgorithm::Auto)
            ASSERT_TRUE(multiply.chosen() == SpmvAlgorithm::VectorCsr || multiply.chosen() == SpmvAlgorithm::MergePath);
        else ASSERT_EQ(multiply.chosen(), plan.algorithm);
        if (plan.lanes_per_row != 0) ASSERT_EQ(multiply.lanes_per_row(), plan.lanes_per_row);
        if (multiply.chosen() == SpmvAlgorithm::VectorCsr) ASSERT_EQ(multiply.temp_bytes(), 0u);
        for (const bool axpby : {true, false}) {
            const double alpha = axpby ? 1.5 : 1.0, beta = axpby ? -0.5 : 0.0;
            if (axpby) SC_CUDA_CHECK(cudaMemcpy(d_y.get(), y_old.data(), d_y.bytes(), cudaMemcpyHostToDevice));
            else d_y.fill_bytes(0xFF);  // NaN in float and double
            multiply(V(alpha), d_x.get(), V(beta), d_y.get(), env);
            d_y.copy_to_host(got.data(), got.size());
            reference(host, x, alpha, beta, y_old, expected, size);
            ASSERT_TRUE(close(got, expected, size)) << (axpby ? "y = 1.5 A x - 0.5 y" : "y = A x");
        }
    }
}

// Ours: flat, merge path, vector-CSR at the width planned for the matrix and forced to every
// width, and Auto.
std::vector<SpmvPlan> ours() {
    std::vector<SpmvPlan> plans = {{SpmvAlgorithm::Flat}, {SpmvAlgorithm::MergePath}, {SpmvAlgorithm::VectorCsr},
                                   {SpmvAlgorithm::Auto}};
    for (const int lanes : kEveryLanes) plans.push_back({SpmvAlgorithm::VectorCsr, lanes});
    return plans;
}
std::vector<SpmvPlan> cusparse() { return {{SpmvAlgorithm::CusparseCsrAlg1}, {SpmvAlgorithm::CusparseCsrAlg2}}; }
std::vector<SpmvPlan> all() {
    std::vector<SpmvPlan> plans = cusparse();
    for (const SpmvPlan &plan : ours()) plans.push_back(plan);
    return plans;
}

// Rows of the given lengths, random columns in [0, cols), random values.
SC::CsrMatrix<double> withRowLengths(const std::vector<int> &lengths, int cols, std::uint32_t seed) {
    std::mt19937 rng(seed);
    SC::CsrMatrix<double> m;
    m.rows = static_cast<int>(lengths.size());
    m.cols = cols;
    for (int length : lengths) {
        for (int k = 0; k < length; ++k) {
            m.column_indices.push_back(length == cols ? k : static_cast<int>(rng() % cols));
            m.values.push_back(std::uniform_real_distribution<double>(-1, 1)(rng));
        }
        m.row_offsets.push_back(static_cast<int>(m.column_indices.size()));
    }
    return m;
}

class Spmv : public GpuTest {};

}  // namespace

TEST_F(Spmv, GeneratedMatricesFloatAndDouble) {
    const SC::CsrMatrix<double> matrices[] = {SC::poisson_2d(64), SC::poisson_3d(16),
                                              SC::power_law(20000, 20000, 1.3, 2, freshSeed()),
                                              SC::power_law(3000, 50000, 0.8, 0, freshSeed())};
    for (const auto &m : matrices) {
        SCOPED_TRACE(std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", nnz " + std::to_string(m.nnz()));
        checkSpmv(m, ours());
        checkSpmv(SC::convert_values<float>(m), ours());
    }
}

TEST_F(Spmv, EverySharedMatrix) {
    const MatrixFiles files = findMatrixFiles(sharedMatrixNames());
    REQUIRE_MATRIX_FILES(files);
    for (const std::string &path : files.paths) {
        SCOPED_TRACE(path);
        const SC::CsrMatrix<double> m = SC::read_matrix_market(path);
        checkSpmv(m, ours());
        checkSpmv(SC::convert_values<float>(m), ours());
    }
}

// SpMV expressed as a segmented reduction on the load-balancing search: each nonzero's product
// made by the functor, each row's products combined (transform_segmented_reduce). The cross-check of
// the SpMV kernels by an engine that shares none of their code, on the generated and shared matrices.
template <class V>
struct NonzeroProduct {
    const V *values, *x;
    const int *columns;
    __device__ V operator()(long long k, long long, long long) const { return values[k] * x[columns[k]]; }
};

template <class V>
void checkLoadBalancedSpmv(const SC::CsrMatrix<V> &host) {
    SCOPED_TRACE(std::to_string(host.rows) + " x " + std::to_string(host.cols) + ", nnz " + std::to_string(host.nnz()));
    const SC::DeviceCsr<V, int> a(host);
    const std::vector<V> x = randomVector<V>(host.cols, freshSeed());
    DeviceBuffer<V> d_x = DeviceBuffer<V>::from_host(x.data(), x.size()), d_y(host.rows);
    d_y.fill_bytes(0xFF);
    DeviceBuffer<char> d_temp(SC::transform_segmented_reduce_temp_bytes<V>(host.nnz(), host.rows));
    SC::transform_segmented_reduce(NonzeroProduct<V>{a.values(), d_x.get(), a.column_indices()}, host.nnz(),
                                   a.row_offsets(), host.rows, d_y.get(), SC::Sum{}, V(0), d_temp.get(), d_temp.bytes());
    std::vector<V> got(host.rows);
    d_y.copy_to_host(got.data(), got.size());
    std::vector<double> expected, size;
    reference(host, x, 1.0, 0.0, got, expected, size);
    ASSERT_TRUE(close(got, expected, size));
}

TEST_F(Spmv, LoadBalancedSegmentedReduceAgrees) {
    const SC::CsrMatrix<double> generated[] = {SC::poisson_2d(64), SC::power_law(20000, 20000, 1.3, 2, freshSeed()),
                                               SC::power_law(3000, 50000, 0.8, 0, freshSeed())};
    for (const auto &m : generated) {
        checkLoadBalancedSpmv(m);
        checkLoadBalancedSpmv(SC::convert_values<float>(m));
    }
    const MatrixFiles files = findMatrixFiles(sharedMatrixNames());
    for (const std::string &path : files.paths) {
        if (path.empty()) continue;
        SCOPED_TRACE(path);
        const SC::CsrMatrix<double> m = SC::read_matrix_market(path);
        checkLoadBalancedSpmv(m);
        checkLoadBalancedSpmv(SC::convert_values<float>(m));
    }
    REQUIRE_MATRIX_FILES(files);  // after the generated matrices and the shared ones found
}

TEST_F(Spmv, RowsOfLengthZeroOneAndTwoToThe20) {
    const SC::CsrMatrix<double> m =
        withRowLengths({0, 1, 0, 0, 1 << 20, 1, 0, 2, 1 << 20, 0, 1, 0}, (1 << 20) + 7, freshSeed());
    checkSpmv(m, ours());
    checkSpmv(SC::convert_values<float>(m), ours());
}

// 1 x N (one dense row of 100003), N x 1 (one column), mostly empty rows (58% like D6-6), tiny.
static std::vector<SC::CsrMatrix<double>> thinShapes() {
    std::vector<int> sparse(50000);
    std::mt19937 rng(freshSeed());
    for (int &length : sparse) length = rng() % 100 < 58 ? 0 : 1 + rng() % 6;
    return {withRowLengths({100003}, 100003, 2), withRowLengths(std::vector<int>(100003, 1), 1, 3),
            withRowLengths(sparse, 9000, 4), withRowLengths({2, 0, 1}, 3, 5)};
}

TEST_F(Spmv, EmptyAndThinShapes) {
    // All-empty matrices: y = beta * y (and 0 for beta = 0).
    checkSpmv(withRowLengths(std::vector<int>(1000, 0), 500, 1), ours());
    checkSpmv(withRowLengths(std::vector<int>(70000, 0), 1, 1), ours());
    checkSpmv(SC::CsrMatrix<double>{}, ours());  // 0 x 0: nothing to do
    for (const auto &m : thinShapes()) {
        checkSpmv(m, ours());
        checkSpmv(SC::convert_values<float>(m), ours());
    }
}

TEST_F(Spmv, MergePathAtEveryBlockSize) {
    const SC::CsrMatrix<double> m = SC::power_law(30000, 30000, 1.1, 1, freshSeed());
    for (int threads : {32, 64, 256, 1024}) {
        SCOPED_TRACE("block size " + std::to_string(threads));
        SC::Tuning tuning;
        tuning.segmented = threads;
        tuning.single_pass = threads;
        checkSpmv(m, ours(), tuning);
        checkSpmv(SC::convert_values<float>(m), ours(), tuning);
    }
}

// 64-bit row offsets: the same kernels through their other instantiation.
TEST_F(Spmv, SixtyFourBitOffsetsOnEveryShape) {
    std::vector<SC::CsrMatrix<double>> matrices = thinShapes();
    matrices.push_back(SC::poisson_3d(16));
    matrices.push_back(SC::power_law(20000, 20000, 1.3, 2, freshSeed()));
    matrices.push_back(withRowLengths({0, 1, 0, 0, 1 << 20, 1, 0, 2, 0}, (1 << 20) + 7, freshSeed()));
    matrices.push_back(withRowLengths(std::vector<int>(1000, 0), 500, 1));
    for (const auto &m : matrices) {
        SCOPED_TRACE(std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", nnz " + std::to_string(m.nnz()));
        checkSpmv(SC::widen_offsets(m), ours());
        checkSpmv(SC::widen_offsets(SC::convert_values<float>(m)), ours());
    }
}

// Every row length from 0 to 600 in a shuffled order, so that rows start at every alignment: each
// vector-CSR width reads rows on both sides of its switch to 16-byte loads (2 * 4 * lanes: 16 for
// 2 lanes, 256 for 32), and of the element loads that align a row's start and end.
TEST_F(Spmv, VectorCsrAroundItsVectorLoads) {
    std::vector<int> lengths(601);
    std::iota(lengths.begin(), lengths.end(), 0);
    std::shuffle(lengths.begin(), lengths.end(), std::mt19937(freshSeed()));
    const SC::CsrMatrix<double> m = withRowLengths(lengths, 5000, freshSeed());
    checkSpmv(m, ours());
    checkSpmv(SC::convert_values<float>(m), ours());
    checkSpmv(SC::widen_offsets(m), ours());
    checkSpmv(SC::widen_offsets(SC::convert_values<float>(m)), ours());
}

// Auto is the default, decided once from the matrix: vector-CSR at the width of the mean row (no
// temporary storage) when no row takes many steps of it and the matrix is not large, merge path
// otherwise.
TEST_F(Spmv, AutoChoosesByTheMatrix) {
    const auto expectChoice = [](const SC::CsrMatrix<double> &m, SpmvAlgorithm algorithm, int lanes) {
        const SC::DeviceCsr<double> a(m);
        const SC::Spmv<double> multiply(a);
        EXPECT_EQ(describe({multiply.chosen(), multiply.lanes_per_row()}), describe({algorithm, lanes}))
            << m.rows << " x " << m.cols << ", nnz " << m.nnz();
        EXPECT_EQ(multiply.temp_bytes() == 0, algorithm == SpmvAlgorithm::VectorCsr);
    };
    expectChoice(SC::poisson_2d(64), SpmvAlgorithm::VectorCsr, 8);
    expectChoice(SC::poisson_3d(16), SpmvAlgorithm::VectorCsr, 8);
    expectChoice(SC::power_law(20000, 20000, 1.3, 2, freshSeed()), SpmvAlgorithm::MergePath, 0);
    const std::vector<SC::CsrMatrix<double>> thin = thinShapes();  // 1 x N, N x 1, 58% empty, 3 x 3
    expectChoice(thin[0], SpmvAlgorithm::MergePath, 0);
    expectChoice(thin[1], SpmvAlgorithm::VectorCsr, 2);
    expectChoice(thin[2], SpmvAlgorithm::VectorCsr, 2);
    expectChoice(withRowLengths(std::vector<int>(1000, 0), 500, 1), SpmvAlgorithm::VectorCsr, 2);
    // The lanes of a VectorCsr asked for by name are the planned ones, whatever Auto would choose.
    const SC::DeviceCsr<double> skewed(SC::power_law(20000, 20000, 1.3, 2, 7));  // mean 7.2
    EXPECT_EQ(SC::Spmv<double>(skewed, SpmvAlgorithm::VectorCsr).lanes_per_row(), 8);
}

// Matrices on each side of Auto's decision boundary (spmv_boundary.h): the choice flips there, and
// each side is right whichever kernel it takes, in every type and offset width.
TEST_F(Spmv, AutoOnEachSideOfItsDecisionBoundary) {
    struct Side {
        const char *name;
        std::vector<int> lengths;
        SpmvPlan expected;
    };
    const Side sides[] = {
        {"longest row at 128 steps", longestRowStepsOnBoundary(true), {SpmvAlgorithm::VectorCsr, 32}},
        {"longest row at 129 steps", longestRowStepsOnBoundary(false), {SpmvAlgorithm::MergePath}},
        {"2^22 nonzeros", nonzerosOnBoundary(true), {SpmvAlgorithm::VectorCsr, 4}},
        {"2^22 + 1 nonzeros", nonzerosOnBoundary(false), {SpmvAlgorithm::MergePath}}};
    for (const Side &side : sides) {
        SCOPED_TRACE(side.name);
        const SC::CsrMatrix<double> m = withRowLengths(side.lengths, 3000, freshSeed());
        const SC::DeviceCsr<double> a(m);
        const SC::Spmv<double> multiply(a);
        ASSERT_EQ(describe({multiply.chosen(), multiply.lanes_per_row()}), describe(side.expected));
        const std::vector<SpmvPlan> plans = {{SpmvAlgorithm::Auto}, {SpmvAlgorithm::VectorCsr},
                                             {SpmvAlgorithm::MergePath}};
        checkSpmv(m, plans);
        checkSpmv(SC::convert_values<float>(m), plans);
        checkSpmv(SC::widen_offsets(m), plans);
        checkSpmv(SC::widen_offsets(SC::convert_values<float>(m)), plans);
    }
}

TEST_F(Spmv, LanesOnlyForVectorCsrAndAPowerOfTwoUpTo32) {
    const SC::DeviceCsr<float> a(SC::convert_values<float>(SC::poisson_2d(8)));
    for (const SpmvPlan &plan : {SpmvPlan{SpmvAlgorithm::VectorCsr, 1}, SpmvPlan{SpmvAlgorithm::VectorCsr, 3},
                                 SpmvPlan{SpmvAlgorithm::VectorCsr, 64}, SpmvPlan{SpmvAlgorithm::VectorCsr, -2},
                                 SpmvPlan{SpmvAlgorithm::MergePath, 8}, SpmvPlan{SpmvAlgorithm::Auto, 4}}) {
        SCOPED_TRACE(describe(plan));
        EXPECT_THROW((SC::Spmv<float>{a, plan}), std::invalid_argument);
    }
}

// cuSPARSE, the reference, through the same interface and checks. A suite of its own: its kernels
// report shared-memory write-write hazards of their own under racecheck.
class SpmvCusparse : public Spmv {};

TEST_F(SpmvCusparse, ReferenceAlgorithmsOnEveryShape) {
    std::vector<SC::CsrMatrix<double>> matrices = thinShapes();
    matrices.push_back(SC::poisson_2d(64));
    matrices.push_back(SC::power_law(20000, 20000, 1.3, 2, freshSeed()));
    matrices.push_back(withRowLengths({0, 1, 0, 0, 1 << 20, 1, 0, 2, 0}, (1 << 20) + 7, freshSeed()));
    const MatrixFiles files = findMatrixFiles({"soc-Epinions1.mtx", "lp_ship04l.mtx", "D6-6.mtx"});
    for (const std::string &path : files.paths)
        if (!path.empty()) matrices.push_back(SC::read_matrix_market(path));
    for (const auto &m : matrices) {
        SCOPED_TRACE(std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", nnz " + std::to_string(m.nnz()));
        checkSpmv(m, cusparse());
        checkSpmv(SC::convert_values<float>(m), cusparse());
    }
    REQUIRE_MATRIX_FILES(files);  // after every shape and the shared matrices found
}

TEST_F(SpmvCusparse, SixtyFourBitOffsets) {
    for (const auto &m : {SC::poisson_2d(64), SC::power_law(20000, 20000, 1.3, 2, freshSeed())}) {
        checkSpmv(SC::widen_offsets(m), cusparse());
        checkSpmv(SC::widen_offsets(SC::convert_values<float>(m)), cusparse());
    }
}

TEST_F(Spmv, InvalidCsrIsRejectedBeforeAnyKernel) {
    SC::CsrMatrix<float> m;
    m.rows = 2;
    m.cols = 2;
    m.row_offsets = {0, 2, 1};
    m.column_indices = {0, 1};
    m.values = {1, 2};
    EXPECT_THROW(SC::DeviceCsr<float>{m}, std::invalid_argument);  // offsets not monotone
    m.row_offsets = {0, 1, 3};
    EXPECT_THROW(SC::DeviceCsr<float>{m}, std::invalid_argument);  // last offset != nnz
    m.row_offsets = {0, 1, 2};
    m.column_indices = {0, 2};
    EXPECT_THROW(SC::DeviceCsr<float>{m}, std::invalid_argument);  // column >= cols
    m.column_indices = {0, 1};
    const SC::DeviceCsr<float> a(m);
    SC::Spmv<float> multiply(a, SpmvAlgorithm::MergePath);
    DeviceBuffer<float> y(2);
    EXPECT_THROW(multiply(1.0f, nullptr, 0.0f, y.get()), std::invalid_argument);
}

// ---- views over the caller's device arrays ----

// The caller's own arrays (cudaMalloc'ed by the test, no DeviceCsr): every plan through a CsrView
// gives what the host reference does, and values changed in place are used by the next call of
// the same Spmv (the plan caches only what the row offsets give).
// `shift` elements into the caller's column and value arrays: a view need not start 16-byte
// aligned (vector-CSR then reads long rows element by element).
template <class V, class Offset>
void checkView(const SC::CsrMatrix<V, Offset> &host, std::size_t shift = 0) {
    auto offsets = DeviceBuffer<Offset>::from_host(host.row_offsets.data(), host.row_offsets.size());
    std::vector<int> shifted_columns(shift, 0);
    shifted_columns.insert(shifted_columns.end(), host.column_indices.begin(), host.column_indices.end());
    std::vector<V> shifted_values(shift, V(0));
    shifted_values.insert(shifted_values.end(), host.values.begin(), host.values.end());
    auto column_buffer = DeviceBuffer<int>::from_host(shifted_columns.data(), shifted_columns.size());
    auto value_buffer = DeviceBuffer<V>::from_host(shifted_values.data(), shifted_values.size());
    int *const columns = column_buffer.get() + shift;
    V *const values = value_buffer.get() + shift;
    const SC::CsrView<V, Offset> view(host.rows, host.cols, host.nnz(), offsets.get(), columns, values);
    SC::check_csr_on_device(view);
    const std::vector<V> x = randomVector<V>(host.cols, freshSeed());
    auto d_x = DeviceBuffer<V>::from_host(x.data(), x.size());
    DeviceBuffer<V> d_y(host.rows);
    std::vector<V> got(host.rows), y_old(host.rows);
    std::vector<double> expected, size;
    for (const SpmvPlan &plan : ours()) {
        SCOPED_TRACE(describe(plan));
        SC::CsrMatrix<V, Offset> changed = host;
        const SC::Spmv<V, Offset> multiply(view, plan);
        for (const bool update : {false, true}) {
            if (update) {  // new values in the caller's array, the same structure
                changed.values = randomVector<V>(host.nnz(), freshSeed());
                SC_CUDA_CHECK(cudaMemcpy(values, changed.values.data(), host.nnz() * sizeof(V), cudaMemcpyHostToDevice));
            }
            d_y.fill_bytes(0xFF);
            multiply(V(1), d_x.get(), V(0), d_y.get());
            d_y.copy_to_host(got.data(), got.size());
            reference(changed, x, 1.0, 0.0, y_old, expected, size);
            ASSERT_TRUE(close(got, expected, size)) << (update ? "after new values" : "first call");
        }
        SC_CUDA_CHECK(cudaMemcpy(values, host.values.data(), host.nnz() * sizeof(V), cudaMemcpyHostToDevice));
    }
}

TEST_F(Spmv, ViewsOverTheCallersArrays) {
    for (const SC::CsrMatrix<double> &m : thinShapes()) {
        checkView(m);
        checkView(SC::convert_values<float>(m));
        checkView(SC::widen_offsets(m));
    }
    // Rows long enough for vector-CSR's 16-byte loads at every width, in arrays aligned and not.
    const SC::CsrMatrix<double> long_rows = withRowLengths({0, 1, 2, 33, 0, 700, 5, 3000}, 4000, freshSeed());
    for (const std::size_t shift : {0, 1, 3}) {
        checkView(SC::convert_values<float>(long_rows), shift);
        checkView(long_rows, shift);
        checkView(SC::widen_offsets(long_rows), shift);
    }
    // A DeviceCsr is a view too.
    const SC::CsrMatrix<float> m = SC::convert_values<float>(withRowLengths({3, 0, 4}, 5, freshSeed()));
    const SC::DeviceCsr<float> owned(m);
    const SC::CsrView<float> view = owned;
    EXPECT_EQ(view.row_offsets(), owned.row_offsets());
    EXPECT_EQ(view.nnz(), owned.nnz());
}

// What a view checks when it is made (sizes, null pointers), without reading device memory.
TEST(SpmvView, RefusesWhatIsCheapToCheck) {
    const int *none = nullptr;
    int word = 0;
    const float value = 1;
    EXPECT_THROW(SC::CsrView<float>(-1, 2, 0, &word, none, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::CsrView<float>(2, -1, 0, &word, none, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::CsrView<float>(2, 2, 0, nullptr, none, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::CsrView<float>(2, 2, 3, &word, nullptr, &value), std::invalid_argument);
    EXPECT_THROW(SC::CsrView<float>(2, 2, 3, &word, &word, nullptr), std::invalid_argument);
    EXPECT_THROW(SC::CsrView<float>(0, 2, 3, nullptr, &word, &value), std::invalid_argument);
    EXPECT_THROW(SC::CsrView<float>(1, 1, std::size_t(1) << 31, &word, &word, &value), std::invalid_argument);
    EXPECT_NO_THROW(SC::CsrView<float>(0, 0, 0, nullptr, nullptr, nullptr));
    const std::int64_t wide = 0;
    EXPECT_NO_THROW((SC::CsrView<float, std::int64_t>(1, 1, std::size_t(1) << 31, &wide, &word, &value)));
}

// check_csr_on_device names each broken rule, as validate_csr does on the host.
TEST_F(Spmv, CheckOnDeviceNamesEachBrokenRule) {
    struct Case {
        std::vector<int> offsets, columns;
        const char *rule;
    };
    const Case cases[] = {
        {{1, 1, 2}, {0, 1}, "first row offset not 0"},
        {{0, 2, 1}, {0, 1}, "row offsets decreasing"},
        {{0, 1, 3}, {0, 1}, "last row offset not equal"},
        {{0, 1, 2}, {0, 2}, "column index outside"},
        {{0, 1, 2}, {-1, 0}, "column index outside"},
    };
    const std::vector<float> values = {1, 2};
    auto d_values = DeviceBuffer<float>::from_host(values.data(), values.size());
    for (const Case &c : cases) {
        auto offsets = DeviceBuffer<int>::from_host(c.offsets.data(), c.offsets.size());
        auto columns = DeviceBuffer<int>::from_host(c.columns.data(), c.columns.size());
        const SC::CsrView<float> view(2, 2, 2, offsets.get(), columns.get(), d_values.get());
        try {
            SC::check_csr_on_device(view);
            ADD_FAILURE() << "accepted: " << c.rule;
        } catch (const std::invalid_argument &e) {
            EXPECT_NE(std::string(e.what()).find(c.rule), std::string::npos) << e.what();
        }
    }
}

// ---- large matrices (left out of sanitizer runs); sc_nvbench_spmv times them ----

TEST(GpuLarge, SpmvPoisson2d2048) {
    SKIP_WITHOUT_GPU();
    const SC::CsrMatrix<double> m = SC::poisson_2d(2048);
    checkSpmv(m, all());
    checkSpmv(SC::convert_values<float>(m), all());
}

TEST(GpuLarge, SpmvPowerLaw2To22Rows) {
    SKIP_WITHOUT_GPU();
    const SC::CsrMatrix<double> m = SC::power_law(1 << 22, 1 << 22, 1.5, 4, 2024);
    checkSpmv(m, all());
    checkSpmv(SC::convert_values<float>(m), all());
}

// Merge path and flat SpMV in float give the same bits on every run (their segmented sums take the
// fixed-order look-back); so does vector-CSR, which gives each row to one sub-warp.
TEST(GpuLarge, FloatSpmvRepeatsItsBits) {
    SKIP_WITHOUT_GPU();
    const SC::DeviceCsr<float> a(SC::convert_values<float>(SC::power_law(1 << 21, 1 << 21, 1.5, 4, 2026)));
    std::vector<float> x(a.cols());
    std::mt19937 rng(freshSeed());
    for (float &v : x) v = std::uniform_real_distribution<float>(-1, 1)(rng);
    const auto d_x = DeviceBuffer<float>::from_host(x.data(), x.size());
    DeviceBuffer<float> d_y(a.rows());
    for (const SpmvAlgorithm algorithm : {SpmvAlgorithm::MergePath, SpmvAlgorithm::Flat, SpmvAlgorithm::VectorCsr}) {
        SCOPED_TRACE(SC::spmv_algorithm_name(algorithm));
        const SC::Spmv<float> multiply(a, algorithm);
        std::vector<float> first(a.rows()), again(a.rows());
        multiply(1.0f, d_x.get(), 0.0f, d_y.get());
        d_y.copy_to_host(first.data(), first.size());
        for (int run = 1; run < 10; ++run) {
            multiply(1.0f, d_x.get(), 0.0f, d_y.get());
            d_y.copy_to_host(again.data(), again.size());
            ASSERT_EQ(std::memcmp(first.data(), again.data(), first.size() * sizeof(float)), 0)
                << "run " << run << " differs from run 0";
        }
    }
}

// Every algorithm, cuSPARSE included, on each shared matrix in float (EverySharedMatrix checks ours in both types).
TEST(GpuLarge, SpmvSharedMatrices) {
    SKIP_WITHOUT_GPU();
    const MatrixFiles files = findMatrixFiles(sharedMatrixNames());
    REQUIRE_MATRIX_FILES(files);
    for (const std::string &path : files.paths) {
        SCOPED_TRACE(path);
        checkSpmv(SC::convert_values<float>(SC::read_matrix_market(path)), all());
    }
}

// Runs body(first, last) on row ranges split over the host's cores.
template <class Body>
void forRowRanges(int rows, Body body) {
    const int workers = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
        threads.emplace_back(body, int(std::int64_t(rows) * w / workers), int(std::int64_t(rows) * (w + 1) / workers));
    for (std::thread &t : threads) t.join();
}

// 2^21 rows of 1025 nonzeros, 2^31 + 2^21 in all: past what 32-bit offsets can count. Values in
// [-3, 3] and x in [-2, 2] are integers, so every partial sum is an integer below 2^24 and each
// result is exact in float, in any order of summation. Ours only: on this matrix cuSPARSE 13.0's
// cusparseSpMV (ALG1, 64-bit indices) fails with CUSPARSE_STATUS_INTERNAL_ERROR.
TEST(GpuLarge, SpmvPastTwoToThe31Nonzeros) {
    SKIP_WITHOUT_GPU();
    constexpr int kRows = 1 << 21, kPerRow = 1025;
    SC::CsrMatrix<float, std::int64_t> m;
    m.rows = m.cols = kRows;
    m.row_offsets.resize(kRows + 1);
    m.column_indices.resize(std::size_t(kRows) * kPerRow);
    m.values.resize(m.column_indices.size());
    ASSERT_GT(m.nnz(), std::size_t(std::numeric_limits<int>::max()));
    forRowRanges(kRows, [&](int first, int last) {
        for (int r = first; r < last; ++r) {
            m.row_offsets[r + 1] = std::int64_t(r + 1) * kPerRow;
            for (int j = 0; j < kPerRow; ++j) {
                const std::size_t k = std::size_t(r) * kPerRow + j;
                m.column_indices[k] = int((std::uint64_t(r) * 7919 + std::uint64_t(j) * 104729) % kRows);
                m.values[k] = float((r + j) % 7 - 3);
            }
        }
    });
    std::vector<float> x(kRows), expected(kRows), got(kRows);
    for (int c = 0; c < kRows; ++c) x[c] = float(c % 5 - 2);
    forRowRanges(kRows, [&](int first, int last) {
        for (int r = first; r < last; ++r) {
            long long sum = 0;
            for (std::int64_t k = m.row_offsets[r]; k < m.row_offsets[r + 1]; ++k)
                sum += (long long)m.values[k] * (long long)x[m.column_indices[k]];
            expected[r] = float(sum);
        }
    });

    // 32-bit offsets cannot hold it: a clear error, before any copy.
    SC::CsrMatrix<float> narrow;
    narrow.rows = narrow.cols = kRows;
    narrow.column_indices = std::move(m.column_indices);
    narrow.values = std::move(m.values);
    narrow.row_offsets.assign(kRows + 1, 0);
    try {
        SC::validate_csr(narrow);
        ADD_FAILURE() << "32-bit offsets accepted " << narrow.nnz() << " nonzeros";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("do not fit 32-bit row offsets"), std::string::npos) << e.what();
    }
    m.column_indices = std::move(narrow.column_indices);
    m.values = std::move(narrow.values);

    const SC::DeviceCsr<float, std::int64_t> a(m);
    DeviceBuffer<float> d_x = DeviceBuffer<float>::from_host(x.data(), x.size());
    DeviceBuffer<float> d_y(kRows);
    for (const SpmvPlan &plan : ours()) {
        SCOPED_TRACE(describe(plan));
        SC::Spmv<float, std::int64_t> multiply(a, plan);
        d_y.fill_bytes(0xFF);
        multiply(1.0f, d_x.get(), 0.0f, d_y.get());
        d_y.copy_to_host(got.data(), got.size());
        const auto mismatch = std::mismatch(got.begin(), got.end(), expected.begin());
        ASSERT_TRUE(mismatch.first == got.end()) << "row " << (mismatch.first - got.begin()) << ": got "
                                                 << *mismatch.first << ", expected " << *mismatch.second;
    }
}

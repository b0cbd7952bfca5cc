// SpMV with __half and __nv_bfloat16 values, x and y (device/spmv.cuh: computed in float, alpha and
// beta floats, y rounded to nearest once per row), by every algorithm, against a CPU reference in
// double from the 16-bit values as stored (the rounded matrix, x and y converted back exactly).
//
// Tolerances, derived:
// - Exact sums (ExactSumsRoundOnceToNearest): values, x and y are multiples of 1/8 in [-1, 1], alpha
//   1.5 and beta -0.5, rows of at most 5000 nonzeros. Every product is a multiple of 2^-6 of
//   magnitude at most 1, so every partial sum, in any order, is a multiple of 2^-6 below 2^13: 19
//   bits, exact in float (24); alpha * sum + beta * y is a multiple of 2^-7 below 2^14, exact too.
//   What the GPU computes in float is then the exact t, and y must be round-to-nearest-even(t) in
//   V bit for bit (our algorithms). cuSPARSE does not document its final conversion: within 1 ulp.
// - Random values (every other test): c, the float the GPU computes, is any-order float sums of n
//   exact products (a 16-bit value has at most 11 significant bits, so a product has at most 22),
//   then alpha * sum and + beta * y: each product goes through at most n - 1 additions, then the
//   multiplication and one addition, so |c - t| <= E = (n + 1) u (|alpha| sum |a x| + |beta y|)
//   (1 + O(n u)), u = 2^-24 (Higham, Accuracy and Stability, 4.2, for any summation order); y is
//   round(c), within half an ulp of c. Checked: |y - t| <= E' + ulp_V(|t| + E') with E' = 1.01 E
//   (the ulp, not half of it: c may sit across a binade boundary from t).
#include <gtest/gtest.h>

#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/support/call_environment.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;
using SC::DeviceBuffer;
using SC::SpmvAlgorithm;
using SC::SpmvPlan;

namespace {

// ---- the 16-bit types on the host, independent of the library's conversions ----

double toDouble(__half v) { return static_cast<double>(__half2float(v)); }
double toDouble(__nv_bfloat16 v) { return static_cast<double>(__bfloat162float(v)); }

template <class V>
V roundTo(double w) {
    if constexpr (std::is_same_v<V, __half>) return __double2half(w);
    else return __double2bfloat16(w);
}

template <class V>
const char *typeName() {
    return std::is_same_v<V, __half> ? "__half" : "__nv_bfloat16";
}

// The spacing of V's values at magnitude m: 2^(e - p + 1) for m in [2^e, 2^(e + 1)), e no lower than
// the smallest normal exponent (subnormals are spaced as the smallest binade). p = 11, e_min = -14
// for half; p = 8, e_min = -126 for bfloat16.
template <class V>
double ulp(double m) {
    const int precision = std::is_same_v<V, __half> ? 11 : 8, min_exponent = std::is_same_v<V, __half> ? -14 : -126;
    const int exponent = m > 0 ? std::max(std::ilogb(m), min_exponent) : min_exponent;
    return std::ldexp(1.0, exponent - precision + 1);
}

// ---- matrices and vectors ----

// Rows of the given lengths, random columns in [0, cols), values from `value(rng)`.
template <class Value>
SC::CsrMatrix<double> withRowLengths(const std::vector<int> &lengths, int cols, std::uint32_t seed, Value value) {
    std::mt19937 rng(seed);
    SC::CsrMatrix<double> m;
    m.rows = static_cast<int>(lengths.size());
    m.cols = cols;
    for (const int length : lengths) {
        for (int k = 0; k < length; ++k) {
            m.column_indices.push_back(static_cast<int>(rng() % static_cast<unsigned>(cols)));
            m.values.push_back(value(rng));
        }
        m.row_offsets.push_back(static_cast<int>(m.column_indices.size()));
    }
    return m;
}

double uniformValue(std::mt19937 &rng) { return std::uniform_real_distribution<double>(-1, 1)(rng); }
// A multiple of 1/8 in [-1, 1]: exact in either 16-bit type, and products sum exactly in float.
double eighthValue(std::mt19937 &rng) { return static_cast<double>(static_cast<int>(rng() % 17) - 8) / 8; }

// A long row, empty rows, many short ones: 0, 5000, 0, then 3000 rows of 0..4 nonzeros, then 1.
std::vector<int> mixedLengths(std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<int> lengths = {0, 5000, 0};
    for (int r = 0; r < 3000; ++r) lengths.push_back(static_cast<int>(rng() % 5));
    lengths.push_back(1);
    return lengths;
}

// The host matrix in V, each value rounded once (what DeviceCsr<V>(CsrMatrix<double>) promises).
template <class V, class Offset>
SC::CsrMatrix<V, Offset> rounded(const SC::CsrMatrix<double, Offset> &m) {
    SC::CsrMatrix<V, Offset> out;
    out.rows = m.rows;
    out.cols = m.cols;
    out.row_offsets = m.row_offsets;
    out.column_indices = m.column_indices;
    for (const double v : m.values) out.values.push_back(roundTo<V>(v));
    return out;
}

template <class V, class Value>
std::vector<V> randomVector(std::size_t n, std::uint32_t seed, Value value) {
    std::mt19937 rng(seed);
    std::vector<V> v;
    for (std::size_t i = 0; i < n; ++i) v.push_back(roundTo<V>(value(rng)));
    return v;
}

// ---- the reference and the check ----

// t = alpha A x + beta y_old in double from the stored values (exact for the eighths), and each
// row's bound E of the float computation (above); beta = 0 reads no y.
template <class V, class Offset>
void reference(const SC::CsrMatrix<V, Offset> &a, const std::vector<V> &x, float alpha, float beta,
               const std::vector<V> &y_old, std::vector<double> &t, std::vector<double> &bound) {
    t.assign(a.rows, 0);
    bound.assign(a.rows, 0);
    const double u = std::ldexp(1.0, -24);
    for (int r = 0; r < a.rows; ++r) {
        double sum = 0, magnitude = 0;
        for (Offset k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
            const double product = toDouble(a.values[k]) * toDouble(x[a.column_indices[k]]);
            sum += product;
            magnitude += std::fabs(product);
        }
        const double old = beta == 0 ? 0 : double(beta) * toDouble(y_old[r]);
        t[r] = double(alpha) * sum + old;
        const double n = static_cast<double>(a.row_offsets[r + 1] - a.row_offsets[r]);
        bound[r] = 1.01 * (n + 1) * u * (std::fabs(double(alpha)) * magnitude + std::fabs(old));
    }
}

// exact: y must be round(t) bit for bit (ulps = 0) or within `ulps` of it; else within the bound.
enum class Expect { RoundedExactly, WithinOneUlp, WithinBound };

template <class V>
::testing::AssertionResult close(const std::vector<V> &got, const std::vector<double> &t,
                                 const std::vector<double> &bound, Expect expect) {
    for (std::size_t r = 0; r < got.size(); ++r) {
        const double y = toDouble(got[r]);
        const double rounded_t = toDouble(roundTo<V>(t[r]));
        bool ok = false;
        switch (expect) {
        case Expect::RoundedExactly: ok = y == rounded_t; break;
        case Expect::WithinOneUlp: ok = std::fabs(y - rounded_t) <= ulp<V>(std::fabs(rounded_t)); break;
        case Expect::WithinBound:
            ok = std::fabs(y - t[r]) <= bound[r] + ulp<V>(std::fabs(t[r]) + bound[r]);
            break;
        }
        if (!ok)
            return ::testing::AssertionFailure() << "row " << r << ": got " << y << ", exact " << t[r] << " (rounded "
                                                 << rounded_t << ", float bound " << bound[r] << ")";
    }
    return ::testing::AssertionSuccess();
}

std::string describe(const SpmvPlan &plan) {
    return std::string(SC::spmv_algorithm_name(plan.algorithm)) +
           (plan.lanes_per_row ? ", " + std::to_string(plan.lanes_per_row) + " lanes" : "");
}

bool isCusparse(SpmvAlgorithm algorithm) {
    return algorithm == SpmvAlgorithm::CusparseCsrAlg1 || algorithm == SpmvAlgorithm::CusparseCsrAlg2;
}

// Ours: flat, merge path, vector-CSR planned and at every width, Auto.
std::vector<SpmvPlan> ours() {
    std::vector<SpmvPlan> plans = {{SpmvAlgorithm::Flat}, {SpmvAlgorithm::MergePath}, {SpmvAlgorithm::VectorCsr},
                                   {SpmvAlgorithm::Auto}};
    for (const int lanes : {2, 4, 8, 16, 32}) plans.push_back({SpmvAlgorithm::VectorCsr, lanes});
    return plans;
}
std::vector<SpmvPlan> cusparse() { return {{SpmvAlgorithm::CusparseCsrAlg1}, {SpmvAlgorithm::CusparseCsrAlg2}}; }

// Every plan on the view, twice: y = 1.5 A x - 0.5 y over y_old, and y = A x over a y of NaN
// (0xFFFF is NaN in both types: beta = 0 must not read it).
template <class V, class Offset>
void checkPlans(const SC::CsrMatrix<V, Offset> &host, const SC::CsrView<V, Offset> &view,
                const std::vector<SpmvPlan> &plans, const std::vector<V> &x, const std::vector<V> &y_old,
                Expect expect) {
    SCOPED_TRACE(std::string(typeName<V>()) + ", " + std::to_string(host.rows) + " x " + std::to_string(host.cols) +
                 ", nnz " + std::to_string(host.nnz()));
    DeviceBuffer<V> d_x = DeviceBuffer<V>::from_host(x.data(), x.size());
    DeviceBuffer<V> d_y(host.rows);
    std::vector<double> t, bound;
    for (const SpmvPlan &plan : plans) {
        SCOPED_TRACE(describe(plan));
        const SC::Spmv<V, Offset> multiply(view, plan);
        if (plan.algorithm == SpmvAlgorithm::Auto)
            ASSERT_TRUE(multiply.chosen() == SpmvAlgorithm::VectorCsr || multiply.chosen() == SpmvAlgorithm::MergePath);
        else ASSERT_EQ(multiply.chosen(), plan.algorithm);
        for (const bool axpby : {true, false}) {
            const float alpha = axpby ? 1.5f : 1.0f, beta = axpby ? -0.5f : 0.0f;
            if (axpby && host.rows > 0)
                SC_CUDA_CHECK(cudaMemcpy(d_y.get(), y_old.data(), host.rows * sizeof(V), cudaMemcpyHostToDevice));
            else d_y.fill_bytes(0xFF);
            multiply(alpha, d_x.get(), beta, d_y.get());
            SC_CUDA_CHECK(cudaDeviceSynchronize());
            const std::vector<V> got = download(d_y.get(), host.rows, V());
            reference(host, x, alpha, beta, y_old, t, bound);
            const Expect here = expect == Expect::RoundedExactly && isCusparse(plan.algorithm) ? Expect::WithinOneUlp
                                                                                               : expect;
            ASSERT_TRUE(close(got, t, bound, here)) << (axpby ? "y = 1.5 A x - 0.5 y" : "y = A x");
        }
    }
}

// The matrix as a DeviceCsr<V> made from the double matrix (rounded once on the host).
template <class V, class Offset>
void checkOwned(const SC::CsrMatrix<double, Offset> &m, const std::vector<SpmvPlan> &plans, Expect expect,
                double (*value)(std::mt19937 &)) {
    const SC::CsrMatrix<V, Offset> host = rounded<V>(m);
    const SC::DeviceCsr<V, Offset> a(m);
    const std::vector<V> x = randomVector<V>(m.cols, freshSeed(), value);
    const std::vector<V> y_old = randomVector<V>(m.rows, freshSeed(), value);
    checkPlans(host, a.view(), plans, x, y_old, expect);
}

// The mixed rows (32- and 64-bit offsets); rows * cols of 0 (0 x 0, 0 x 3, 3 x 0) and 1 (empty, or
// one nonzero); one row, one column, all rows empty. Shapes without rows or columns are for ours
// only, as in gpu_spmv_test.cu: Spmv returns before any kernel without rows, and cuSPARSE is the
// reference for the multiplication itself.
template <class V>
void checkEveryShape(const std::vector<SpmvPlan> &plans, bool with_empty_dimensions) {
    const SC::CsrMatrix<double> mixed = withRowLengths(mixedLengths(freshSeed()), 6000, freshSeed(), uniformValue);
    checkOwned<V>(mixed, plans, Expect::WithinBound, uniformValue);
    checkOwned<V>(SC::widen_offsets(mixed), plans, Expect::WithinBound, uniformValue);
    for (const auto &[lengths, cols] : std::vector<std::pair<std::vector<int>, int>>{
             {{}, 0}, {{}, 3}, {{0, 0, 0}, 0}, {{0}, 1}, {{1}, 1}, {{700}, 900}, {std::vector<int>(900, 1), 1},
             {std::vector<int>(500, 0), 20}}) {
        if (!with_empty_dimensions && (lengths.empty() || cols == 0)) continue;
        checkOwned<V>(withRowLengths(lengths, cols, freshSeed(), uniformValue), plans, Expect::WithinBound,
                      uniformValue);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

int computeCapabilityMajor() {
    int device = 0, major = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    return major;
}

class GpuSpmvHalf : public GpuTest {};
// cuSPARSE in a suite of its own, as in gpu_spmv_test.cu (its kernels' hazards under racecheck).
class GpuSpmvHalfCusparse : public GpuTest {};

}  // namespace

TEST_F(GpuSpmvHalf, EveryAlgorithmOnEveryShape) {
    checkEveryShape<__half>(ours(), true);
    checkEveryShape<__nv_bfloat16>(ours(), true);
}

TEST_F(GpuSpmvHalfCusparse, EveryShape) {
    checkEveryShape<__half>(cusparse(), false);
    if (computeCapabilityMajor() >= 8) checkEveryShape<__nv_bfloat16>(cusparse(), false);
}

TEST_F(GpuSpmvHalf, ExactSumsRoundOnceToNearest) {
    const SC::CsrMatrix<double> m = withRowLengths(mixedLengths(freshSeed()), 6000, freshSeed(), eighthValue);
    checkOwned<__half>(m, ours(), Expect::RoundedExactly, eighthValue);
    checkOwned<__nv_bfloat16>(m, ours(), Expect::RoundedExactly, eighthValue);
}

TEST_F(GpuSpmvHalfCusparse, ExactSumsWithinAnUlp) {
    const SC::CsrMatrix<double> m = withRowLengths(mixedLengths(freshSeed()), 6000, freshSeed(), eighthValue);
    checkOwned<__half>(m, cusparse(), Expect::RoundedExactly, eighthValue);
    if (computeCapabilityMajor() >= 8) {
        checkOwned<__nv_bfloat16>(m, cusparse(), Expect::RoundedExactly, eighthValue);
    } else {  // cuSPARSE needs native bfloat16: refused when the Spmv is made
        const SC::DeviceCsr<__nv_bfloat16> a(m);
        EXPECT_THROW((SC::Spmv<__nv_bfloat16>(a, SpmvAlgorithm::CusparseCsrAlg1)), std::invalid_argument);
    }
}

// The caller's arrays, shifted (columns, values) elements from cudaMalloc's alignment: vector-CSR's
// 16-byte loads (8 values, 2 x 4 columns) need both 16-byte aligned, so shifts (1, 1), (0, 1),
// (4, 4) (columns aligned, values 8 bytes off) and (1, 8) take its element-by-element fallback,
// and (0, 0) and (4, 8) its vector loads, on a long row of exact sums.
template <class V>
void checkShiftedView(std::size_t column_shift, std::size_t value_shift) {
    SCOPED_TRACE("columns shifted " + std::to_string(column_shift) + ", values " + std::to_string(value_shift));
    const SC::CsrMatrix<double> m = withRowLengths({0, 3000, 1, 700, 0, 2}, 4000, freshSeed(), eighthValue);
    const SC::CsrMatrix<V> host = rounded<V>(m);
    auto offsets = DeviceBuffer<int>::from_host(host.row_offsets.data(), host.row_offsets.size());
    std::vector<int> columns(column_shift, 0);
    columns.insert(columns.end(), host.column_indices.begin(), host.column_indices.end());
    std::vector<V> values(value_shift, roundTo<V>(0));
    values.insert(values.end(), host.values.begin(), host.values.end());
    auto column_buffer = DeviceBuffer<int>::from_host(columns.data(), columns.size());
    auto value_buffer = DeviceBuffer<V>::from_host(values.data(), values.size());
    const SC::CsrView<V> view(host.rows, host.cols, host.nnz(), offsets.get(), column_buffer.get() + column_shift,
                              value_buffer.get() + value_shift);
    SC::check_csr_on_device(view);
    checkPlans(host, view, ours(), randomVector<V>(m.cols, freshSeed(), eighthValue),
               randomVector<V>(m.rows, freshSeed(), eighthValue), Expect::RoundedExactly);
}

TEST_F(GpuSpmvHalf, ViewsAlignedAndNotTakeVectorLoadsOrTheirFallback) {
    for (const auto &[columns, values] : std::vector<std::pair<std::size_t, std::size_t>>{
             {0, 0}, {1, 1}, {0, 1}, {4, 4}, {1, 8}, {4, 8}}) {
        checkShiftedView<__half>(columns, values);
        checkShiftedView<__nv_bfloat16>(columns, values);
        if (HasFatalFailure()) return;
    }
}

// A half matrix three ways: from a CsrMatrix<__half> (its values as they are), and from a
// CsrMatrix<double> or <float>, each value rounded to nearest once (from the double directly: not
// through a float, which could round twice).
TEST_F(GpuSpmvHalf, DeviceCsrFromHalfFloatOrDoubleHostMatrices) {
    const SC::CsrMatrix<double> m = withRowLengths({3, 0, 5, 1}, 7, freshSeed(), uniformValue);
    const SC::CsrMatrix<float> m_float = SC::convert_values<float>(m);
    const SC::CsrMatrix<__half> host = rounded<__half>(m);
    const SC::DeviceCsr<__half> from_half(host), from_float(m_float), from_double(m);
    const auto bits = [](const std::vector<__half> &values) {
        std::vector<unsigned short> out(values.size());
        std::memcpy(out.data(), values.data(), values.size() * sizeof(__half));
        return out;
    };
    const auto device_bits = [&](const SC::DeviceCsr<__half> &a) {
        return bits(download(a.values(), a.nnz(), roundTo<__half>(0)));
    };
    std::vector<__half> from_floats;
    for (const float v : m_float.values) from_floats.push_back(roundTo<__half>(v));  // a float is a double exactly
    EXPECT_EQ(device_bits(from_half), bits(host.values));
    EXPECT_EQ(device_bits(from_double), bits(host.values));
    EXPECT_EQ(device_bits(from_float), bits(from_floats));
    SC::CsrMatrix<__half> broken = host;
    broken.values.pop_back();
    EXPECT_THROW(SC::DeviceCsr<__half>{broken}, std::invalid_argument);
}

// One call captured into a graph, replayed on new x (and new y for beta != 0), for each of ours,
// with the caller's storage at an odd address.
template <class V>
void checkReplays(SpmvAlgorithm algorithm) {
    SCOPED_TRACE(std::string(typeName<V>()) + ", " + SC::spmv_algorithm_name(algorithm));
    const SC::CsrMatrix<double> m = withRowLengths(mixedLengths(freshSeed()), 6000, freshSeed(), eighthValue);
    const SC::CsrMatrix<V> host = rounded<V>(m);
    DeviceArena arena;
    const auto &matrix = arena.own(std::make_unique<SC::DeviceCsr<V>>(host));
    auto &multiply = arena.own(std::make_unique<SC::Spmv<V>>(matrix, algorithm));
    V *d_x = arena.make<V>(host.cols);
    V *d_y = arena.make<V>(host.rows);
    const std::size_t bytes = multiply.temp_bytes();
    void *d_temp = arena.make<char>(bytes + 3) + 3;
    const float alpha = 1.5f, beta = -0.5f;
    std::vector<V> x, y_old;
    captureAndReplay(
        arena, [&](cudaStream_t s) { multiply(alpha, d_x, beta, d_y, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            x = randomVector<V>(host.cols, freshSeed(), eighthValue);
            y_old = randomVector<V>(host.rows, freshSeed(), eighthValue);
            upload(s, d_x, x);
            upload(s, d_y, y_old);
        },
        [&] {
            std::vector<double> t, bound;
            reference(host, x, alpha, beta, y_old, t, bound);
            return close(download(d_y, host.rows, V()), t, bound, Expect::RoundedExactly);
        });
}

TEST_F(GpuSpmvHalf, GraphCaptureReplaysOnNewX) {
    for (const SpmvAlgorithm algorithm :
         {SpmvAlgorithm::Flat, SpmvAlgorithm::MergePath, SpmvAlgorithm::VectorCsr, SpmvAlgorithm::Auto}) {
        checkReplays<__half>(algorithm);
        checkReplays<__nv_bfloat16>(algorithm);
        if (HasFatalFailure()) return;
    }
}

// A generated matrix of real structure through Auto and merge path (both half types), by bound.
TEST_F(GpuSpmvHalf, GeneratedMatrices) {
    for (const SC::CsrMatrix<double> &m : {SC::poisson_2d(64), SC::power_law(20000, 20000, 1.3, 2, freshSeed())}) {
        checkOwned<__half>(m, ours(), Expect::WithinBound, uniformValue);
        checkOwned<__nv_bfloat16>(m, ours(), Expect::WithinBound, uniformValue);
    }
}

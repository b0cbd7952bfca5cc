// The SpMV part on NVBench (issue #48): y = A x (alpha 1, beta 0) in float (spmv_float) and double
// (spmv_double), our Auto against cuSPARSE's CSR ALG1 and ALG2 (cusparse_alg1, cusparse_alg2), on sc_bench's
// matrices: every .mtx file of the matrix directory, in file-name order, then the generated poisson_2d_2048,
// poisson_3d_160 and power_law_2^22 (made as sc_bench makes them). The float matrix is the double one's
// values rounded; x is sc_bench's, uniform in [-1, 1) from std::mt19937(2024), made on the host as there.
// sc_bench's rows of flat, merge_path and vector_csr, and its spmv_<type>_graph rows, are not here.
//
// One benchmark per type and algorithm (spmv_float/auto, spmv_double/cusparse_alg1, ...: names that
// NVBench's --benchmark can pick), its axis param the matrices' names. Rows as sc_bench writes them: n is
// the matrix's nonzeros, param its name, and Auto's implementation is named for what Auto chose for the
// matrix ("auto:vector_csr/8", "auto:merge_path"). Neither can be an axis (a state's axes are a product
// of the benchmark's, and the nonzeros are the matrix's), so each state says them in summaries that
// nvbench_to_csv.py reads: sc/n, and sc/implementation; and sc/flops, sc_bench's 2 per nonzero, which
// NVBench has no counter of. NVBench fixes the axes when a benchmark is
// registered, before main: so the matrices are read and generated when the program starts (a few
// seconds; kept for the states: about 1.3 GB of host memory), and the benchmarks are registered in a
// loop rather than by NVBENCH_BENCH.
//
// The matrix directory: $SC_MATRIX_DIR, else .data/matrices of the working directory (the repository's
// when run from its root, as tools/gpu_check.sh runs sc_nvbench, and sc_bench's third choice; the tests'
// compile definition SC_MATRIX_DIR names the same directory, but sc_nvbench's target is not given it).
// Without that directory, the generated matrices alone; a file that cannot be read is left out, with a
// line on stderr, as sc_bench leaves it out.
//
// Bytes as sc_bench counts them, what an ideal CSR SpMV moves, each array once: the values, column
// indices, row offsets and x read, y written.
// Timing: one multiplication per NVBench run, whose cold runs flush the L2 before each. sc_bench keeps the
// matrix in L2 from one run to the next, as a solver multiplying by it again and again would, and times
// the smaller matrices (under 256 MB of data) 10 calls at a time, launches included: for a matrix that
// fits in L2 these times are the cold L2's, without launch gaps (NVBench's blocking kernel), so not
// sc_bench's (NVBench's batch runs, back to back without a flush, are nearer to them, in the JSON but not
// in the CSV). As in sc_bench, what is made once per matrix is made
// before the timed runs: the Spmv (the merge path's tile corners, the cuSPARSE handle) and one call,
// which makes cuSPARSE's buffer and ALG2's analysis.
//
// Check: y and the temporary storage are poisoned before the timed runs; the y of the last is compared in
// full with the CPU's product of the same matrix and x, each row summed in double: no row may still hold
// the poison's bytes (unwritten), and every |y - y_cpu| must be within 1e-4 (float) or 1e-10 (double) of
// max |y_cpu|, NaN failing (sc_bench's tolerances, which it applies against cuSPARSE ALG1's y: the CPU's
// double sums are nearer the exact product than that y, rounded in V). Auto's choice is checked against
// the plan that plan_spmv makes from the matrix's row lengths. The CPU's product is made once per matrix
// and type, and kept for the other algorithms' states (host_reference.h).
#include "check.cuh"
#include "spmv_inputs.h"

#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using SC::CsrMatrix;
using SC::DeviceBuffer;
using SC::SpmvAlgorithm;
using SC::SpmvPlan;


struct NamedAlgorithm {
    SpmvAlgorithm algorithm;
    const char *name;
};
// sc_bench's names of the algorithms (its kImpls'), which Auto's row also takes for its choice.
constexpr NamedAlgorithm kAlgorithmNames[] = {{SpmvAlgorithm::CusparseCsrAlg1, "cusparse_alg1"},
                                              {SpmvAlgorithm::CusparseCsrAlg2, "cusparse_alg2"},
                                              {SpmvAlgorithm::Flat, "flat"},
                                              {SpmvAlgorithm::MergePath, "merge_path"},
                                              {SpmvAlgorithm::VectorCsr, "vector_csr"},
                                              {SpmvAlgorithm::Auto, "auto"}};
// The algorithms timed, the anchors first as in sc_bench.
constexpr SpmvAlgorithm kTimedAlgorithms[] = {SpmvAlgorithm::CusparseCsrAlg1, SpmvAlgorithm::CusparseCsrAlg2,
                                              SpmvAlgorithm::Auto};

std::string name_of(SpmvAlgorithm algorithm) {
    for (const NamedAlgorithm &named : kAlgorithmNames)
        if (named.algorithm == algorithm) return named.name;
    return "unnamed";
}

// The row's implementation, as sc_bench names it: the algorithm's name; for Auto, "auto:" and the name of
// what it chose, with vector-CSR's lanes ("auto:vector_csr/8").
std::string implementation_name(SpmvAlgorithm algorithm, const SpmvPlan &auto_plan) {
    if (algorithm != SpmvAlgorithm::Auto) return name_of(algorithm);
    std::string name = "auto:" + name_of(auto_plan.algorithm);
    if (auto_plan.lanes_per_row != 0) name += "/" + std::to_string(auto_plan.lanes_per_row);
    return name;
}

struct Matrix {
    std::string name;
    CsrMatrix<double> csr;
    SpmvPlan auto_plan;  // what Auto chooses for it: plan_spmv on its row lengths, as Spmv does
};

std::string matrix_directory() {
    const char *from_environment = std::getenv("SC_MATRIX_DIR");
    return from_environment != nullptr && *from_environment != '\0' ? from_environment : ".data/matrices";
}

// sc_bench's matrices, in its order (spmv_inputs.h). Those that cannot be made are left out, each with a
// line on stderr; so is the directory, if it cannot be read.
std::vector<Matrix> load_matrices() {
    const std::string dir = matrix_directory();
    std::vector<MatrixSource> sources;
    try {
        sources = spmv_matrix_sources(dir);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "sc_nvbench: SpMV reads no file of %s: %s\n", dir.c_str(), e.what());
        sources = spmv_matrix_sources("");
    }
    std::vector<Matrix> matrices;
    for (const MatrixSource &source : sources) {
        try {
            CsrMatrix<double> csr = source.make();
            const SpmvPlan plan = SC::plan_spmv(SC::row_length_stats(csr.row_offsets.data(), csr.row_offsets.size()));
            matrices.push_back({source.name, std::move(csr), plan});
        } catch (const std::exception &e) {
            std::fprintf(stderr, "sc_nvbench: SpMV leaves out %s: %s\n", source.name.c_str(), e.what());
        }
    }
    return matrices;
}

// y = A x on the CPU, each row summed in double.
template <class V>
std::vector<double> cpu_product(const CsrMatrix<V> &a, const std::vector<V> &x) {
    std::vector<double> y(a.rows);
    for (int r = 0; r < a.rows; ++r) {
        double sum = 0;
        for (int k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k)
            sum += static_cast<double>(a.values[k]) * static_cast<double>(x[a.column_indices[k]]);
        y[r] = sum;
    }
    return y;
}

std::string shown(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

// "" when y passes for `expected`: no row holding the poison's bytes, and every |y - expected| within
// `tolerance` of max |expected| (NaN failing); else the first row that fails.
template <class V>
std::string y_mismatch(const std::vector<V> &got, const std::vector<double> &expected, double tolerance) {
    V poison;
    std::memset(&poison, kPoisonByte, sizeof poison);
    double largest = 0;
    for (const double e : expected) largest = std::max(largest, std::fabs(e));
    for (std::size_t r = 0; r < got.size(); ++r) {
        if (std::memcmp(&got[r], &poison, sizeof poison) == 0)
            return "row " + std::to_string(r) + " of " + std::to_string(got.size()) + " unwritten (the poison)";
        if (!(std::fabs(static_cast<double>(got[r]) - expected[r]) <= tolerance * largest))
            return "row " + std::to_string(r) + " of " + std::to_string(got.size()) + ": got " +
                   shown(static_cast<double>(got[r])) + ", expected " + shown(expected[r]) + ", beyond " +
                   shown(tolerance) + " of max |y| " + shown(largest);
    }
    return "";
}

// One state: `algorithm` on `host` (V's values) and sc_bench's x.
template <class V>
void time_multiplication(nvbench::state &state, const CsrMatrix<V> &host, SpmvAlgorithm algorithm,
                         const SpmvPlan &auto_plan) {
    const cudaStream_t stream = state.get_cuda_stream();
    const SC::DeviceCsr<V> matrix(host);
    const std::vector<V> x_host = spmv_vector<V>(host.cols);
    const DeviceBuffer<V> x = DeviceBuffer<V>::from_host(x_host.data(), x_host.size());
    DeviceBuffer<V> y(host.rows);
    const SC::Spmv<V> multiply(matrix, algorithm, stream);
    DeviceBuffer<char> temp(multiply.temp_bytes());
    // The first call makes cuSPARSE's buffer (and ALG2's analysis): made once, as in sc_bench, not timed.
    multiply(V(1), x.get(), V(0), y.get(), temp.get(), temp.bytes(), stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    y.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);

    const std::size_t nnz = matrix.nnz(), rows = host.rows, cols = host.cols;
    state.add_element_count(nnz);
    state.add_global_memory_reads(nnz * (sizeof(V) + sizeof(int)) + (rows + 1) * sizeof(int) + cols * sizeof(V));
    state.add_global_memory_writes<V>(rows);
    // beta = 0: y is only written.
    state.exec([&](nvbench::launch &launch) {
        multiply(V(1), x.get(), V(0), y.get(), temp.get(), temp.bytes(),
                 static_cast<cudaStream_t>(launch.get_stream()));
    });

    std::vector<V> got(rows);
    SC_CUDA_CHECK(cudaMemcpyAsync(got.data(), y.get(), y.bytes(), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::shared_ptr<const std::vector<double>> expected = cached_reference<std::vector<double>>(
        "spmv " + std::string(std::is_same_v<V, float> ? "float " : "double ") + state.get_string("param"),
        [&] { return cpu_product(host, x_host); });
    std::string mismatch = y_mismatch(got, *expected, std::is_same_v<V, float> ? 1e-4 : 1e-10);
    const SpmvPlan chosen{multiply.chosen(), multiply.lanes_per_row()};
    if (mismatch.empty() && algorithm == SpmvAlgorithm::Auto &&
        implementation_name(algorithm, chosen) != implementation_name(algorithm, auto_plan))
        mismatch = "Auto chose " + implementation_name(algorithm, chosen) + ", not plan_spmv's " +
                   implementation_name(algorithm, auto_plan);
    record_check(state, mismatch.empty(), mismatch);
    auto &n_summary = state.add_summary("sc/n");
    n_summary.set_string("name", "Nonzeros");
    n_summary.set_int64("value", static_cast<nvbench::int64_t>(nnz));
    auto &flops = state.add_summary("sc/flops");  // sc_bench's GFLOP/s: 2 per nonzero
    flops.set_string("name", "Flops");
    flops.set_int64("value", static_cast<nvbench::int64_t>(2 * nnz));
    auto &implementation = state.add_summary("sc/implementation");
    implementation.set_string("name", "Kernel");
    implementation.set_string("value", implementation_name(algorithm, chosen));
}

// The program's matrices (read and generated once, before main).
const std::vector<Matrix> &matrices() {
    static const std::vector<Matrix> loaded = load_matrices();
    return loaded;
}

// A benchmark's kernel generator: its algorithm; the state's matrix is the one its param names.
template <class V>
struct SpmvBenchmark {
    SpmvAlgorithm algorithm;

    void operator()(nvbench::state &state, nvbench::type_list<>) const {
        const std::string &name = state.get_string("param");
        const auto matrix = std::find_if(matrices().begin(), matrices().end(),
                                         [&](const Matrix &m) { return m.name == name; });
        if (matrix == matrices().end()) {
            state.skip("no matrix named " + name);
            return;
        }
        if constexpr (std::is_same_v<V, double>)
            time_multiplication(state, matrix->csr, algorithm, matrix->auto_plan);
        else
            time_multiplication(state, SC::convert_values<V>(matrix->csr), algorithm, matrix->auto_plan);
    }
};

// Name "<operation>/<algorithm>", axis param (the matrices, in sc_bench's order); n and Auto's kernel in
// the states' summaries: nvbench_to_csv.py.
template <class V>
void register_spmv(SpmvAlgorithm algorithm, const std::vector<std::string> &names) {
    const std::string operation = std::is_same_v<V, float> ? "spmv_float" : "spmv_double";
    nvbench::benchmark_manager::get()
        .add(std::make_unique<nvbench::benchmark<SpmvBenchmark<V>>>(SpmvBenchmark<V>{algorithm}))
        .set_name(operation + "/" + name_of(algorithm))
        .add_string_axis("param", names);
}

// As sc_bench runs them: float's algorithms, then double's (each over every matrix).
bool register_spmv_benchmarks() {
    std::vector<std::string> names;
    for (const Matrix &matrix : matrices()) names.push_back(matrix.name);
    if (names.empty()) return false;  // none could be made: each was named on stderr
    for (const SpmvAlgorithm algorithm : kTimedAlgorithms) register_spmv<float>(algorithm, names);
    for (const SpmvAlgorithm algorithm : kTimedAlgorithms) register_spmv<double>(algorithm, names);
    return true;
}

[[maybe_unused]] const bool kSpmvRegistered = register_spmv_benchmarks();

}  // namespace
}  // namespace bench

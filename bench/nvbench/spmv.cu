// The SpMV part on NVBench (issue #48): y = A x (alpha 1, beta 0) in float (spmv_float) and double
// (spmv_double): cuSPARSE's CSR ALG1 and ALG2 (cusparse_alg1, cusparse_alg2), the anchors, and ours, flat,
// merge_path, vector_csr (at the lanes Spmv plans from the mean row length) and Auto; then, for the small
// matrices, spmv_float_graph and spmv_double_graph: the same algorithms, a batch of kGraphCalls
// multiplications captured in one CUDA graph and replayed, the kernels' time without the launches'. On
// spmv_inputs.h's matrices: in the full profile (profile.h) every .mtx file of the matrix directory, in
// file-name order, then the generated poisson_2d_2048, poisson_3d_160 and power_law_2^22. The float matrix
// is the double one's values rounded; x is uniform in [-1, 1) from std::mt19937(2024), made on the host.
//
// One benchmark per operation and algorithm (spmv_float/auto, spmv_double/cusparse_alg1,
// spmv_float_graph/merge_path, ...: names that NVBench's --benchmark can pick), in this order: float's
// algorithms, float's graphs, then double's; its axis param the matrices' names, a graph benchmark's only
// those with graph rows (has_graph_rows: under kGraphRowsBelowBytes of data in that type, so the float and
// double lists can differ). In the rows, n is the matrix's nonzeros, param its name, and Auto's
// implementation is named for what Auto chose for the matrix ("auto:vector_csr/8", "auto:merge_path").
// Neither can be an axis (a state's axes are a product of the benchmark's, and the nonzeros are the
// matrix's), so each state says them in summaries that nvbench_to_csv.py reads: sc/n, and
// sc/implementation; and sc/flops, 2 per nonzero, which NVBench has no counter of. NVBench fixes the axes
// when a benchmark is registered, before main: so the matrices are read and generated when the program
// starts (a few seconds; kept for the states: about 1.3 GB of host memory), and the benchmarks are
// registered in a loop rather than by NVBENCH_BENCH.
//
// The matrix directory: $SC_MATRIX_DIR, else .data/matrices of the working directory (the repository's
// when run from its root, as tools/gpu_check.sh runs sc_nvbench; the tests' compile definition
// SC_MATRIX_DIR names the same directory, but sc_nvbench's targets are not given it). Without that
// directory, the generated matrices alone; a file that cannot be read is left out, with a line on stderr.
//
// Bytes: what an ideal CSR SpMV moves, each array once: the values, column indices, row offsets and x
// read, y written. Bytes, items and sc/flops are those of one NVBench run: one multiplication's, or in a
// graph state kGraphCalls times them.
// Timing: one multiplication per NVBench run (spmv_<type>'s states), whose cold runs flush the L2 before
// each: for a matrix that fits in L2 these times are the cold L2's, without launch gaps (NVBench's
// blocking kernel), not those of a solver that multiplies by the matrix again and again and finds it in
// L2 (NVBench's batch runs, back to back without a flush, are nearer to those, in the JSON but not in the
// CSV; so are the graph states). What is made once per matrix is made before the timed runs: the Spmv
// (the merge path's tile corners, the cuSPARSE handle) and one call, which makes cuSPARSE's buffer and
// ALG2's analysis.
// A graph state's NVBench run is one cudaGraphLaunch, on NVBench's stream, of the graph captured before
// the timed runs (on a stream of its own), whose kGraphCalls multiplications run back to back: the first
// finds the L2 flushed, the others what the one before left there. NVBench times the whole launch and has
// no divisor of a state's time (only its bytes and items divide it): so its median is of kGraphCalls
// multiplications, which the state says in its summary sc/calls_per_run, and the CSV's median_ms is that
// median over sc/calls_per_run (nvbench_to_csv.py divides it). Its rates need no division: the bytes,
// items and flops are the run's.
//
// Check: y and the temporary storage are poisoned before the timed runs; the y of the last is compared in
// full with the CPU's product of the same matrix and x, each row summed in double: no row may still hold
// the poison's bytes (unwritten), and every |y - y_cpu| must be within 1e-4 (float) or 1e-10 (double) of
// max |y_cpu|, NaN failing (tolerances set for a comparison with cuSPARSE ALG1's y, rounded in V: the
// CPU's double sums are nearer the exact product than that y). Auto's choice is checked against the plan that plan_spmv
// makes from the matrix's row lengths. The CPU's product is made once per matrix and type, and kept for
// the other algorithms' states, the graph states' included (host_reference.h).
#include "check.cuh"
#include "profile.h"
#include "spmv_inputs.h"

#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
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
// The algorithms' names, in the benchmarks' names and the rows; Auto's row also takes them for its choice.
constexpr NamedAlgorithm kAlgorithmNames[] = {{SpmvAlgorithm::CusparseCsrAlg1, "cusparse_alg1"},
                                              {SpmvAlgorithm::CusparseCsrAlg2, "cusparse_alg2"},
                                              {SpmvAlgorithm::Flat, "flat"},
                                              {SpmvAlgorithm::MergePath, "merge_path"},
                                              {SpmvAlgorithm::VectorCsr, "vector_csr"},
                                              {SpmvAlgorithm::Auto, "auto"}};
// The algorithms timed, in order: the anchors first.
constexpr SpmvAlgorithm kTimedAlgorithms[] = {SpmvAlgorithm::CusparseCsrAlg1, SpmvAlgorithm::CusparseCsrAlg2,
                                              SpmvAlgorithm::Flat,            SpmvAlgorithm::MergePath,
                                              SpmvAlgorithm::VectorCsr,       SpmvAlgorithm::Auto};

// How a state runs its multiplications: one call per NVBench run (spmv_<type>), or kGraphCalls calls
// captured in one CUDA graph, one launch of it per run (spmv_<type>_graph).
enum class Timing { Direct, Graph };

// The multiplications a graph state's graph holds, back to back.
constexpr int kGraphCalls = 10;

std::string name_of(SpmvAlgorithm algorithm) {
    for (const NamedAlgorithm &named : kAlgorithmNames)
        if (named.algorithm == algorithm) return named.name;
    return "unnamed";
}

// The row's implementation: the algorithm's name; for Auto, "auto:" and the name of
// what it chose, with vector-CSR's lanes ("auto:vector_csr/8").
std::string implementation_name(SpmvAlgorithm algorithm, const SpmvPlan &auto_plan) {
    if (algorithm != SpmvAlgorithm::Auto) return name_of(algorithm);
    std::string name = "auto:" + name_of(auto_plan.algorithm);
    if (auto_plan.lanes_per_row != 0) name += "/" + std::to_string(auto_plan.lanes_per_row);
    return name;
}

// The bytes of one multiplication in V (the top comment): those read, and those written.
template <class V>
std::size_t read_bytes(std::size_t rows, std::size_t cols, std::size_t nnz) {
    return nnz * (sizeof(V) + sizeof(int)) + (rows + 1) * sizeof(int) + cols * sizeof(V);
}
template <class V>
std::size_t written_bytes(std::size_t rows) {
    return rows * sizeof(V);
}

// The graph rows' matrices: under this much data (the matrix in V, x and y), where the launches' cost is
// a large part of a call's time; the replayed graph repeats one call on the same data, as a solver's
// iterations do, so a matrix of this size is largely in L2 (50-60 MiB) from the previous call.
constexpr std::size_t kGraphRowsBelowBytes = std::size_t{256} << 20;

// Whether the matrix in V has graph rows: under kGraphRowsBelowBytes of data.
template <class V>
bool has_graph_rows(const CsrMatrix<double> &matrix) {
    const std::size_t rows = matrix.rows, cols = matrix.cols;
    return read_bytes<V>(rows, cols, matrix.nnz()) + written_bytes<V>(rows) < kGraphRowsBelowBytes;
}

// `calls` calls of call(stream) captured on `stream` (thread-local mode) and instantiated, given back when it
// goes. A call that throws ends the capture, so that the stream can be used again.
class CapturedGraph {
  public:
    template <class Call>
    CapturedGraph(cudaStream_t stream, int calls, Call call) {
        SC_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        cudaGraph_t graph = nullptr;
        try {
            for (int i = 0; i < calls; ++i) call(stream);
        } catch (...) {
            if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph != nullptr) cudaGraphDestroy(graph);
            throw;
        }
        SC_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
        const cudaError_t instantiated = cudaGraphInstantiate(&exec_, graph, 0);
        SC_CUDA_CHECK(cudaGraphDestroy(graph));
        SC_CUDA_CHECK(instantiated);
    }
    ~CapturedGraph() {
        if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    }
    CapturedGraph(const CapturedGraph &) = delete;
    CapturedGraph &operator=(const CapturedGraph &) = delete;
    cudaGraphExec_t get() const { return exec_; }

  private:
    cudaGraphExec_t exec_ = nullptr;
};

struct Matrix {
    std::string name;
    CsrMatrix<double> csr;
    SpmvPlan auto_plan;  // what Auto chooses for it: plan_spmv on its row lengths, as Spmv does
};

std::string matrix_directory() {
    const char *from_environment = std::getenv("SC_MATRIX_DIR");
    return from_environment != nullptr && *from_environment != '\0' ? from_environment : ".data/matrices";
}

// The matrices (spmv_inputs.h): the matrix directory's files (in the full profile alone: profile.h), then
// the generated ones. Those that cannot be made are left out, each with a line on stderr; so is the
// directory, if it cannot be read.
std::vector<Matrix> load_matrices() {
    const std::string dir = profile() == Profile::Full ? matrix_directory() : "";
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

// A new stream that does not synchronize with the legacy default stream.
inline cudaStream_t non_blocking_stream() {
    cudaStream_t stream = nullptr;
    SC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return stream;
}

// One state: `algorithm` on `host` (V's values) and spmv_vector's x, timed as `timing` says.
template <class V>
void time_multiplication(nvbench::state &state, const CsrMatrix<V> &host, SpmvAlgorithm algorithm,
                         const SpmvPlan &auto_plan, Timing timing) {
    const cudaStream_t stream = state.get_cuda_stream();
    // A graph's capture stream: non-blocking, unlike NVBench's (cudaStreamCreate), whose capture any work on
    // the legacy default stream would invalidate (cudaErrorStreamCaptureImplicit); made before the Spmv, to
    // outlive it: a cuSPARSE Spmv's handle keeps the stream of its last call, a captured one.
    std::optional<nvbench::cuda_stream> capture;
    if (timing == Timing::Graph) capture.emplace(non_blocking_stream(), /*owning=*/true);
    const SC::DeviceCsr<V> matrix(host);
    const std::vector<V> x_host = spmv_vector<V>(host.cols);
    const DeviceBuffer<V> x = DeviceBuffer<V>::from_host(x_host.data(), x_host.size());
    DeviceBuffer<V> y(host.rows);
    const SC::Spmv<V> multiply(matrix, algorithm, stream);
    DeviceBuffer<char> temp(multiply.temp_bytes());
    // beta = 0: y is only written.
    const auto call = [&](cudaStream_t on) {
        multiply(V(1), x.get(), V(0), y.get(), temp.get(), temp.bytes(), on);
    };
    // The first call makes cuSPARSE's buffer (and ALG2's analysis): made once per matrix, as a solver makes
    // it, not timed (nor captured).
    call(stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    y.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);

    const std::size_t nnz = matrix.nnz(), rows = host.rows, cols = host.cols;
    const std::size_t calls = timing == Timing::Graph ? kGraphCalls : 1;  // multiplications per NVBench run
    state.add_element_count(calls * nnz);
    state.add_global_memory_reads(calls * read_bytes<V>(rows, cols, nnz));
    state.add_global_memory_writes(calls * written_bytes<V>(rows));
    if (timing == Timing::Direct) {
        state.exec([&](nvbench::launch &launch) { call(static_cast<cudaStream_t>(launch.get_stream())); });
    } else {
        const CapturedGraph graph(*capture, kGraphCalls, call);
        // Stream-ordered, as a kernel launch is: NVBench's events around it time the whole graph.
        state.exec([&](nvbench::launch &launch) {
            SC_CUDA_CHECK(cudaGraphLaunch(graph.get(), static_cast<cudaStream_t>(launch.get_stream())));
        });
    }

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
    auto &flops = state.add_summary("sc/flops");  // for GFLOP/s: 2 per nonzero and multiplication
    flops.set_string("name", "Flops");
    flops.set_int64("value", static_cast<nvbench::int64_t>(2 * nnz * calls));
    auto &implementation = state.add_summary("sc/implementation");
    implementation.set_string("name", "Kernel");
    implementation.set_string("value", implementation_name(algorithm, chosen));
    if (timing == Timing::Graph) {
        // NVBench's times are the graph's: the CSV's median_ms is theirs over this (nvbench_to_csv.py).
        auto &per_run = state.add_summary("sc/calls_per_run");
        per_run.set_string("name", "Calls");
        per_run.set_string("description", "multiplications per timed run: the CSV's time is the run's over them");
        per_run.set_int64("value", static_cast<nvbench::int64_t>(calls));
    }
}

// The program's matrices (read and generated once, before main).
const std::vector<Matrix> &matrices() {
    static const std::vector<Matrix> loaded = load_matrices();
    return loaded;
}

// A benchmark's kernel generator: its algorithm and timing; the state's matrix is the one its param names.
template <class V>
struct SpmvBenchmark {
    SpmvAlgorithm algorithm;
    Timing timing;

    void operator()(nvbench::state &state, nvbench::type_list<>) const {
        const std::string &name = state.get_string("param");
        const auto matrix = std::find_if(matrices().begin(), matrices().end(),
                                         [&](const Matrix &m) { return m.name == name; });
        if (matrix == matrices().end()) {
            state.skip("no matrix named " + name);
            return;
        }
        // Not on the registered axis, but a command line's --axis can name any matrix.
        if (timing == Timing::Graph && !has_graph_rows<V>(matrix->csr)) {
            state.skip(name + " has " + std::to_string(kGraphRowsBelowBytes >> 20) +
                       " MiB of data or more: timed one call at a time, in no graph");
            return;
        }
        if constexpr (std::is_same_v<V, double>)
            time_multiplication(state, matrix->csr, algorithm, matrix->auto_plan, timing);
        else
            time_multiplication(state, SC::convert_values<V>(matrix->csr), algorithm, matrix->auto_plan, timing);
    }
};

// Name "<operation>/<algorithm>" (operation spmv_<type>, or spmv_<type>_graph), axis param (`names`, in
// load_matrices's order); n, Auto's kernel and a graph's calls in the states' summaries: nvbench_to_csv.py.
template <class V>
void register_spmv(SpmvAlgorithm algorithm, Timing timing, const std::vector<std::string> &names) {
    const std::string operation = std::string(std::is_same_v<V, float> ? "spmv_float" : "spmv_double") +
                                  (timing == Timing::Graph ? "_graph" : "");
    nvbench::benchmark_manager::get()
        .add(std::make_unique<nvbench::benchmark<SpmvBenchmark<V>>>(SpmvBenchmark<V>{algorithm, timing}))
        .set_name(operation + "/" + name_of(algorithm))
        .add_string_axis("param", names);
}

// One type's benchmarks: every algorithm over every matrix, then every algorithm's graph over the matrices
// that have graph rows in V (none registered where there is none).
template <class V>
void register_type(const std::vector<std::string> &names) {
    for (const SpmvAlgorithm algorithm : kTimedAlgorithms) register_spmv<V>(algorithm, Timing::Direct, names);
    std::vector<std::string> small;
    for (const Matrix &matrix : matrices())
        if (has_graph_rows<V>(matrix.csr)) small.push_back(matrix.name);
    if (small.empty()) return;
    for (const SpmvAlgorithm algorithm : kTimedAlgorithms) register_spmv<V>(algorithm, Timing::Graph, small);
}

// In the order they run: float's, then double's.
bool register_spmv_benchmarks() {
    std::vector<std::string> names;
    for (const Matrix &matrix : matrices()) names.push_back(matrix.name);
    if (names.empty()) return false;  // none could be made: each was named on stderr
    register_type<float>(names);
    register_type<double>(names);
    return true;
}

[[maybe_unused]] const bool kSpmvRegistered = register_spmv_benchmarks();

}  // namespace
}  // namespace bench

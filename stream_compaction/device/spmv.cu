// The compiled part of device/spmv.cuh: the Spmv class for float, double, __half and
// __nv_bfloat16, 32- and 64-bit offsets; flat and merge path on the segmented transforms, vector
// CSR (detail/spmv/), cuSPARSE. S is spmv_scalar_t<V> (detail/spmv/value_types.h): the functors
// widen 16-bit values to float where they load them, and round to V only where they store y.
#include <stream_compaction/device/spmv.cuh>

#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/spmv/check_csr.cuh>
#include <stream_compaction/detail/spmv/vector_csr.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/tuning/policies.h>

#include <cusparse.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cuda/execution_policy.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace StreamCompaction {

static std::string describe_cusparse(int status, const char *call, const char *file, int line) {
    const auto code = static_cast<cusparseStatus_t>(status);
    return std::string("cuSPARSE error (") + file + ":" + std::to_string(line) + "): " + call + ": " +
           cusparseGetErrorString(code) + " (" + cusparseGetErrorName(code) + ")";
}

cusparse_error::cusparse_error(int status, const char *call, const char *file, int line)
    : std::runtime_error(describe_cusparse(status, call, file, line)), status_(status) {}

}  // namespace StreamCompaction

#define SC_CUSPARSE_CHECK(call)                                                                 \
    do {                                                                                        \
        const cusparseStatus_t sc_status_ = (call);                                             \
        if (sc_status_ != CUSPARSE_STATUS_SUCCESS)                                              \
            throw ::StreamCompaction::cusparse_error(sc_status_, #call, __FILE__, __LINE__);    \
    } while (0)

namespace StreamCompaction {

namespace {

using detail::BitHeads;
using detail::scaled_old;
using detail::spmv_round;
using detail::spmv_widen;


// ---- flat: gather, multiply, segmented scan, last element of each row ----

// Per row, beside the head bits: a non-empty row's last nonzero learns its row; an empty row's
// result, beta * y, is written here since no nonzero will.
template <class V>
struct FlatRowSetup {
    int *row_of_last;
    V *y;
    spmv_scalar_t<V> beta;
    template <class Offset>
    __device__ void operator()(std::size_t row, Offset start, Offset end) const {
        if (start < end) row_of_last[end - 1] = static_cast<int>(row);
        else y[row] = spmv_round<V>(scaled_old(y, static_cast<long long>(row), beta));
    }
};

// The scan runs on S: 16-bit products are scanned in float.
template <class V>
struct FlatProductLoad {
    const V *values;
    const int *column_indices;
    const V *x;
    BitHeads heads;
    __device__ SegmentedPair<spmv_scalar_t<V>> operator()(std::size_t k) const {
        return {heads(k), spmv_widen(values[k]) * spmv_widen(x[column_indices[k]])};
    }
};

// Element k ends its row when the next element starts one, or is the last.
template <class V>
struct FlatRowEndStore {
    BitHeads heads;
    const int *row_of_last;
    V *y;
    spmv_scalar_t<V> alpha, beta;
    std::size_t nnz;
    __device__ void operator()(std::size_t k, const SegmentedPair<spmv_scalar_t<V>> &scanned) const {
        if (k + 1 == nnz || heads(k + 1)) {
            const int row = row_of_last[k];
            y[row] = spmv_round<V>(alpha * scanned.value + scaled_old(y, row, beta));
        }
    }
};

// Storage: the row heads as bits, each non-empty row's last nonzero's row, the scan's storage (of
// pairs of the compute type S).
template <class S>
detail::TempLayout<3> flat_layout(std::size_t nnz) {
    return detail::temp_layout(detail::head_bit_words(nnz) * sizeof(unsigned), nnz * sizeof(int),
                               scan_temp_bytes<SegmentedPair<S>>(nnz));
}

template <class V, class Offset>
void flat_spmv(const CsrView<V, Offset> &a, spmv_scalar_t<V> alpha, const V *x, spmv_scalar_t<V> beta, V *y,
               void *d_temp, const CallEnvironment &env) {
    using S = spmv_scalar_t<V>;
    const auto pieces = flat_layout<S>(a.nnz()).carve(d_temp);
    unsigned *bits = reinterpret_cast<unsigned *>(pieces[0]);
    int *row_of_last = reinterpret_cast<int *>(pieces[1]);
    detail::build_head_bits(a.row_offsets(), a.rows(), a.nnz(), bits, env.stream,
                            FlatRowSetup<V>{row_of_last, y, beta});
    const BitHeads heads{bits};
    transform_inclusive_scan<SegmentedPair<S>>(
        a.nnz(), FlatProductLoad<V>{a.values(), a.column_indices(), x, heads},
        FlatRowEndStore<V>{heads, row_of_last, y, alpha, beta, a.nnz()}, SegmentedOp<Sum>{Sum{}}, pieces[2],
        scan_temp_bytes<SegmentedPair<S>>(a.nnz()), env);
}

// ---- merge path ----

// The reduction runs on S: 16-bit products are summed in float.
template <class V>
struct ProductLoad {
    const V *values;
    const int *column_indices;
    const V *x;
    __device__ spmv_scalar_t<V> operator()(long long k) const {
        return spmv_widen(values[k]) * spmv_widen(x[column_indices[k]]);
    }
};

template <class V>
struct AxpbyStore {
    V *y;
    spmv_scalar_t<V> alpha, beta;
    __device__ void operator()(long long row, const spmv_scalar_t<V> &sum) const {
        y[row] = spmv_round<V>(alpha * sum + scaled_old(y, row, beta));
    }
};

// ---- the plan ----

// The row-length statistics of a matrix in device memory, from a host copy of its row offsets.
template <class V, class Offset>
SpmvRowStats device_row_length_stats(const CsrView<V, Offset> &matrix) {
    std::vector<Offset> offsets(static_cast<std::size_t>(matrix.rows()) + 1);
    SC_CUDA_CHECK(cudaMemcpy(offsets.data(), matrix.row_offsets(), offsets.size() * sizeof(Offset),
                             cudaMemcpyDeviceToHost));
    return row_length_stats(offsets.data(), offsets.size());
}

// Auto and VectorCsr without lanes made concrete from the matrix's statistics; any other plan as
// it is, once its lanes are checked.
template <class V, class Offset>
SpmvPlan resolve_plan(const CsrView<V, Offset> &matrix, SpmvPlan plan) {
    const int lanes = plan.lanes_per_row;
    if (lanes != 0 && (plan.algorithm != SpmvAlgorithm::VectorCsr || lanes < 2 || lanes > detail::kWarpThreads ||
                       (lanes & (lanes - 1)) != 0))
        throw std::invalid_argument("Spmv: lanes per row are for vector-csr only, a power of two in [2, 32]; got " +
                                    std::to_string(lanes) + " for " + spmv_algorithm_name(plan.algorithm));
    if (plan.algorithm == SpmvAlgorithm::Auto) return plan_spmv(device_row_length_stats(matrix));
    if (plan.algorithm == SpmvAlgorithm::VectorCsr && lanes == 0)
        return {SpmvAlgorithm::VectorCsr, vector_csr_lanes(device_row_length_stats(matrix).mean)};
    return plan;
}

// The cuSPARSE type of the values, x and y. The compute type (and alpha's and beta's) is that of
// S: CUDA_R_32F for the 16-bit types, the mixed precision cusparseSpMV documents for A, x and y
// all CUDA_R_16F or all CUDA_R_16BF.
template <class V>
constexpr cudaDataType cuda_type() {
    if constexpr (std::is_same_v<V, __half>) return CUDA_R_16F;
    else if constexpr (std::is_same_v<V, __nv_bfloat16>) return CUDA_R_16BF;
    else return std::is_same_v<V, float> ? CUDA_R_32F : CUDA_R_64F;
}

template <class Offset>
constexpr cusparseIndexType_t cusparse_index_type() {
    return sizeof(Offset) == 8 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
}

cusparseSpMVAlg_t cusparse_algorithm(SpmvAlgorithm algorithm) {
    return algorithm == SpmvAlgorithm::CusparseCsrAlg1 ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
}

// cuSPARSE's generic API takes a data type only on GPUs with native support for it (else
// CUSPARSE_STATUS_ARCH_MISMATCH, at the first multiplication): bfloat16 from compute capability 8.0.
// Refused when the Spmv is made, by name; our own algorithms widen it to float on any GPU.
void require_native_bfloat16(SpmvAlgorithm algorithm) {
    int device = 0, major = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    if (major < 8)
        throw std::invalid_argument(std::string("Spmv: ") + spmv_algorithm_name(algorithm) +
                                    " takes __nv_bfloat16 values only on compute capability 8.0 or newer "
                                    "(cuSPARSE needs native bfloat16); flat, merge-path and vector-csr take them "
                                    "on any GPU");
}

}  // namespace

// The cuSPARSE state: made with the plan; the vector descriptors, the buffer and the ALG2
// preprocessing on the first multiplication (they need the vectors), the descriptors again only
// when the caller passes other vectors.
template <class V, class Offset>
struct Spmv<V, Offset>::Cusparse {
    cusparseHandle_t handle = nullptr;
    cusparseConstSpMatDescr_t matrix = nullptr;
    cusparseConstDnVecDescr_t x = nullptr;
    cusparseDnVecDescr_t y = nullptr;
    const V *x_data = nullptr;
    V *y_data = nullptr;
    ResourceBuffer buffer;        // from the plan's resource, on the stream of the first call
    ResourceBuffer wide_columns;  // for 64-bit offsets (cuSPARSE wants one index width): int64_t
    bool prepared = false;

    ~Cusparse() {  // no throw from a destructor: release what exists
        if (x) cusparseDestroyDnVec(x);
        if (y) cusparseDestroyDnVec(y);
        if (matrix) cusparseDestroySpMat(matrix);
        if (handle) cusparseDestroy(handle);
    }
};

template <class V, class Offset>
Spmv<V, Offset>::Spmv(CsrView<V, Offset> matrix, const CallEnvironment &env)
    : Spmv(matrix, SpmvAlgorithm::Auto, env) {}

template <class V, class Offset>
Spmv<V, Offset>::Spmv(CsrView<V, Offset> matrix, SpmvAlgorithm algorithm, const CallEnvironment &env)
    : Spmv(matrix, SpmvPlan{algorithm}, env) {}

template <class V, class Offset>
Spmv<V, Offset>::Spmv(CsrView<V, Offset> matrix, SpmvPlan plan, const CallEnvironment &env)
    : matrix_(matrix), plan_(resolve_plan(matrix, plan)), memory_(&env.memory_resource()) {
    switch (plan_.algorithm) {
    case SpmvAlgorithm::Flat: temp_bytes_ = flat_layout<Scalar>(matrix.nnz()).bytes(); break;
    case SpmvAlgorithm::MergePath:
        temp_bytes_ = segmented_reduce_temp_bytes<Scalar>(matrix.nnz(), matrix.rows());
        plan_corners_ = ResourceBuffer(
            *memory_, detail::merge_path_plan_entries(matrix.nnz(), matrix.rows()) * sizeof(long long), env.stream);
        if (matrix.rows() > 0)
            plan_threads_ = detail::make_merge_path_plan<Scalar>(matrix.row_offsets(), matrix.rows(), matrix.nnz(),
                                                            plan_corners_.as<long long>(), env)
                                .threads;
        // The plan is done before the object is used, on whatever stream.
        SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
        break;
    case SpmvAlgorithm::VectorCsr: break;  // nothing to prepare, no temporary storage
    case SpmvAlgorithm::CusparseCsrAlg1:
    case SpmvAlgorithm::CusparseCsrAlg2: {
        if constexpr (std::is_same_v<V, __nv_bfloat16>) require_native_bfloat16(plan_.algorithm);
        cusparse_ = std::make_unique<Cusparse>();
        SC_CUSPARSE_CHECK(cusparseCreate(&cusparse_->handle));
        const void *columns = matrix.column_indices();
        if constexpr (sizeof(Offset) == 8) {
            // cuSPARSE takes row offsets and column indices of one width only (it reports 64-bit
            // offsets with 32-bit columns as not supported): a 64-bit copy of the columns.
            cusparse_->wide_columns = ResourceBuffer(*memory_, matrix.nnz() * sizeof(std::int64_t), env.stream);
            thrust::copy(thrust::cuda::par_nosync.on(env.stream), matrix.column_indices(),
                         matrix.column_indices() + matrix.nnz(), cusparse_->wide_columns.template as<std::int64_t>());
            SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));  // ready for calls on any stream
            columns = cusparse_->wide_columns.get();
        }
        SC_CUSPARSE_CHECK(cusparseCreateConstCsr(&cusparse_->matrix, matrix.rows(), matrix.cols(),
                                                 static_cast<int64_t>(matrix.nnz()), matrix.row_offsets(), columns,
                                                 matrix.values(), cusparse_index_type<Offset>(),
                                                 cusparse_index_type<Offset>(), CUSPARSE_INDEX_BASE_ZERO,
                                                 cuda_type<V>()));
        break;
    }
    default: throw std::invalid_argument("Spmv: unknown algorithm");
    }
}

template <class V, class Offset>
Spmv<V, Offset>::~Spmv() = default;

template <class V, class Offset>
void Spmv<V, Offset>::operator()(Scalar alpha, const V *d_x, Scalar beta, V *d_y, const CallEnvironment &env) const {
    if (temp_bytes_ == 0 || matrix_.rows() == 0) {
        (*this)(alpha, d_x, beta, d_y, nullptr, 0, env);
        return;
    }
    detail::with_temp_storage(temp_bytes_, env, [&](void *d_temp) {
        (*this)(alpha, d_x, beta, d_y, d_temp, temp_bytes_, env);
    });
}

template <class V, class Offset>
void Spmv<V, Offset>::operator()(Scalar alpha, const V *d_x, Scalar beta, V *d_y, void *d_temp,
                                 std::size_t temp_bytes, const CallEnvironment &env) const {
    const cudaStream_t stream = env.stream;
    const CsrView<V, Offset> &a = matrix_;
    if (a.rows() == 0) return;
    if (d_y == nullptr || (a.cols() > 0 && d_x == nullptr)) throw std::invalid_argument("Spmv: null vector");
    const SpmvAlgorithm algorithm = plan_.algorithm;
    SC_NVTX_RANGE(algorithm == SpmvAlgorithm::Flat        ? "spmv (flat)"
                  : algorithm == SpmvAlgorithm::MergePath ? "spmv (merge path)"
                  : algorithm == SpmvAlgorithm::VectorCsr ? "spmv (vector CSR)"
                                                          : "spmv (cuSPARSE)");
    switch (algorithm) {
    case SpmvAlgorithm::Flat:
        require_temp_storage("Spmv (flat)", d_temp, temp_bytes, temp_bytes_);
        flat_spmv(a, alpha, d_x, beta, d_y, d_temp, env);
        return;
    case SpmvAlgorithm::MergePath:
        detail::merge_path_reduce_planned("Spmv (merge path)",
                                          detail::MergePathPlan{plan_corners_.as<long long>(), plan_threads_},
                                          a.row_offsets(), a.rows(), a.nnz(),
                                          ProductLoad<V>{a.values(), a.column_indices(), d_x},
                                          AxpbyStore<V>{d_y, alpha, beta}, Sum{}, Scalar(0), d_temp, temp_bytes,
                                          stream);
        return;
    case SpmvAlgorithm::VectorCsr:
        detail::vector_csr_spmv(a.row_offsets(), a.rows(),
                                detail::VectorCsrArgs<V>{a.column_indices(), a.values(), d_x,
                                                         detail::aligned16(a.column_indices()) &&
                                                             detail::aligned16(a.values())},
                                plan_.lanes_per_row, alpha, beta, d_y, stream);
        return;
    default: multiply_cusparse(alpha, d_x, beta, d_y, stream); return;
    }
}

template <class V, class Offset>
void Spmv<V, Offset>::multiply_cusparse(Scalar alpha, const V *d_x, Scalar beta, V *d_y, cudaStream_t stream) const {
    const CsrView<V, Offset> &a = matrix_;
    Cusparse &c = *cusparse_;
    const cusparseSpMVAlg_t alg = cusparse_algorithm(plan_.algorithm);
    SC_CUSPARSE_CHECK(cusparseSetStream(c.handle, stream));
    if (c.x_data != d_x || c.y_data != d_y || c.x == nullptr) {
        if (c.x) SC_CUSPARSE_CHECK(cusparseDestroyDnVec(c.x));
        c.x = nullptr;
        SC_CUSPARSE_CHECK(cusparseCreateConstDnVec(&c.x, a.cols(), d_x, cuda_type<V>()));
        if (c.y) SC_CUSPARSE_CHECK(cusparseDestroyDnVec(c.y));
        c.y = nullptr;
        SC_CUSPARSE_CHECK(cusparseCreateDnVec(&c.y, a.rows(), d_y, cuda_type<V>()));
        c.x_data = d_x;
        c.y_data = d_y;
    }
    if (!c.prepared) {
        std::size_t bytes = 0;
        SC_CUSPARSE_CHECK(cusparseSpMV_bufferSize(c.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c.matrix, c.x,
                                                  &beta, c.y, cuda_type<Scalar>(), alg, &bytes));
        c.buffer = ResourceBuffer(*memory_, bytes, stream);
        if (plan_.algorithm == SpmvAlgorithm::CusparseCsrAlg2)
            SC_CUSPARSE_CHECK(cusparseSpMV_preprocess(c.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c.matrix,
                                                      c.x, &beta, c.y, cuda_type<Scalar>(), alg, c.buffer.get()));
        c.prepared = true;
    }
    SC_CUSPARSE_CHECK(cusparseSpMV(c.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c.matrix, c.x, &beta, c.y,
                                   cuda_type<Scalar>(), alg, c.buffer.get()));
}

// ---- the check of a view's promises ----

template <class V, class Offset>
void check_csr_on_device(const CsrView<V, Offset> &matrix, const CallEnvironment &env) {
    if (matrix.rows() == 0) return;  // no arrays to read (the view refuses nonzeros without rows)
    const cudaStream_t stream = env.stream;
    const ResourceBuffer verdict_storage(env.memory_resource(), sizeof(unsigned), stream);
    unsigned *const verdict_word = verdict_storage.as<unsigned>();
    SC_CUDA_CHECK(cudaMemsetAsync(verdict_word, 0, sizeof(unsigned), stream));
    const std::size_t items = std::max(static_cast<std::size_t>(matrix.rows()) + 1, matrix.nnz());
    const int threads = 256;
    const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((items + threads - 1) / threads, 4096));
    detail::launch(detail::check_csr_kernel<Offset>, "check_csr_kernel", blocks, threads, 0, stream,
                   matrix.row_offsets(), matrix.rows(), matrix.column_indices(), static_cast<long long>(matrix.nnz()),
                   matrix.cols(), verdict_word);
    unsigned found = 0;
    SC_CUDA_CHECK(cudaMemcpyAsync(&found, verdict_word, sizeof(unsigned), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto fail = [](const char *rule) { throw std::invalid_argument(std::string("invalid CSR matrix: ") + rule); };
    if (found & detail::kFirstOffsetNotZero) fail("first row offset not 0");
    if (found & detail::kOffsetsDecrease) fail("row offsets decreasing");
    if (found & detail::kLastOffsetNotNnz) fail("last row offset not equal to the number of nonzeros");
    if (found & detail::kColumnOutOfRange) fail("a column index outside [0, cols)");
}

template void check_csr_on_device(const CsrView<float, int> &, const CallEnvironment &);
template void check_csr_on_device(const CsrView<double, int> &, const CallEnvironment &);
template void check_csr_on_device(const CsrView<float, std::int64_t> &, const CallEnvironment &);
template void check_csr_on_device(const CsrView<double, std::int64_t> &, const CallEnvironment &);
template void check_csr_on_device(const CsrView<__half, int> &, const CallEnvironment &);
template void check_csr_on_device(const CsrView<__nv_bfloat16, int> &, const CallEnvironment &);
template void check_csr_on_device(const CsrView<__half, std::int64_t> &, const CallEnvironment &);
template void check_csr_on_device(const CsrView<__nv_bfloat16, std::int64_t> &, const CallEnvironment &);

template class Spmv<float, int>;
template class Spmv<double, int>;
template class Spmv<float, std::int64_t>;
template class Spmv<double, std::int64_t>;
template class Spmv<__half, int>;
template class Spmv<__nv_bfloat16, int>;
template class Spmv<__half, std::int64_t>;
template class Spmv<__nv_bfloat16, std::int64_t>;

}  // namespace StreamCompaction

#include <stream_compaction/spmv.h>

#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/policies.h>

#include <cusparse.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

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

// beta * y[row], or 0 without reading y when beta is 0 (BLAS semantics).
template <class V>
__device__ __forceinline__ V scaled_old(const V *y, long long row, V beta) {
    return beta == V(0) ? V(0) : beta * y[row];
}

// ---- flat: gather, multiply, segmented scan, last element of each row ----

// Per row, beside the head bits: a non-empty row's last nonzero learns its row; an empty row's
// result, beta * y, is written here since no nonzero will.
template <class V>
struct FlatRowSetup {
    int *row_of_last;
    V *y;
    V beta;
    template <class Offset>
    __device__ void operator()(std::size_t row, Offset start, Offset end) const {
        if (start < end) row_of_last[end - 1] = static_cast<int>(row);
        else y[row] = scaled_old(y, static_cast<long long>(row), beta);
    }
};

template <class V>
struct FlatProductLoad {
    const V *values;
    const int *column_indices;
    const V *x;
    BitHeads heads;
    __device__ SegmentedPair<V> operator()(std::size_t k) const {
        return {heads(k), values[k] * x[column_indices[k]]};
    }
};

// Element k ends its row when the next element starts one, or is the last.
template <class V>
struct FlatRowEndStore {
    BitHeads heads;
    const int *row_of_last;
    V *y;
    V alpha, beta;
    std::size_t nnz;
    __device__ void operator()(std::size_t k, const SegmentedPair<V> &scanned) const {
        if (k + 1 == nnz || heads(k + 1)) {
            const int row = row_of_last[k];
            y[row] = alpha * scanned.value + scaled_old(y, row, beta);
        }
    }
};

// Storage: the row heads as bits, each non-empty row's last nonzero's row, the scan's storage.
template <class V>
detail::TempLayout<3> flat_layout(std::size_t nnz) {
    return detail::temp_layout(detail::head_bit_words(nnz) * sizeof(unsigned), nnz * sizeof(int),
                               scan_temp_bytes<SegmentedPair<V>>(nnz));
}

template <class V, class Offset>
void flat_spmv(const DeviceCsr<V, Offset> &a, V alpha, const V *x, V beta, V *y, void *d_temp, cudaStream_t stream) {
    const auto pieces = flat_layout<V>(a.nnz()).carve(d_temp);
    unsigned *bits = reinterpret_cast<unsigned *>(pieces[0]);
    int *row_of_last = reinterpret_cast<int *>(pieces[1]);
    detail::build_head_bits(a.row_offsets(), a.rows(), a.nnz(), bits, stream, FlatRowSetup<V>{row_of_last, y, beta});
    const BitHeads heads{bits};
    transform_inclusive_scan<SegmentedPair<V>>(
        a.nnz(), FlatProductLoad<V>{a.values(), a.column_indices(), x, heads},
        FlatRowEndStore<V>{heads, row_of_last, y, alpha, beta, a.nnz()}, SegmentedOp<Sum>{Sum{}}, pieces[2],
        scan_temp_bytes<SegmentedPair<V>>(a.nnz()), stream);
}

// ---- merge path ----

template <class V>
struct ProductLoad {
    const V *values;
    const int *column_indices;
    const V *x;
    __device__ V operator()(long long k) const { return values[k] * x[column_indices[k]]; }
};

template <class V>
struct AxpbyStore {
    V *y;
    V alpha, beta;
    __device__ void operator()(long long row, const V &sum) const { y[row] = alpha * sum + scaled_old(y, row, beta); }
};

// ---- vector CSR ----

// Four consecutive elements in one load each of columns and values (two for doubles): k is a
// multiple of 4, and DeviceCsr's arrays come from cudaMalloc (256-byte aligned), so the addresses
// are 16-byte aligned.
__device__ __forceinline__ void load_four(const int *columns, long long k, int (&out)[4]) {
    const int4 q = __ldg(reinterpret_cast<const int4 *>(columns + k));
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
}
__device__ __forceinline__ void load_four(const float *values, long long k, float (&out)[4]) {
    const float4 q = __ldg(reinterpret_cast<const float4 *>(values + k));
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
}
__device__ __forceinline__ void load_four(const double *values, long long k, double (&out)[4]) {
    const double2 low = __ldg(reinterpret_cast<const double2 *>(values + k));
    const double2 high = __ldg(reinterpret_cast<const double2 *>(values + k) + 1);
    out[0] = low.x, out[1] = low.y, out[2] = high.x, out[3] = high.y;
}

template <class V>
struct VectorCsrArgs {
    const int *columns;
    const V *values;
    const V *x;
};

// The sum of a.values[k] * x[a.columns[k]] over this lane's k in [first, last): k = first + lane,
// then every LANES-th. Indices in 64 bits: first + LANES may pass 2^31 - 1 with 32-bit offsets.
template <int LANES, class V>
__device__ __forceinline__ V lane_products(const VectorCsrArgs<V> &a, long long first, long long last, int lane) {
    V sum = V(0);
    for (long long k = first + lane; k < last; k += LANES)
        sum += __ldg(a.values + k) * __ldg(a.x + __ldg(a.columns + k));
    return sum;
}

// The same over [start, end) with 16-byte loads: the elements before the first multiple of 4 and
// after the last one element by element, the aligned middle four at a time per lane.
template <int LANES, class V>
__device__ __forceinline__ V lane_products_vectorized(const VectorCsrArgs<V> &a, long long start, long long end,
                                                      int lane) {
    const long long middle_start = (start + 3) / 4 * 4, middle_end = end / 4 * 4;
    V sum = lane_products<LANES>(a, start, middle_start, lane) + lane_products<LANES>(a, middle_end, end, lane);
    for (long long k = middle_start + 4 * lane; k < middle_end; k += 4 * LANES) {
        int columns[4];
        V values[4];
        load_four(a.columns, k, columns);
        load_four(a.values, k, values);
#pragma unroll
        for (int i = 0; i < 4; ++i) sum += values[i] * __ldg(a.x + columns[i]);
    }
    return sum;
}

// Sub-warps of LANES lanes (a power of two up to 32), ROWS rows each: a block's sub-warps take its
// first kVectorCsrThreads / LANES rows, one each, then the next as many, and so on, so that each
// round's rows are consecutive and their loads coalesce. Each lane loads its first nonzero of every
// one of its rows before it multiplies any: the rows' dependent loads (offsets, then columns and
// values, then x) overlap instead of running one row after another. A lane's further nonzeros of
// a row, every LANES-th, follow row by row, in 16-byte vectors in rows of at least
// kVectorCsrVectorLoadsPerLane * 4 * LANES. The lanes' sums are added by shuffles within the
// sub-warp (every lane of the block takes part: a lane past the last row adds nothing), and its
// first lane writes y[row] = alpha * sum + beta * y[row]; an empty row's sum is 0.
template <int LANES, int ROWS, class V, class Offset>
__global__ void __launch_bounds__(kVectorCsrThreads)
    vector_csr_kernel(const Offset *row_offsets, VectorCsrArgs<V> a, int rows, V alpha, V beta, V *y) {
    constexpr int kSubwarps = kVectorCsrThreads / LANES;
    const int lane = static_cast<int>(threadIdx.x % LANES);
    const long long first_row = static_cast<long long>(blockIdx.x) * kSubwarps * ROWS + threadIdx.x / LANES;
    long long start[ROWS], end[ROWS];
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
        const long long row = first_row + static_cast<long long>(j) * kSubwarps;
        start[j] = row < rows ? static_cast<long long>(__ldg(row_offsets + row)) : 0;
        end[j] = row < rows ? static_cast<long long>(__ldg(row_offsets + row + 1)) : 0;
    }
    int column[ROWS];
    V value[ROWS];
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
        const long long k = start[j] + lane;
        column[j] = k < end[j] ? __ldg(a.columns + k) : 0;
        value[j] = k < end[j] ? __ldg(a.values + k) : V(0);
    }
    V sum[ROWS];
#pragma unroll
    for (int j = 0; j < ROWS; ++j) sum[j] = start[j] + lane < end[j] ? value[j] * __ldg(a.x + column[j]) : V(0);
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
        const long long rest = start[j] + LANES;  // the lanes' first nonzeros are summed
        if (end[j] - rest >= static_cast<long long>(kVectorCsrVectorLoadsPerLane) * 4 * LANES)
            sum[j] += lane_products_vectorized<LANES>(a, rest, end[j], lane);
        else if (rest < end[j])
            sum[j] += lane_products<LANES>(a, rest, end[j], lane);
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#pragma unroll
        for (int offset = LANES / 2; offset > 0; offset /= 2)
            sum[j] += __shfl_down_sync(detail::kFullMask, sum[j], offset, LANES);
        const long long row = first_row + static_cast<long long>(j) * kSubwarps;
        if (lane == 0 && row < rows) y[row] = alpha * sum[j] + scaled_old(y, row, beta);
    }
}

template <int LANES, class V, class Offset>
void launch_vector_csr(const DeviceCsr<V, Offset> &a, V alpha, const V *x, V beta, V *y, cudaStream_t stream) {
    constexpr int rows_per_block = kVectorCsrThreads / LANES * kVectorCsrRowsPerSubwarp;
    detail::launch(vector_csr_kernel<LANES, kVectorCsrRowsPerSubwarp, V, Offset>, "vector_csr_kernel",
                   blocks_for(static_cast<std::size_t>(a.rows()), rows_per_block), kVectorCsrThreads, 0, stream,
                   a.row_offsets(), VectorCsrArgs<V>{a.column_indices(), a.values(), x}, a.rows(), alpha, beta, y);
}

// The kernel compiled for `lanes` (the plan's: a power of two in [2, 32]). Needs rows > 0.
template <class V, class Offset>
void vector_csr_spmv(const DeviceCsr<V, Offset> &a, int lanes, V alpha, const V *x, V beta, V *y,
                     cudaStream_t stream) {
    switch (lanes) {
    case 2: launch_vector_csr<2>(a, alpha, x, beta, y, stream); return;
    case 4: launch_vector_csr<4>(a, alpha, x, beta, y, stream); return;
    case 8: launch_vector_csr<8>(a, alpha, x, beta, y, stream); return;
    case 16: launch_vector_csr<16>(a, alpha, x, beta, y, stream); return;
    case 32: launch_vector_csr<32>(a, alpha, x, beta, y, stream); return;
    default: throw std::invalid_argument("Spmv (vector CSR): lanes per row must be 2, 4, 8, 16 or 32");
    }
}

// ---- the plan ----

// The row-length statistics of a matrix in device memory, from a host copy of its row offsets.
template <class V, class Offset>
SpmvRowStats device_row_length_stats(const DeviceCsr<V, Offset> &matrix) {
    std::vector<Offset> offsets(static_cast<std::size_t>(matrix.rows()) + 1);
    SC_CUDA_CHECK(cudaMemcpy(offsets.data(), matrix.row_offsets(), offsets.size() * sizeof(Offset),
                             cudaMemcpyDeviceToHost));
    return row_length_stats(offsets.data(), offsets.size());
}

// Auto and VectorCsr without lanes made concrete from the matrix's statistics; any other plan as
// it is, once its lanes are checked.
template <class V, class Offset>
SpmvPlan resolve_plan(const DeviceCsr<V, Offset> &matrix, SpmvPlan plan) {
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

template <class V>
constexpr cudaDataType cuda_type() {
    return std::is_same_v<V, float> ? CUDA_R_32F : CUDA_R_64F;
}

template <class Offset>
constexpr cusparseIndexType_t cusparse_index_type() {
    return sizeof(Offset) == 8 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
}

cusparseSpMVAlg_t cusparse_algorithm(SpmvAlgorithm algorithm) {
    return algorithm == SpmvAlgorithm::CusparseCsrAlg1 ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
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
    DeviceBuffer<char> buffer;
    DeviceBuffer<std::int64_t> wide_columns;  // for 64-bit offsets: cuSPARSE wants one index width
    bool prepared = false;

    ~Cusparse() {  // no throw from a destructor: release what exists
        if (x) cusparseDestroyDnVec(x);
        if (y) cusparseDestroyDnVec(y);
        if (matrix) cusparseDestroySpMat(matrix);
        if (handle) cusparseDestroy(handle);
    }
};

template <class V, class Offset>
Spmv<V, Offset>::Spmv(const DeviceCsr<V, Offset> &matrix) : Spmv(matrix, SpmvAlgorithm::Auto) {}

template <class V, class Offset>
Spmv<V, Offset>::Spmv(const DeviceCsr<V, Offset> &matrix, SpmvAlgorithm algorithm)
    : Spmv(matrix, SpmvPlan{algorithm}) {}

template <class V, class Offset>
Spmv<V, Offset>::Spmv(const DeviceCsr<V, Offset> &matrix, SpmvPlan plan)
    : matrix_(matrix), plan_(resolve_plan(matrix, plan)) {
    switch (plan_.algorithm) {
    case SpmvAlgorithm::Flat: temp_bytes_ = flat_layout<V>(matrix.nnz()).bytes(); break;
    case SpmvAlgorithm::MergePath:
        temp_bytes_ = segmented_reduce_temp_bytes<V>(matrix.nnz(), matrix.rows());
        plan_corners_ = DeviceBuffer<long long>(detail::merge_path_plan_entries(matrix.nnz(), matrix.rows()));
        if (matrix.rows() > 0)
            plan_threads_ = detail::make_merge_path_plan<V>(matrix.row_offsets(), matrix.rows(), matrix.nnz(),
                                                            plan_corners_.get(), cudaStreamLegacy)
                                .threads;
        // The plan is done before the object is used, on whatever stream.
        SC_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
        break;
    case SpmvAlgorithm::VectorCsr: break;  // nothing to prepare, no temporary storage
    case SpmvAlgorithm::CusparseCsrAlg1:
    case SpmvAlgorithm::CusparseCsrAlg2: {
        cusparse_ = std::make_unique<Cusparse>();
        SC_CUSPARSE_CHECK(cusparseCreate(&cusparse_->handle));
        const void *columns = matrix.column_indices();
        if constexpr (sizeof(Offset) == 8) {
            // cuSPARSE takes row offsets and column indices of one width only (it reports 64-bit
            // offsets with 32-bit columns as not supported): a 64-bit copy of the columns.
            cusparse_->wide_columns = DeviceBuffer<std::int64_t>(matrix.nnz());
            thrust::copy(thrust::device, matrix.column_indices(), matrix.column_indices() + matrix.nnz(),
                         cusparse_->wide_columns.get());
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
void Spmv<V, Offset>::operator()(V alpha, const V *d_x, V beta, V *d_y, cudaStream_t stream) const {
    if (temp_bytes_ == 0 || matrix_.rows() == 0) {
        (*this)(alpha, d_x, beta, d_y, nullptr, 0, stream);
        return;
    }
    detail::with_temp_storage(temp_bytes_, stream, [&](void *d_temp) {
        (*this)(alpha, d_x, beta, d_y, d_temp, temp_bytes_, stream);
    });
}

template <class V, class Offset>
void Spmv<V, Offset>::operator()(V alpha, const V *d_x, V beta, V *d_y, void *d_temp, std::size_t temp_bytes,
                                 cudaStream_t stream) const {
    const DeviceCsr<V, Offset> &a = matrix_;
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
        flat_spmv(a, alpha, d_x, beta, d_y, d_temp, stream);
        return;
    case SpmvAlgorithm::MergePath:
        detail::merge_path_reduce_planned("Spmv (merge path)",
                                          detail::MergePathPlan{plan_corners_.get(), plan_threads_},
                                          a.row_offsets(), a.rows(), a.nnz(),
                                          ProductLoad<V>{a.values(), a.column_indices(), d_x},
                                          AxpbyStore<V>{d_y, alpha, beta}, Sum{}, V(0), d_temp, temp_bytes, stream);
        return;
    case SpmvAlgorithm::VectorCsr: vector_csr_spmv(a, plan_.lanes_per_row, alpha, d_x, beta, d_y, stream); return;
    default: multiply_cusparse(alpha, d_x, beta, d_y, stream); return;
    }
}

template <class V, class Offset>
void Spmv<V, Offset>::multiply_cusparse(V alpha, const V *d_x, V beta, V *d_y, cudaStream_t stream) const {
    const DeviceCsr<V, Offset> &a = matrix_;
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
                                                  &beta, c.y, cuda_type<V>(), alg, &bytes));
        c.buffer = DeviceBuffer<char>(bytes);
        if (plan_.algorithm == SpmvAlgorithm::CusparseCsrAlg2)
            SC_CUSPARSE_CHECK(cusparseSpMV_preprocess(c.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c.matrix,
                                                      c.x, &beta, c.y, cuda_type<V>(), alg, c.buffer.get()));
        c.prepared = true;
    }
    SC_CUSPARSE_CHECK(cusparseSpMV(c.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c.matrix, c.x, &beta, c.y,
                                   cuda_type<V>(), alg, c.buffer.get()));
}

template class Spmv<float, int>;
template class Spmv<double, int>;
template class Spmv<float, std::int64_t>;
template class Spmv<double, std::int64_t>;

}  // namespace StreamCompaction

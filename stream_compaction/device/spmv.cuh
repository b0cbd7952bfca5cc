#pragma once
// Sparse matrix times vector, y = alpha * A * x + beta * y, for CSR matrices of float, double,
// __half or __nv_bfloat16 with 32-bit row and column indices and 32- or 64-bit row offsets, four ways:
//   Flat      the textbook data-parallel algorithm: gather x by column and multiply, segmented
//             inclusive scan of the products by row, each row's last element is its result (two
//             launches and a memset: the row heads as a bitmap, then one single-pass scan).
//   MergePath load-balanced (Merrill & Garland 2016): the merge path of row ends and nonzeros is
//             split evenly over threads, so row-length skew and empty rows cost nothing extra;
//             rows split between tiles are joined by decoupled look-back. One launch; where each
//             tile starts is found once, when the Spmv is made (like cuSPARSE's ALG2 preprocessing).
//   VectorCsr sub-warps of 2..32 lanes, 2 rows each (Bell & Garland 2009's vector kernel): the
//             lanes stride over a row, long rows in 16-byte vector loads, x through the read-only
//             cache, then a shuffle reduction. One launch, no temporary storage; fast on small
//             matrices, slow when one row is much longer than the rest.
//   CusparseCsrAlg1 / CusparseCsrAlg2   cusparseSpMV, the reference.
// Auto, the default, picks VectorCsr or MergePath for the matrix when the Spmv is made, from its
// row lengths (detail/spmv/plan.h: the longest row's steps, the nonzeros); chosen() says which.
//
// Half precision: with V = __half or __nv_bfloat16 (<cuda_fp16.h>, <cuda_bf16.h>) the matrix's
// values, x and y are 16-bit, and everything is computed in float: alpha and beta are floats
// (Spmv<V>::Scalar, spmv_scalar_t<V>), each product of a value and an x entry is exact in float,
// the products are summed in float (Flat's scan, MergePath's reduction, VectorCsr's lanes and
// shuffles), alpha * sum + beta * y is formed in float, and y is rounded to V once per row, to
// nearest. Every algorithm takes them: Flat, MergePath and VectorCsr (16-byte loads of 8 values, where
// the values and columns are 16-byte aligned) on any GPU, the cuSPARSE ones as CUDA_R_16F or
// CUDA_R_16BF data with compute type CUDA_R_32F (bfloat16 only from compute capability 8.0: cuSPARSE
// needs native support; refused before, as std::invalid_argument). So a row is as accurate as a
// float SpMV of the 16-bit inputs until its one rounding to V (relative 2^-11 for half, 2^-8 for
// bfloat16, in their normal range). A 16-bit matrix from a host one: DeviceCsr<__half>(host) from
// a CsrMatrix<__half> as it is, or from a CsrMatrix<float> or <double> (read_matrix_market's), each
// value rounded to nearest once; a CsrView over the caller's 16-bit arrays as for float.
//
// Example:
//   CsrMatrix<float> host{2, 2, {0, 1, 3}, {0, 0, 1}, {2.0f, 1.0f, 3.0f}};   // [[2, 0], [1, 3]]
//   const DeviceCsr<float> A(host);                      // validated on the host, then copied
//   Spmv<float> multiply(A);                             // Auto: the kernel chosen (and prepared) once
//   if (multiply.chosen() != SpmvAlgorithm::VectorCsr || multiply.lanes_per_row() != 2) return 1;
//   std::vector<float> x = {1.0f, 2.0f}, y(2);
//   auto d_x = DeviceBuffer<float>::from_host(x.data(), 2);
//   DeviceBuffer<float> d_y(2);
//   multiply(1.0f, d_x.get(), 0.0f, d_y.get());          // y = A x (stream 0); beta = 0 never reads y
//   d_y.copy_to_host(y.data(), 2);
//   if (y[0] != 2.0f || y[1] != 7.0f) return 1;
//   Spmv<float> merge_path(A, SpmvAlgorithm::MergePath); // or any algorithm by name
//
// Errors: std::invalid_argument for bad arguments or an invalid matrix, cuda_error from CUDA,
// cusparse_error from cuSPARSE.
#include <stream_compaction/detail/spmv/plan.h>
#include <stream_compaction/detail/spmv/value_types.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/memory_resource.h>

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace StreamCompaction {

class cusparse_error : public std::runtime_error {
public:
    // what(): "cuSPARSE error (file:line): call: <status string> (<status name>)"
    cusparse_error(int status, const char *call, const char *file, int line);
    int status() const noexcept { return status_; }

private:
    int status_;
};

// A CSR matrix in device memory that the caller owns, as cusparseCreateCsr wraps device pointers:
// nothing is copied or allocated. The constructor checks what is cheap (sizes not negative, nnz
// within Offset, no null pointer where an array is needed) and throws std::invalid_argument; the
// caller promises the rest of validate_csr's rules (row offsets from 0, non-decreasing, to nnz;
// column indices in [0, cols)), which check_csr_on_device checks on request. The arrays must
// outlive every Spmv made on the view. Offset: int, or std::int64_t past 2^31 - 1 nonzeros.
template <class V, class Offset = int>
class CsrView {
public:
    CsrView(int rows, int cols, std::size_t nnz, const Offset *d_row_offsets, const int *d_column_indices,
            const V *d_values)
        : rows_(rows), cols_(cols), nnz_(nnz), row_offsets_(d_row_offsets), column_indices_(d_column_indices),
          values_(d_values) {
        static_assert(std::is_same_v<Offset, int> || std::is_same_v<Offset, std::int64_t>,
                      "row offsets are int or std::int64_t");
        if (rows < 0 || cols < 0) throw std::invalid_argument("CsrView: negative dimensions");
        if (sizeof(Offset) == 4 && nnz > static_cast<std::size_t>(INT_MAX))
            throw std::invalid_argument("CsrView: more nonzeros than 32-bit row offsets can count");
        if (rows > 0 && d_row_offsets == nullptr) throw std::invalid_argument("CsrView: null row offsets");
        if (nnz > 0 && (d_column_indices == nullptr || d_values == nullptr))
            throw std::invalid_argument("CsrView: null column indices or values");
        if (nnz > 0 && rows == 0) throw std::invalid_argument("CsrView: nonzeros in a matrix without rows");
    }

    int rows() const noexcept { return rows_; }
    int cols() const noexcept { return cols_; }
    std::size_t nnz() const noexcept { return nnz_; }
    const Offset *row_offsets() const noexcept { return row_offsets_; }
    const int *column_indices() const noexcept { return column_indices_; }
    const V *values() const noexcept { return values_; }

private:
    int rows_, cols_;
    std::size_t nnz_;
    const Offset *row_offsets_;
    const int *column_indices_;
    const V *values_;
};

// Checks the rules a CsrView's caller promises, on the device: row offsets from 0, non-decreasing,
// to nnz, and column indices in [0, cols). Throws std::invalid_argument naming the first broken
// rule. Waits for env's stream (it reads the verdict back): a check when the matrix is made, not on a
// hot path. Instantiated for float, double, __half and __nv_bfloat16 values, int and std::int64_t
// offsets.
template <class V, class Offset>
void check_csr_on_device(const CsrView<V, Offset> &matrix, const CallEnvironment &env = {});

// A CSR matrix in device memory, owned: copied from a host matrix that validate_csr accepts, so no
// kernel can read outside it. It converts to a CsrView, what Spmv takes.
template <class V, class Offset = int>
class DeviceCsr {
public:
    explicit DeviceCsr(const CsrMatrix<V, Offset> &host)
        : rows_((validate_csr(host), host.rows)), cols_(host.cols), nnz_(host.nnz()),
          row_offsets_(DeviceBuffer<Offset>::from_host(host.row_offsets.data(), host.row_offsets.size())),
          column_indices_(DeviceBuffer<int>::from_host(host.column_indices.data(), host.nnz())),
          values_(DeviceBuffer<V>::from_host(host.values.data(), host.nnz())) {}

    // For a 16-bit V: the matrix of a host CsrMatrix<float> or <double>, each value rounded to the
    // nearest V once (from a double straight to 16 bits). A value past V's range becomes infinite
    // (half's largest finite value is 65504), as any rounding to V does.
    template <class W, std::enable_if_t<
                           is_half_precision_v<V> && (std::is_same_v<W, float> || std::is_same_v<W, double>), int> = 0>
    explicit DeviceCsr(const CsrMatrix<W, Offset> &host)
        : rows_((validate_csr(host), host.rows)),
          cols_(host.cols),
          nnz_(host.nnz()),
          row_offsets_(DeviceBuffer<Offset>::from_host(host.row_offsets.data(), host.row_offsets.size())),
          column_indices_(DeviceBuffer<int>::from_host(host.column_indices.data(), host.nnz())),
          values_(rounded(host.values)) {}

    int rows() const noexcept { return rows_; }
    int cols() const noexcept { return cols_; }
    std::size_t nnz() const noexcept { return nnz_; }
    const Offset *row_offsets() const noexcept { return row_offsets_.get(); }
    const int *column_indices() const noexcept { return column_indices_.get(); }
    const V *values() const noexcept { return values_.get(); }

    CsrView<V, Offset> view() const { return {rows_, cols_, nnz_, row_offsets(), column_indices(), values()}; }
    operator CsrView<V, Offset>() const { return view(); }

private:
    template <class W>
    static DeviceBuffer<V> rounded(const std::vector<W> &values) {
        std::vector<V> host(values.size());
        for (std::size_t k = 0; k < values.size(); ++k) host[k] = detail::spmv_round<V>(values[k]);
        return DeviceBuffer<V>::from_host(host.data(), host.size());
    }

    int rows_, cols_;
    std::size_t nnz_;
    DeviceBuffer<Offset> row_offsets_;
    DeviceBuffer<int> column_indices_;
    DeviceBuffer<V> values_;
};

// One matrix, one algorithm: holds what is made once per matrix (the merge path's tile corners, for
// the block size of the environment it is made with; the cuSPARSE handle, descriptors and buffer;
// for Auto and a VectorCsr without lanes, the row-length statistics, from a copy of the row offsets
// to the host: O(rows), once), so that each multiplication is only its launches. The matrix (a
// DeviceCsr, or the arrays under a CsrView) must outlive it.
//
// What it caches of the matrix: what the row offsets give (the algorithm Auto picks, the lanes,
// the merge path's corners). The values and column indices are read anew by every call of Flat,
// MergePath and VectorCsr: values changed in place between calls are used, no update needed. New
// row offsets need a new Spmv. The cuSPARSE algorithms keep cuSPARSE's own preprocessing (ALG2)
// and, with 64-bit offsets, a copy of the column indices: a new Spmv after changing either.
//
// Memory: what the plan keeps (the corners, the cuSPARSE buffer and column copy) comes from the
// memory resource of the environment it is made with, allocated on that environment's stream
// (the cuSPARSE buffer on the stream of the first call) and given back on the same stream when the
// Spmv goes: that resource and those streams must outlive it. A call without temporary storage
// takes its storage from its own environment's resource, once per call.
//
// Streams and graphs: Flat and MergePath keep each call's state in that call's temporary storage,
// and VectorCsr needs none, so one Spmv may be called on several streams at once, from several host
// threads, and captured into CUDA graphs. The cuSPARSE algorithms share the object's handle and
// buffer: one call at a time per Spmv object (they are the reference, not the product).
template <class V, class Offset = int>
class Spmv {
    static_assert(std::is_same_v<V, float> || std::is_same_v<V, double> || is_half_precision_v<V>,
                  "Spmv: values are float, double, __half or __nv_bfloat16");

public:
    // alpha's and beta's type, and the type every product and sum is computed in: V, or float for
    // __half and __nv_bfloat16.
    using Scalar = spmv_scalar_t<V>;

    // Auto: VectorCsr or MergePath, by plan_spmv on the matrix's row lengths.
    explicit Spmv(CsrView<V, Offset> matrix, const CallEnvironment &env = {});
    // That algorithm (Auto: as above; VectorCsr: lanes from the mean row length).
    Spmv(CsrView<V, Offset> matrix, SpmvAlgorithm algorithm, const CallEnvironment &env = {});
    // That plan: lanes_per_row 0, or for VectorCsr a power of two in [2, 32] (else
    // std::invalid_argument); a plan of 0 lanes is the same as its algorithm alone.
    Spmv(CsrView<V, Offset> matrix, SpmvPlan plan, const CallEnvironment &env = {});
    ~Spmv();
    Spmv(const Spmv &) = delete;
    Spmv &operator=(const Spmv &) = delete;

    // The algorithm that runs: never Auto. And VectorCsr's lanes per row (0 for the others).
    SpmvAlgorithm chosen() const noexcept { return plan_.algorithm; }
    int lanes_per_row() const noexcept { return plan_.lanes_per_row; }

    // y = alpha * A * x + beta * y: d_x has cols() elements, d_y rows(); they must not overlap.
    // With beta = 0, y is only written (NaN there does not propagate). Temporary storage comes from
    // the environment's memory resource, one allocation per call; the flat algorithm's scan runs at
    // its Tuning::single_pass (the merge path's block size is the plan's). 16-bit V: computed in
    // float, y rounded once per row (the opening comment).
    void operator()(Scalar alpha, const V *d_x, Scalar beta, V *d_y, const CallEnvironment &env = {}) const;

    // The same with the caller's temporary storage (at least temp_bytes(), any alignment; 0 bytes
    // for VectorCsr and the cuSPARSE algorithms): nothing is allocated. Calls in flight together
    // need storage of their own.
    std::size_t temp_bytes() const noexcept { return temp_bytes_; }
    void operator()(Scalar alpha, const V *d_x, Scalar beta, V *d_y, void *d_temp, std::size_t temp_bytes,
                    const CallEnvironment &env = {}) const;

private:
    struct Cusparse;
    void multiply_cusparse(Scalar alpha, const V *d_x, Scalar beta, V *d_y, cudaStream_t stream) const;
    CsrView<V, Offset> matrix_;
    SpmvPlan plan_;  // resolved: no Auto, and VectorCsr with its lanes
    std::size_t temp_bytes_ = 0;
    MemoryResource *memory_;  // the plan's: the corners', the cuSPARSE buffer's
    // Merge path: where each tile's share of the path starts, found once for the matrix, and the
    // block size it was found for.
    ResourceBuffer plan_corners_;
    int plan_threads_ = 0;
    std::unique_ptr<Cusparse> cusparse_;
};

}  // namespace StreamCompaction

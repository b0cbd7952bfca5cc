#pragma once
// Vector-CSR SpMV (Bell & Garland 2009's vector kernel): sub-warps of 2..32 lanes, a few rows each,
// the lanes striding over a row and adding their products by shuffles. One launch, no temporary
// storage (device/spmv.cuh, SpmvAlgorithm::VectorCsr); the tile shape is in tuning/policies.h.
// Values of float and double compute in their own type, __half and __nv_bfloat16 in float
// (detail/spmv/value_types.h): S below is spmv_scalar_t<V>.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/spmv/value_types.h>
#include <stream_compaction/detail/util/vector_access.cuh>
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/policies.h>

#include <cuda_runtime.h>

#include <stdexcept>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// beta * y[row] in the compute type, or 0 without reading y when beta is 0 (BLAS semantics).
template <class V>
__device__ __forceinline__ spmv_scalar_t<V> scaled_old(const V *y, long long row, spmv_scalar_t<V> beta) {
    using S = spmv_scalar_t<V>;
    return beta == S(0) ? S(0) : beta * spmv_widen(y[row]);
}

// The elements a lane takes per step of its 16-byte loads: 4 (one load each of 4 columns and of 4
// floats; two of doubles), or 8 for 16-bit values (one load of 8 values, two of 8 columns).
template <class V>
constexpr int kVectorGroup = sizeof(V) == 2 ? 8 : 4;

// kVectorGroup<V> consecutive elements in 16-byte loads of columns and values: k is a multiple of
// the group and the arrays start 16-byte aligned (VectorCsrArgs::aligned16), so the addresses are
// 16-byte aligned.
__device__ __forceinline__ void load_group(const int *columns, long long k, int (&out)[4]) {
    const int4 q = __ldg(reinterpret_cast<const int4 *>(columns + k));
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
}
__device__ __forceinline__ void load_group(const float *values, long long k, float (&out)[4]) {
    const float4 q = __ldg(reinterpret_cast<const float4 *>(values + k));
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
}
__device__ __forceinline__ void load_group(const double *values, long long k, double (&out)[4]) {
    const double2 low = __ldg(reinterpret_cast<const double2 *>(values + k));
    const double2 high = __ldg(reinterpret_cast<const double2 *>(values + k) + 1);
    out[0] = low.x, out[1] = low.y, out[2] = high.x, out[3] = high.y;
}
__device__ __forceinline__ void load_group(const int *columns, long long k, int (&out)[8]) {
    const int4 low = __ldg(reinterpret_cast<const int4 *>(columns + k));
    const int4 high = __ldg(reinterpret_cast<const int4 *>(columns + k) + 1);
    out[0] = low.x, out[1] = low.y, out[2] = low.z, out[3] = low.w;
    out[4] = high.x, out[5] = high.y, out[6] = high.z, out[7] = high.w;
}
// Eight 16-bit values (__half or __nv_bfloat16) from one 16-byte load: element i is bits
// [16 (i % 2), 16 (i % 2) + 16) of word i / 2 (little-endian).
template <class V, std::enable_if_t<is_half_precision_v<V>, int> = 0>
__device__ __forceinline__ void load_group(const V *values, long long k, V (&out)[8]) {
    const uint4 q = __ldg(reinterpret_cast<const uint4 *>(values + k));
    const unsigned words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const auto bits = static_cast<unsigned short>(words[i / 2] >> (16 * (i % 2)));
        if constexpr (std::is_same_v<V, __half>) out[i] = __ushort_as_half(bits);
        else out[i] = __ushort_as_bfloat16(bits);
    }
}

template <class V>
struct VectorCsrArgs {
    const int *columns;
    const V *values;
    const V *x;
    // Columns and values both start at a multiple of 16 bytes (a DeviceCsr's, from cudaMalloc; a
    // CsrView's may not): only then do long rows take 16-byte loads.
    bool aligned16;
};

// The sum of a.values[k] * x[a.columns[k]] over this lane's k in [first, last): k = first + lane,
// then every LANES-th. Indices in 64 bits: first + LANES may pass 2^31 - 1 with 32-bit offsets.
// 16-bit values and x are widened before they multiply: their product is exact in float.
template <int LANES, class V>
__device__ __forceinline__ spmv_scalar_t<V> lane_products(const VectorCsrArgs<V> &a, long long first, long long last,
                                                          int lane) {
    spmv_scalar_t<V> sum = 0;
    for (long long k = first + lane; k < last; k += LANES)
        sum += spmv_widen(__ldg(a.values + k)) * spmv_widen(__ldg(a.x + __ldg(a.columns + k)));
    return sum;
}

// The same over [start, end) with 16-byte loads: the elements before the first multiple of the
// group (kVectorGroup<V>) and after the last one element by element, the aligned middle a group at
// a time per lane.
template <int LANES, class V>
__device__ __forceinline__ spmv_scalar_t<V> lane_products_vectorized(const VectorCsrArgs<V> &a, long long start,
                                                                     long long end, int lane) {
    constexpr int kGroup = kVectorGroup<V>;
    const long long middle_start = (start + kGroup - 1) / kGroup * kGroup, middle_end = end / kGroup * kGroup;
    spmv_scalar_t<V> sum =
        lane_products<LANES>(a, start, middle_start, lane) + lane_products<LANES>(a, middle_end, end, lane);
    for (long long k = middle_start + kGroup * lane; k < middle_end; k += kGroup * LANES) {
        int columns[kGroup];
        V values[kGroup];
        load_group(a.columns, k, columns);
        load_group(a.values, k, values);
#pragma unroll
        for (int i = 0; i < kGroup; ++i) sum += spmv_widen(values[i]) * spmv_widen(__ldg(a.x + columns[i]));
    }
    return sum;
}

// Sub-warps of LANES lanes (a power of two up to 32), ROWS rows each: a block's sub-warps take its
// first kVectorCsrThreads / LANES rows, one each, then the next as many, and so on, so that each
// round's rows are consecutive and their loads coalesce. Each lane loads its first nonzero of every
// one of its rows before it multiplies any: the rows' dependent loads (offsets, then columns and
// values, then x) overlap instead of running one row after another. A lane's further nonzeros of
// a row, every LANES-th, follow row by row, in 16-byte vectors in rows of at least
// kVectorCsrVectorLoadsPerLane * kVectorGroup<V> * LANES. The lanes' sums are added by shuffles
// within the sub-warp (every lane of the block takes part: a lane past the last row adds nothing),
// and its first lane writes y[row] = alpha * sum + beta * y[row] (computed in S, rounded to V once);
// an empty row's sum is 0.
template <int LANES, int ROWS, class V, class Offset>
__global__ void __launch_bounds__(kVectorCsrThreads)
    vector_csr_kernel(const Offset *row_offsets, VectorCsrArgs<V> a, int rows, spmv_scalar_t<V> alpha,
                      spmv_scalar_t<V> beta, V *y) {
    using S = spmv_scalar_t<V>;
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
        value[j] = k < end[j] ? __ldg(a.values + k) : V();  // V(): 0 for every value type
    }
    S sum[ROWS];
#pragma unroll
    for (int j = 0; j < ROWS; ++j)
        sum[j] = start[j] + lane < end[j] ? spmv_widen(value[j]) * spmv_widen(__ldg(a.x + column[j])) : S(0);
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
        const long long rest = start[j] + LANES;  // the lanes' first nonzeros are summed
        if (a.aligned16 &&
            end[j] - rest >= static_cast<long long>(kVectorCsrVectorLoadsPerLane) * kVectorGroup<V> * LANES)
            sum[j] += lane_products_vectorized<LANES>(a, rest, end[j], lane);
        else if (rest < end[j])
            sum[j] += lane_products<LANES>(a, rest, end[j], lane);
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#pragma unroll
        for (int offset = LANES / 2; offset > 0; offset /= 2)
            sum[j] += __shfl_down_sync(kFullMask, sum[j], offset, LANES);
        const long long row = first_row + static_cast<long long>(j) * kSubwarps;
        if (lane == 0 && row < rows) y[row] = spmv_round<V>(alpha * sum[j] + scaled_old(y, row, beta));
    }
}

template <int LANES, class V, class Offset>
void launch_vector_csr(const Offset *row_offsets, int rows, VectorCsrArgs<V> a, spmv_scalar_t<V> alpha,
                       spmv_scalar_t<V> beta, V *y, cudaStream_t stream) {
    constexpr int rows_per_block = kVectorCsrThreads / LANES * kVectorCsrRowsPerSubwarp;
    launch(vector_csr_kernel<LANES, kVectorCsrRowsPerSubwarp, V, Offset>, "vector_csr_kernel",
           blocks_for(static_cast<std::size_t>(rows), rows_per_block), kVectorCsrThreads, 0, stream, row_offsets, a,
           rows, alpha, beta, y);
}

// y = alpha * A * x + beta * y for the CSR matrix of `rows` rows at row_offsets and a's columns and
// values, by the kernel compiled for `lanes` (the plan's: a power of two in [2, 32]). Needs rows > 0.
template <class V, class Offset>
void vector_csr_spmv(const Offset *row_offsets, int rows, VectorCsrArgs<V> a, int lanes, spmv_scalar_t<V> alpha,
                     spmv_scalar_t<V> beta, V *y, cudaStream_t stream) {
    switch (lanes) {
    case 2: launch_vector_csr<2>(row_offsets, rows, a, alpha, beta, y, stream); return;
    case 4: launch_vector_csr<4>(row_offsets, rows, a, alpha, beta, y, stream); return;
    case 8: launch_vector_csr<8>(row_offsets, rows, a, alpha, beta, y, stream); return;
    case 16: launch_vector_csr<16>(row_offsets, rows, a, alpha, beta, y, stream); return;
    case 32: launch_vector_csr<32>(row_offsets, rows, a, alpha, beta, y, stream); return;
    default: throw std::invalid_argument("Spmv (vector CSR): lanes per row must be 2, 4, 8, 16 or 32");
    }
}

}  // namespace detail
}  // namespace StreamCompaction

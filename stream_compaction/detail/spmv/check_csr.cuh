#pragma once
// The device-side check of the rules a CsrView's caller promises (device/spmv.cuh,
// check_csr_on_device): one pass over the row offsets and the column indices.

namespace StreamCompaction {
namespace detail {

// Bits of check_csr_kernel's verdict, one per rule, in validate_csr's words.
enum CsrBreach : unsigned {
    kFirstOffsetNotZero = 1,
    kLastOffsetNotNnz = 2,
    kOffsetsDecrease = 4,
    kColumnOutOfRange = 8,
};

// Each thread checks offsets and column indices a grid's stride apart and ors what it finds into
// *verdict (one atomic a breaking thread: a valid matrix costs none).
template <class Offset>
__global__ void check_csr_kernel(const Offset *row_offsets, int rows, const int *columns, long long nnz, int cols,
                                 unsigned *verdict) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    unsigned found = 0;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i <= rows || i < nnz; i += stride) {
        if (i <= rows) {
            const long long offset = row_offsets[i];
            if (i == 0 && offset != 0) found |= kFirstOffsetNotZero;
            if (i == rows && offset != nnz) found |= kLastOffsetNotNnz;
            if (i > 0 && offset < static_cast<long long>(row_offsets[i - 1])) found |= kOffsetsDecrease;
        }
        if (i < nnz && (columns[i] < 0 || columns[i] >= cols)) found |= kColumnOutOfRange;
    }
    if (found != 0) atomicOr(verdict, found);
}

}  // namespace detail
}  // namespace StreamCompaction

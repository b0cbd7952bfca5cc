#pragma once
// Distributed sparse matrix times vector, y = alpha * A * x + beta * y, with a 1D row partition:
// rank r holds a block of A's rows (a CSR matrix with global column indices), its part of x (a
// block of columns: column_begin[r] .. column_begin[r + 1]) and its part of y (its rows).
//
// Made once per matrix (collective): each rank works out which x entries of other ranks its rows
// touch (plan_halo), tells each owner which it needs (an all-gather of the request counts, then
// the column lists by ncclSend/ncclRecv), and learns what it must send (plan_halo_sends). Its rows
// are renumbered to a local x of its own columns followed by the halo, and get a single-GPU Spmv.
//
// Each multiplication (collective): the entries others need are packed (one gather kernel), sent
// and received in one group of ncclSend/ncclRecv straight into the halo part of the local x (each
// rank receives exactly the entries its columns need, once), the own part is copied in, and the
// single-GPU Spmv runs on the local rows. Nothing waits on the host, so it can be called back to
// back, like a solver's iterations.
#include <stream_compaction/distributed/communicator.h>
#include <stream_compaction/io/matrix_market.h>
#include <stream_compaction/device/spmv.cuh>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace StreamCompaction {
namespace distributed {

// V: float or double.
template <class V>
class DistributedSpmv {
    static_assert(std::is_same_v<V, float> || std::is_same_v<V, double>,
                  "DistributedSpmv: float or double values (half precision is single-GPU only: Spmv<__half>)");

public:
    // Collective. `rows`: this rank's rows of A (rows.cols = A's column count, global column
    // indices). `column_begin`: ranks + 1 entries, 0 first and A's column count last, the same on
    // every rank. Waits for the plan's exchange on `stream`.
    DistributedSpmv(const Communicator &comm, const CsrMatrix<V> &rows, std::vector<long long> column_begin,
                    SpmvAlgorithm algorithm = SpmvAlgorithm::MergePath, cudaStream_t stream = 0);
    ~DistributedSpmv();
    DistributedSpmv(const DistributedSpmv &) = delete;
    DistributedSpmv &operator=(const DistributedSpmv &) = delete;

    // Collective. d_x: this rank's own columns of x (own_columns() entries); d_y: its rows
    // (rows() entries). One call at a time per object (it owns the local x and the send buffer).
    void operator()(V alpha, const V *d_x, V beta, V *d_y, cudaStream_t stream = 0);

    int rows() const noexcept { return rows_; }
    std::size_t own_columns() const noexcept { return own_columns_; }
    // x entries received from other ranks per multiplication, and sent to them.
    std::size_t halo_size() const noexcept { return halo_size_; }
    std::size_t send_size() const noexcept { return send_size_; }

private:
    struct Local;
    Communicator comm_;
    int rows_ = 0;
    std::size_t own_columns_ = 0, halo_size_ = 0, send_size_ = 0;
    std::unique_ptr<Local> local_;
};

}  // namespace distributed
}  // namespace StreamCompaction

#include <stream_compaction/distributed/exchange.h>
#include <stream_compaction/distributed/plans.h>
#include <stream_compaction/distributed/spmv.h>

#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/nvtx.h>

#include <climits>
#include <string>

namespace StreamCompaction {
namespace distributed {
namespace {

// packed[k] = x[indices[k]]: the entries of this rank's x that its peers asked for, grouped by peer.
template <class V>
__global__ void pack_requested(const V *x, const int *indices, std::size_t count, V *packed) {
    const std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (k < count) packed[k] = x[indices[k]];
}

// Transfers of parts [offsets[p], offsets[p + 1]) with each peer, empty ones left out.
std::vector<Transfer> transfers(const std::vector<std::size_t> &offsets) {
    std::vector<Transfer> list;
    for (std::size_t p = 0; p + 1 < offsets.size(); ++p)
        if (offsets[p + 1] > offsets[p]) list.push_back({static_cast<int>(p), offsets[p], offsets[p + 1] - offsets[p]});
    return list;
}

}  // namespace

template <class V>
struct DistributedSpmv<V>::Local {
    std::vector<Transfer> sends, receives;  // per multiplication: packed entries out, halo in
    DeviceBuffer<int> send_indices;         // into this rank's own x, grouped by peer
    DeviceBuffer<V> send_values;
    DeviceBuffer<V> x;                      // own columns, then the halo
    std::unique_ptr<DeviceCsr<V>> matrix;   // the rows with local column indices (none: no rows)
    std::unique_ptr<Spmv<V>> multiply;
    DeviceBuffer<char> multiply_storage;
};

template <class V>
DistributedSpmv<V>::DistributedSpmv(const Communicator &comm, const CsrMatrix<V> &rows,
                                    std::vector<long long> column_begin, SpmvAlgorithm algorithm, cudaStream_t stream)
    : comm_(comm), rows_(rows.rows), local_(std::make_unique<Local>()) {
    SC_NVTX_RANGE("distributed::DistributedSpmv (plan)");
    comm.require_current_device("distributed::DistributedSpmv");
    require_not_capturing("distributed::DistributedSpmv", stream);
    validate_csr(rows);
    const int ranks = comm.ranks(), rank = comm.rank();
    if (column_begin.size() != static_cast<std::size_t>(ranks) + 1 || column_begin.back() != rows.cols)
        throw std::invalid_argument("distributed::DistributedSpmv: column_begin has " +
                                    std::to_string(column_begin.size()) + " entries ending at " +
                                    std::to_string(column_begin.empty() ? 0 : column_begin.back()) + "; wanted " +
                                    std::to_string(ranks + 1) + " ending at the column count " +
                                    std::to_string(rows.cols));
    own_columns_ = static_cast<std::size_t>(column_begin[rank + 1] - column_begin[rank]);

    // What this rank needs of the others' x, and the request counts of every rank (row r: r's).
    const HaloNeeds needs = plan_halo(rows.column_indices, column_begin, rank);
    halo_size_ = needs.halo_columns.size();
    if (own_columns_ + halo_size_ > static_cast<std::size_t>(INT_MAX))
        throw std::invalid_argument("distributed::DistributedSpmv: rank " + std::to_string(rank) + " needs " +
                                    std::to_string(own_columns_ + halo_size_) + " x entries, more than 32-bit columns");
    std::vector<std::size_t> request_counts(ranks);
    for (int p = 0; p < ranks; ++p) request_counts[p] = needs.receive_offsets[p + 1] - needs.receive_offsets[p];
    Workspace ws;
    const auto d_request_counts = DeviceBuffer<std::size_t>::from_host(request_counts.data(), ranks);
    const std::vector<std::size_t> matrix = all_gather_to_host(comm, d_request_counts.get(), ranks, ws, 0, stream);

    // The requests: this rank's halo columns to their owners; the peers' lists of this rank's
    // columns back, in peer order.
    std::vector<std::size_t> asked_offsets{0};
    for (int p = 0; p < ranks; ++p) asked_offsets.push_back(asked_offsets.back() + matrix[p * ranks + rank]);
    const auto d_halo_columns = DeviceBuffer<int>::from_host(needs.halo_columns.data(), halo_size_);
    DeviceBuffer<int> d_asked(asked_offsets.back());
    exchange(comm, transfers(needs.receive_offsets), transfers(asked_offsets),
             {{d_halo_columns.get(), d_asked.get(), sizeof(int)}}, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<int> asked(asked_offsets.back());
    d_asked.copy_to_host(asked.data(), asked.size());
    std::vector<std::vector<int>> requests(ranks);
    for (int p = 0; p < ranks; ++p)
        requests[p].assign(asked.begin() + asked_offsets[p], asked.begin() + asked_offsets[p + 1]);
    const HaloSends sends = plan_halo_sends(requests, column_begin, rank);
    send_size_ = sends.local_indices.size();

    Local &local = *local_;
    local.sends = transfers(sends.offsets);
    local.receives = transfers(needs.receive_offsets);
    local.send_indices = DeviceBuffer<int>::from_host(sends.local_indices.data(), send_size_);
    local.send_values = DeviceBuffer<V>(send_size_);
    local.x = DeviceBuffer<V>(own_columns_ + halo_size_);
    if (rows_ > 0) {
        const CsrMatrix<V> renumbered{rows.rows, static_cast<int>(own_columns_ + halo_size_), rows.row_offsets,
                                      needs.local_columns, rows.values};
        local.matrix = std::make_unique<DeviceCsr<V>>(renumbered);
        local.multiply = std::make_unique<Spmv<V>>(*local.matrix, algorithm);
        local.multiply_storage = DeviceBuffer<char>(local.multiply->temp_bytes());
    }
}

template <class V>
DistributedSpmv<V>::~DistributedSpmv() = default;

template <class V>
void DistributedSpmv<V>::operator()(V alpha, const V *d_x, V beta, V *d_y, cudaStream_t stream) {
    SC_NVTX_RANGE("distributed::DistributedSpmv");
    require_device_pointers("distributed::DistributedSpmv", own_columns_, d_x, local_->x.get());
    require_device_pointers("distributed::DistributedSpmv", static_cast<std::size_t>(rows_), d_y, d_y);
    comm_.require_current_device("distributed::DistributedSpmv");
    Local &local = *local_;
    if (send_size_ > 0)
        StreamCompaction::detail::launch(pack_requested<V>, "distributed::pack_requested", blocks_for(send_size_, 256),
                                         256, 0, stream, d_x, local.send_indices.get(), send_size_,
                                         local.send_values.get());
    if (own_columns_ > 0)
        SC_CUDA_CHECK(cudaMemcpyAsync(local.x.get(), d_x, own_columns_ * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    exchange(comm_, local.sends, local.receives, {{local.send_values.get(), local.x.get() + own_columns_, sizeof(V)}},
             stream);
    if (rows_ > 0)
        (*local.multiply)(alpha, local.x.get(), beta, d_y, local.multiply_storage.get(), local.multiply_storage.size(),
                          stream);
}

template class DistributedSpmv<float>;
template class DistributedSpmv<double>;

}  // namespace distributed
}  // namespace StreamCompaction

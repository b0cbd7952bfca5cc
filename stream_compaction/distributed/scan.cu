#include <stream_compaction/distributed/exchange.h>
#include <stream_compaction/distributed/scan.h>

#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>

#include <cub/device/device_reduce.cuh>

#include <cstdint>
#include <type_traits>

namespace StreamCompaction {
namespace distributed {
namespace {

// a + b as the device adds: integers wrap (through their unsigned type: no signed overflow here).
template <class T>
T wrapping_add(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
        return a + b;
    }
}

}  // namespace

template <class T>
T exclusive_sum(const Communicator &comm, const T *d_in, T *d_out, std::size_t n, Workspace &ws,
                cudaStream_t stream) {
    SC_NVTX_RANGE("distributed::exclusive_sum");
    require_device_pointers("distributed::exclusive_sum", n, d_in, d_out);
    comm.require_current_device("distributed::exclusive_sum");
    require_not_capturing("distributed::exclusive_sum", stream);

    // Slot 0: [this rank's total | CUB's reduce storage | the scan's storage]; slot 1: the gather.
    std::size_t reduce_bytes = 0;
    if (n > 0)
        SC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, reduce_bytes, d_in, static_cast<T *>(nullptr),
                                             static_cast<std::int64_t>(n), stream));
    const std::size_t scan_bytes = n > 0 ? scan_temp_bytes<T>(n) : 0;
    const auto layout = detail::temp_layout(sizeof(T), reduce_bytes, scan_bytes);
    const auto pieces = layout.carve(ws.device(0, layout.bytes()));
    T *d_total = reinterpret_cast<T *>(pieces[0]);

    // 1. The shard's total (an empty shard's is 0).
    if (n > 0)
        SC_CUDA_CHECK(cub::DeviceReduce::Sum(pieces[1], reduce_bytes, d_in, d_total, static_cast<std::int64_t>(n),
                                             stream));
    else
        SC_CUDA_CHECK(cudaMemsetAsync(d_total, 0, sizeof(T), stream));

    // 2-3. Every rank's total; this rank's offset is the sum of those before it, in rank order.
    const std::vector<T> totals = all_gather_to_host(comm, d_total, 1, ws, 1, stream);
    T offset{}, sum{};
    for (int r = 0; r < comm.ranks(); ++r) {
        if (r == comm.rank()) offset = sum;
        sum = wrapping_add(sum, totals[r]);
    }

    // 4. One read and one write of the shard.
    if (n > 0) exclusive_scan(d_in, d_out, n, Sum{}, offset, pieces[2], scan_bytes, stream);
    return sum;
}

template std::int32_t exclusive_sum(const Communicator &, const std::int32_t *, std::int32_t *, std::size_t,
                                    Workspace &, cudaStream_t);
template std::int64_t exclusive_sum(const Communicator &, const std::int64_t *, std::int64_t *, std::size_t,
                                    Workspace &, cudaStream_t);
template float exclusive_sum(const Communicator &, const float *, float *, std::size_t, Workspace &, cudaStream_t);
template double exclusive_sum(const Communicator &, const double *, double *, std::size_t, Workspace &, cudaStream_t);

}  // namespace distributed
}  // namespace StreamCompaction

#pragma once
// Load-balancing search's dispatch: the grid (a block per kLbsTilesPerBlock tiles of the path) and the launch;
// the offsets check that the host-facing calls make.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/load_balance/kernels.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/device_buffer.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

template <class Offset, class SV, class F>
void launch_transform_lbs(const char *name, std::size_t n_items, const Offset *d_offsets, std::size_t segments,
                          SV segment_values, F f, cudaStream_t stream) {
    if (n_items > 0 && d_offsets == nullptr) throw std::invalid_argument(std::string(name) + ": null offsets");
    if (n_items > 0 && segments == 0)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n_items) +
                                    " items and no segment to hold them");
    if (n_items == 0) return;  // empty segments alone: nothing to call f on
    constexpr int kSteps = LbsTileStorage<typename SV::value_type, lbs_items_per_thread<typename SV::value_type>()>::kSteps;
    const std::size_t tiles = (n_items + segments + kSteps - 1) / kSteps;
    launch(transform_lbs_kernel<lbs_min_blocks<SV, F>(), Offset, SV, F>, name, blocks_for(tiles, kLbsTilesPerBlock),
           kLbsThreads, 0, stream, d_offsets, static_cast<long long>(segments), static_cast<long long>(n_items),
           segment_values, f);
}

template <class Offset>
void check_segment_offsets(const char *name, const Offset *d_offsets, std::size_t segments, std::size_t n_items,
                           cudaStream_t stream) {
    require_not_capturing(name, stream, "the offsets check");
    if (d_offsets == nullptr) throw std::invalid_argument(std::string(name) + ": null offsets");
    const unsigned long long none = ~0ull;
    DeviceBuffer<unsigned long long> d_first_bad = DeviceBuffer<unsigned long long>::from_host(&none, 1);
    constexpr int kThreads = 256;
    const std::size_t blocks = (segments + 1 + kThreads - 1) / kThreads;
    launch(find_bad_offset<Offset>, "find_bad_offset", static_cast<unsigned>(blocks < 4096 ? blocks : 4096), kThreads,
           0, stream, d_offsets, static_cast<long long>(segments), static_cast<long long>(n_items), d_first_bad.get());
    unsigned long long first_bad = none;
    SC_CUDA_CHECK(cudaMemcpyAsync(&first_bad, d_first_bad.get(), sizeof first_bad, cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (first_bad == none) return;
    const std::size_t i = static_cast<std::size_t>(first_bad);
    Offset around[2] = {};  // offsets[i - 1] and offsets[i]
    const std::size_t from = i == 0 ? 0 : i - 1;
    SC_CUDA_CHECK(cudaMemcpy(around, d_offsets + from, (i == 0 ? 1 : 2) * sizeof(Offset), cudaMemcpyDeviceToHost));
    const long long previous = static_cast<long long>(around[0]), value = static_cast<long long>(around[i == 0 ? 0 : 1]);
    std::string why;
    if (i == 0 && value != 0) why = "offsets[0] = " + std::to_string(value) + ", not 0";
    else if (i > 0 && previous > value)
        why = "offsets are not monotone: offsets[" + std::to_string(i - 1) + "] = " + std::to_string(previous) +
              " > offsets[" + std::to_string(i) + "] = " + std::to_string(value);
    else
        why = "offsets[" + std::to_string(segments) + "] = " + std::to_string(value) + ", not the item count " +
              std::to_string(n_items);
    throw std::invalid_argument(std::string(name) + ": " + why);
}

}  // namespace detail
}  // namespace StreamCompaction

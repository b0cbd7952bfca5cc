#pragma once
// Grouped nearest neighbours (issue #15; moderngpu's "cities" demonstration): points with a group
// id, and for each point the k nearest other points of its own group. Built on the library's
// transforms: a stable radix sort puts each group's members together, a scan of every point's
// group size gives each point its pairs (all pairs within a group: an interval expand of the
// members over the points), and transform_lbs visits every pair, load-balanced however unequal
// the groups, offering each pair's distance to the point's k slots (detail/neighbors/functors.cuh:
// an atomicMin cascade that keeps the k smallest; once the slots fill, most pairs are dropped by
// the bound each tile loads with the point, reading only the other end's place, which the members'
// places in group order make a coalesced read). A last pass sorts each point's slots. The work is the sum of the squared group
// sizes: meant for groups of up to some tens of thousands of points.
//
// Example:
//   std::vector<float> x = {0, 1, 5, 0.5f, 9}, y = {0, 0, 0, 0, 9};
//   std::vector<int> group = {0, 0, 0, 0, 1}, nearest(5 * 2);
//   auto d_x = DeviceBuffer<float>::from_host(x.data(), 5);
//   auto d_y = DeviceBuffer<float>::from_host(y.data(), 5);
//   auto d_group = DeviceBuffer<int>::from_host(group.data(), 5);
//   DeviceBuffer<int> d_nearest(5 * 2);
//   DeviceBuffer<char> d_temp(grouped_nearest_temp_bytes(5, 2, 2));
//   grouped_nearest(d_x.get(), d_y.get(), d_group.get(), 5, 2, 2, d_nearest.get(), d_temp.get(), d_temp.bytes());
//   d_nearest.copy_to_host(nearest.data(), 10);
//   if (nearest != std::vector<int>{3, 1, 3, 0, 1, 3, 0, 1, -1, -1}) return 1;  // point 4 is alone
//
// Contracts: n points at d_x[i], d_y[i] (finite), group ids d_group[i] in [0, groups) (a point
// outside gets k times -1 and is nobody's neighbour); 1 <= k <= 32; neighbours by squared
// Euclidean distance computed in float, ties to the lower index (near-ties may order otherwise
// than in double: CPU::groupedNearest's); -1 past the group's size minus one. Waits for the device
// once (the pair count sizes the search), so it refuses a capturing stream. Temporary storage:
// grouped_nearest_temp_bytes(n, groups, k), at any alignment. Errors: std::invalid_argument for bad
// arguments (nothing enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/neighbors/functors.cuh>
#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

constexpr int kMaxGroupedNeighbors = 32;

// Storage: the point indices and their group ids sorted by group, the places in that order, each
// group's bounds, every point's pair offsets, its k slots, and the radix sort's and the scan's
// storage (one at a time).
inline TempLayout<9> grouped_nearest_layout(std::size_t n, std::size_t groups, int k, const CallEnvironment &env) {
    const std::size_t sort_or_scan = std::max(radix_sort_temp_bytes<int, int>(n, env), scan_temp_bytes<long long>(n));
    return temp_layout(n * sizeof(int), n * sizeof(int), n * sizeof(int), n * sizeof(float2), groups * sizeof(int),
                       groups * sizeof(int), (n + 1) * sizeof(long long),
                       n * static_cast<std::size_t>(k) * sizeof(unsigned long long), sort_or_scan);
}

}  // namespace detail

inline std::size_t grouped_nearest_temp_bytes(std::size_t n, std::size_t groups, int k,
                                              const CallEnvironment &env = {}) {
    return detail::grouped_nearest_layout(n, groups, std::clamp(k, 1, detail::kMaxGroupedNeighbors), env).bytes();
}

// d_out[i * k + j] = the (j + 1)-th nearest other point of point i's group, -1 past its group.
inline void grouped_nearest(const float *d_x, const float *d_y, const int *d_group, int n, int groups, int k, int *d_out,
                            void *d_temp, std::size_t temp_bytes, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("grouped_nearest");
    const char *name = "grouped_nearest";
    if (n < 0 || groups < 1 || k < 1 || k > detail::kMaxGroupedNeighbors)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) + " points, " + std::to_string(groups) +
                                    " groups, k = " + std::to_string(k) + " (groups >= 1, 1 <= k <= 32)");
    require_device_pointers(name, static_cast<std::size_t>(n), d_x, d_y);
    require_device_pointers(name, static_cast<std::size_t>(n), d_group, d_out);
    const auto layout = detail::grouped_nearest_layout(n, groups, k, env);
    require_temp_storage(name, d_temp, temp_bytes, layout.bytes());
    require_not_capturing(name, env.stream, "the pair count");
    if (n == 0) return;
    const auto pieces = layout.carve(d_temp);
    int *point_index = reinterpret_cast<int *>(pieces[0]), *members = reinterpret_cast<int *>(pieces[1]);
    int *sorted_groups = reinterpret_cast<int *>(pieces[2]);
    float2 *member_places = reinterpret_cast<float2 *>(pieces[3]);
    int *begin = reinterpret_cast<int *>(pieces[4]), *end = reinterpret_cast<int *>(pieces[5]);
    long long *pair_offsets = reinterpret_cast<long long *>(pieces[6]);
    unsigned long long *slots = reinterpret_cast<unsigned long long *>(pieces[7]);
    void *work = pieces[8];
    const std::size_t work_bytes = std::max(radix_sort_temp_bytes<int, int>(n, env), scan_temp_bytes<long long>(n));

    constexpr int kThreads = 256;
    const unsigned grid = std::min(blocks_for(n, kThreads), 4096u);
    detail::launch(detail::fill_positions<int>, "fill_positions", grid, kThreads, 0, env.stream, point_index,
                   static_cast<std::size_t>(n));  // the values the sort by group carries
    radix_sort_pairs(d_group, sorted_groups, point_index, members, n, work, work_bytes, env);
    detail::launch(detail::gather_member_places<>, "gather_member_places", grid, kThreads, 0, env.stream, members, d_x,
                   d_y, static_cast<long long>(n), member_places);
    SC_CUDA_CHECK(cudaMemsetAsync(begin, 0, groups * sizeof(int), env.stream));
    SC_CUDA_CHECK(cudaMemsetAsync(end, 0, groups * sizeof(int), env.stream));
    detail::launch(detail::group_bounds<>, "group_bounds", grid, kThreads, 0, env.stream, sorted_groups,
                   static_cast<long long>(n), groups, begin, end);
    SC_CUDA_CHECK(cudaMemsetAsync(pair_offsets, 0, sizeof(long long), env.stream));
    transform_inclusive_scan<long long>(n, detail::GroupSizeOf{d_group, begin, end, groups},
                                        detail::StorePairOffset{pair_offsets}, Sum{}, work, work_bytes, env);
    long long pairs = 0;
    SC_CUDA_CHECK(cudaMemcpyAsync(&pairs, pair_offsets + n, sizeof pairs, cudaMemcpyDeviceToHost, env.stream));
    SC_CUDA_CHECK(
        cudaMemsetAsync(slots, 0xFF, static_cast<std::size_t>(n) * k * sizeof(unsigned long long), env.stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
    transform_lbs(detail::OfferPair{member_places, members, slots, k}, static_cast<std::size_t>(pairs), pair_offsets,
                  static_cast<std::size_t>(n), detail::LoadPointAndGroup{d_x, d_y, d_group, begin, slots, groups, k},
                  env);
    detail::launch(detail::write_neighbors<>, "write_neighbors", grid, kThreads, 0, env.stream, slots,
                   static_cast<long long>(n), k, d_out);
}

}  // namespace StreamCompaction

#pragma once
// Relational inner join of two sorted key arrays with duplicates: every pair (i, j) with a[i]
// equivalent to b[j], in order of i, then j. Built from the family's pieces: a sorted search of
// a's keys in b for each one's lower and upper bound (device/merge.cuh), the scan of the match
// counts into CSR offsets (device/scan.cuh), and the load-balancing search (transform_lbs) that
// gives each pair its item of a and its rank among that item's matches.
//
// Example:
//   std::vector<int> a = {1, 2, 2, 5}, b = {2, 2, 3, 5, 5};
//   auto d_a = DeviceBuffer<int>::from_host(a.data(), a.size());
//   auto d_b = DeviceBuffer<int>::from_host(b.data(), b.size());
//   std::size_t bytes = inner_join_temp_bytes(a.size(), b.size());
//   DeviceBuffer<char> d_temp(bytes);
//   // Checks that both are sorted, counts the pairs and waits for the count.
//   std::size_t pairs = inner_join_size(d_a.get(), a.size(), d_b.get(), b.size(), d_temp.get(), bytes);
//   if (pairs != 6) return 1;
//   DeviceBuffer<int> d_ia(pairs), d_ib(pairs);
//   DeviceBuffer<std::size_t> d_count(1);                  // the count again, in device memory
//   inner_join(d_a.get(), a.size(), d_b.get(), b.size(), d_ia.get(), d_ib.get(), pairs, d_count.get(),
//              d_temp.get(), bytes);
//   std::vector<int> ia(pairs), ib(pairs);
//   d_ia.copy_to_host(ia.data(), pairs);
//   d_ib.copy_to_host(ib.data(), pairs);
//   if (ia != std::vector<int>{1, 1, 2, 2, 3, 3} || ib != std::vector<int>{0, 1, 0, 1, 3, 4}) return 1;
//
// Contracts: a and b sorted under `less` (a strict weak ordering; keys match when neither is
// ordered before the other), any trivially copyable key type aligned to at most 16 bytes, indices
// of any integer type that holds na and nb. An empty side gives no pairs (nothing else is looked
// at, no storage needed). Fewer than 2^63 pairs.
//
// inner_join is graph-capturable: its count stays in device memory, so it cannot size its own
// output. It writes the true number of pairs to *d_num_pairs and the first min(pairs, capacity)
// of them, nothing past `capacity` (too small a capacity loses the rest, which the count shows).
// Its work grows with capacity as well as with the inputs: give it inner_join_size's count, or a
// close bound. It trusts the order of its inputs: unsorted ones give unspecified pairs (indices
// still inside a and b, at most na * nb of them), nothing written past capacity or read out of
// bounds.
// inner_join_size checks that both inputs are sorted (std::invalid_argument "... not sorted ..."
// otherwise) and returns the number of pairs: it waits on the host, so a capturing stream is
// refused up front (std::invalid_argument). Both take the same temporary storage, at any address.
// Errors: std::invalid_argument for bad arguments (nothing enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/merge/dispatch.cuh>
#include <stream_compaction/detail/merge/join.cuh>
#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <cuda_runtime.h>

#include <array>
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace StreamCompaction {
namespace detail {

// What the join keeps besides its arrays: the count inner_join_size reads back, and the two
// inputs' sortedness flags.
struct JoinScratch {
    std::size_t num_pairs;
    unsigned unsorted[2];
};

// Lower bounds, upper bounds (na each), offsets (na + 2: the filler segment's end), the scratch,
// the scan's storage.
inline TempLayout<5> join_layout(std::size_t na) {
    return temp_layout(na * sizeof(long long), na * sizeof(long long), (na + 2) * sizeof(long long),
                       sizeof(JoinScratch), scan_temp_bytes<long long>(na));
}

struct JoinStorage {
    long long *lower, *upper, *offsets;
    JoinScratch *scratch;
    void *scan;
};

inline JoinStorage carve_join(std::size_t na, void *d_temp) {
    const auto pieces = join_layout(na).carve(d_temp);
    return {reinterpret_cast<long long *>(pieces[0]), reinterpret_cast<long long *>(pieces[1]),
            reinterpret_cast<long long *>(pieces[2]), reinterpret_cast<JoinScratch *>(pieces[3]), pieces[4]};
}

template <class K>
void require_join_inputs(const char *name, const K *d_a, std::size_t na, const K *d_b, std::size_t nb) {
    require_device_input(name, na, d_a, "input a");
    require_device_input(name, nb, d_b, "input b");
}

// Bounds of a's keys in b, then offsets and *d_num_pairs from the scan of the match counts
// (na > 0, nb > 0).
template <class K, class Less>
void count_join_pairs(const char *name, const K *d_a, std::size_t na, const K *d_b, std::size_t nb,
                      long long capacity, std::size_t *d_num_pairs, const JoinStorage &storage, Less less,
                      const CallEnvironment &env) {
    sorted_search(name, d_a, na, d_b, nb, storage.lower, Bound::Lower, less, env.stream);
    sorted_search(name, d_a, na, d_b, nb, storage.upper, Bound::Upper, less, env.stream);
    transform_inclusive_scan<long long>(na, JoinMatchCount{storage.lower, storage.upper, static_cast<long long>(nb)},
                                        JoinOffsetStore{storage.offsets, na, capacity, d_num_pairs}, Sum{},
                                        storage.scan, scan_temp_bytes<long long>(na), env);
}

}  // namespace detail

// The storage of inner_join and inner_join_size (it depends on na alone).
inline std::size_t inner_join_temp_bytes(std::size_t na, std::size_t /*nb*/, const CallEnvironment & = {}) {
    return na == 0 ? 0 : detail::join_layout(na).bytes();
}

// The number of pairs, after checking that both inputs are sorted. Waits on the host.
template <class K, class LessOp = Less>
std::size_t inner_join_size(const K *d_a, std::size_t na, const K *d_b, std::size_t nb, void *d_temp,
                            std::size_t temp_bytes, const CallEnvironment &env = {}, LessOp less = LessOp{}) {
    SC_NVTX_RANGE("inner_join_size");
    const char *name = "inner_join_size";
    detail::require_join_inputs(name, d_a, na, d_b, nb);
    if (na == 0 || nb == 0) return 0;
    require_not_capturing(name, env.stream, "the pair count");
    require_temp_storage(name, d_temp, temp_bytes, inner_join_temp_bytes(na, nb));
    const detail::JoinStorage storage = detail::carve_join(na, d_temp);
    detail::require_sorted(name, d_a, na, d_b, nb, less, storage.scratch->unsorted, env.stream);
    detail::count_join_pairs(name, d_a, na, d_b, nb, 0, &storage.scratch->num_pairs, storage, less, env);
    std::size_t pairs = 0;
    SC_CUDA_CHECK(
        cudaMemcpyAsync(&pairs, &storage.scratch->num_pairs, sizeof pairs, cudaMemcpyDeviceToHost, env.stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
    return pairs;
}

// d_out_a_indices[p], d_out_b_indices[p]: pair p's items of a and b, for p < min(pairs, capacity);
// *d_num_pairs (device memory) = pairs. Graph-capturable; see the contracts above.
template <class K, class Index, class LessOp = Less>
void inner_join(const K *d_a, std::size_t na, const K *d_b, std::size_t nb, Index *d_out_a_indices,
                Index *d_out_b_indices, std::size_t capacity, std::size_t *d_num_pairs, void *d_temp,
                std::size_t temp_bytes, const CallEnvironment &env = {}, LessOp less = LessOp{}) {
    SC_NVTX_RANGE("inner_join");
    const char *name = "inner_join";
    detail::require_join_inputs(name, d_a, na, d_b, nb);
    if (d_num_pairs == nullptr) throw std::invalid_argument(std::string(name) + ": null d_num_pairs");
    require_device_input(name, capacity, d_out_a_indices, "output of a's indices");
    require_device_input(name, capacity, d_out_b_indices, "output of b's indices");
    detail::require_index_fits<Index>(name, na, "input a's size");
    detail::require_index_fits<Index>(name, nb, "input b's size");
    if (capacity > static_cast<std::size_t>(LLONG_MAX))
        throw std::invalid_argument(std::string(name) + ": capacity of " + std::to_string(capacity) +
                                    " pairs (the work grows with it: give the count or a close bound)");
    if (na == 0 || nb == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_num_pairs, 0, sizeof(std::size_t), env.stream));
        return;
    }
    require_temp_storage(name, d_temp, temp_bytes, inner_join_temp_bytes(na, nb));
    const detail::JoinStorage storage = detail::carve_join(na, d_temp);
    detail::count_join_pairs(name, d_a, na, d_b, nb, static_cast<long long>(capacity), d_num_pairs, storage, less,
                             env);
    if (capacity == 0) return;
    // Segments 0 .. na - 1 are a's items; segment na is the filler up to capacity.
    const detail::JoinEmit<Index> emit{storage.lower, static_cast<long long>(na), static_cast<long long>(nb),
                                       d_out_a_indices, d_out_b_indices};
    transform_lbs(emit, capacity, static_cast<const long long *>(storage.offsets), na + 1, env);
}

}  // namespace StreamCompaction

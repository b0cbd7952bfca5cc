#pragma once
// Merge of sorted arrays and searches in a sorted array: merge_keys and merge_pairs (stable: of
// equivalent keys, a's come first, each side in its order), sorted_search (the lower or upper
// bound of every needle of a sorted array of needles, in one merge-path pass), and lower_bound /
// upper_bound for needles in any order (a binary search each, thrust's vectorized contract).
//
// Example:
//   std::vector<int> a = {1, 3, 3, 7}, b = {2, 3, 8}, merged(7);
//   auto d_a = DeviceBuffer<int>::from_host(a.data(), a.size());
//   auto d_b = DeviceBuffer<int>::from_host(b.data(), b.size());
//   DeviceBuffer<int> d_merged(7);
//   merge_keys(d_a.get(), a.size(), d_b.get(), b.size(), d_merged.get(), Less{});   // stream 0
//   d_merged.copy_to_host(merged.data(), 7);
//   if (merged != std::vector<int>{1, 2, 3, 3, 3, 7, 8}) return 1;   // a's 3s before b's
//   DeviceBuffer<long long> d_bounds(4);
//   std::vector<long long> bounds(4);
//   sorted_search(d_a.get(), a.size(), d_b.get(), b.size(), d_bounds.get(), Bound::Lower, Less{});
//   d_bounds.copy_to_host(bounds.data(), 4);
//   if (bounds != std::vector<long long>{0, 1, 1, 2}) return 1;   // b's items ordered before each a
//   sorted_search(d_a.get(), a.size(), d_b.get(), b.size(), d_bounds.get(), Bound::Upper, Less{});
//   d_bounds.copy_to_host(bounds.data(), 4);
//   if (bounds != std::vector<long long>{0, 2, 2, 2}) return 1;   // b's items not ordered after it
//   std::vector<int> needles = {9, 0, 3};
//   auto d_needles = DeviceBuffer<int>::from_host(needles.data(), 3);
//   lower_bound(d_b.get(), b.size(), d_needles.get(), 3, d_bounds.get(), Less{});  // any order
//   d_bounds.copy_to_host(bounds.data(), 3);
//   if (bounds[0] != 3 || bounds[1] != 0 || bounds[2] != 1) return 1;
//
// Contracts: `less` is a strict weak ordering of the keys (a device functor, bool less(x, y));
// merge inputs, sorted_search's needles and haystack, and lower_bound's haystack are sorted
// under it (not checked: the results are then unspecified, though every read and write stays in
// bounds). Keys and values of any trivially copyable type aligned to at most 16 bytes; indices
// of any integer type that holds the haystack's size (checked). Outputs must not overlap inputs.
// 64-bit sizes; an empty input gives an empty or a zero-bound result.
//
// No temporary storage: a call is one launch, or for a merge of many tiles two (a corner pass,
// which keeps each full tile's corners in the first 16 bytes of that tile's own output until the
// tile reads them, then the full tiles, launched as the pass's programmatic dependents on sm_90), so
// it may be captured in a CUDA graph and replayed, and run on several streams at once. Tiles:
// merge_threads<Pairs>() threads (kMergePlannedThreads after a corner pass), each taking
// merge_items_per_thread<K, Pairs>() steps of the merge path (sorted search:
// sorted_search_items_per_thread<K>(); tuning/policies.h has a policy for each).
// Errors: std::invalid_argument for null pointers with items to process and indices too narrow
// (nothing enqueued), cuda_error from CUDA.
#include <stream_compaction/detail/merge/dispatch.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>
#include <stream_compaction/support/operators.cuh>

#include <cstddef>

namespace StreamCompaction {

// Inputs (keys, values, needles, haystack) are pointers, thrust::device_ptr or any random-access
// iterators the device can read (Thrust's counting, transform, zip iterators, ...); outputs
// pointers or any random-access output iterators (a discard or transform output iterator, a
// pointer to another type). Keys are merged and compared as the first input's value type (K; b's
// keys and the haystack converted to it), values carried as a's value type. Pointers to those
// types keep the staged loads and, for a merge of many tiles into an array of K, the corner pass;
// other iterators take the tiles that search their own corners, an item at a time.

// ---- merge ----

// d_out[0, na + nb) = the stable merge of d_a[0, na) and d_b[0, nb).
template <class AKeys, class BKeys, class OutKeys, class LessOp>
void merge_keys(AKeys d_a, std::size_t na, BKeys d_b, std::size_t nb, OutKeys d_out, LessOp less,
                const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("merge_keys");
    using K = detail::input_value_t<AKeys>;
    const auto a = detail::read_only_input(d_a);
    const auto b = detail::read_only_input(d_b);
    const auto out = detail::unwrap_input(d_out);
    require_device_input("merge_keys", na, a, "input a");
    require_device_input("merge_keys", nb, b, "input b");
    require_device_input("merge_keys", na + nb, out, "output");
    const char *no_values = nullptr;
    detail::launch_merge<false>(
        "merge_keys", detail::merge_arrays(a, no_values, na, b, no_values, nb, out, static_cast<char *>(nullptr)), less,
        env.stream);
}

// The same for keys with values: each value stays beside its key.
template <class AKeys, class AValues, class BKeys, class BValues, class OutKeys, class OutValues, class LessOp>
void merge_pairs(AKeys d_a_keys, AValues d_a_values, std::size_t na, BKeys d_b_keys, BValues d_b_values,
                 std::size_t nb, OutKeys d_out_keys, OutValues d_out_values, LessOp less,
                 const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("merge_pairs");
    using K = detail::input_value_t<AKeys>;
    using V = detail::input_value_t<AValues>;
    const auto a_keys = detail::read_only_input(d_a_keys);
    const auto a_values = detail::read_only_input(d_a_values);
    const auto b_keys = detail::read_only_input(d_b_keys);
    const auto b_values = detail::read_only_input(d_b_values);
    const auto out_keys = detail::unwrap_input(d_out_keys);
    const auto out_values = detail::unwrap_input(d_out_values);
    require_device_input("merge_pairs", na, a_keys, "keys of a");
    require_device_input("merge_pairs", na, a_values, "values of a");
    require_device_input("merge_pairs", nb, b_keys, "keys of b");
    require_device_input("merge_pairs", nb, b_values, "values of b");
    require_device_input("merge_pairs", na + nb, out_keys, "output keys");
    require_device_input("merge_pairs", na + nb, out_values, "output values");
    detail::launch_merge<true>(
        "merge_pairs", detail::merge_arrays(a_keys, a_values, na, b_keys, b_values, nb, out_keys, out_values), less,
        env.stream);
}

// ---- searches ----
// Bounds are written as the output's integer type (checked to hold the haystack's size), or as
// long long into an output iterator whose value type is not an integer (a transform output).

// Sorted needles: d_out_indices[i] = the lower bound (Bound::Lower: the number of haystack items
// ordered before needle i) or the upper bound (Bound::Upper: those not ordered after it) of each
// needle, moderngpu's sorted_search. One merge-path pass: O(n_needles + n_haystack) work.
template <class Needles, class Haystack, class Out, class LessOp>
void sorted_search(Needles d_needles, std::size_t n_needles, Haystack d_haystack, std::size_t n_haystack,
                   Out d_out_indices, Bound bound, LessOp less, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("sorted_search");
    detail::sorted_search("sorted_search", detail::read_only_input(d_needles), n_needles,
                          detail::read_only_input(d_haystack), n_haystack, detail::unwrap_input(d_out_indices), bound,
                          less, env.stream);
}

// Needles in any order: d_out[i] = the first position of d_haystack[0, n) where needle i could be
// inserted keeping it sorted (thrust::lower_bound's vectorized form). A binary search per needle.
template <class Haystack, class Needles, class Out, class LessOp = Less>
void lower_bound(Haystack d_haystack, std::size_t n, Needles d_needles, std::size_t m, Out d_out,
                 LessOp less = LessOp{}, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("lower_bound");
    detail::binary_search<Bound::Lower>("lower_bound", detail::unwrap_input(d_haystack), n,
                                        detail::unwrap_input(d_needles), m, detail::unwrap_input(d_out), less,
                                        env.stream);
}

// ... and the last such position (thrust::upper_bound).
template <class Haystack, class Needles, class Out, class LessOp = Less>
void upper_bound(Haystack d_haystack, std::size_t n, Needles d_needles, std::size_t m, Out d_out,
                 LessOp less = LessOp{}, const CallEnvironment &env = {}) {
    SC_NVTX_RANGE("upper_bound");
    detail::binary_search<Bound::Upper>("upper_bound", detail::unwrap_input(d_haystack), n,
                                        detail::unwrap_input(d_needles), m, detail::unwrap_input(d_out), less,
                                        env.stream);
}

}  // namespace StreamCompaction

#pragma once
// The element of the by-key scans (reduce_by_key, unique_by_key, run_length_encode): a count of
// run starts and the combination of the values since the last one, under an operator that is
// associative whenever the caller's is.
#include <stream_compaction/detail/block/tile_scan.cuh>
#include <stream_compaction/detail/grid/tile_status.cuh>

namespace StreamCompaction {
namespace detail {

// Over a stretch of items: `heads` counts the runs that start inside it, and `value` combines its
// items since the last such start (all of them when none does). Scanned inclusively from item 0,
// item i gets heads = the number of runs that started at or before i (its run is number heads - 1)
// and value = the combination of its run's items up to i.
template <class V>
struct RunPair {
    unsigned heads;
    V value;
};

// op(earlier, later): the counts add up; the value restarts where `later` holds a run start. Never
// reorders op's arguments, so a non-commutative op stays right.
//
// Unlike the segmented operator's (segmented_pair.cuh), a stretch holding a run start is not its
// own inclusive prefix: its value part is, but its count still needs every run before it. So there
// is no restarts_scan overload for RunOp: a tile publishes its aggregate, looks back, then publishes
// its inclusive prefix, like a plain sum.
template <class Op>
struct RunOp {
    Op op;
    template <class V>
    __device__ RunPair<V> operator()(const RunPair<V> &earlier, const RunPair<V> &later) const {
        return {earlier.heads + later.heads, later.heads ? later.value : op(earlier.value, later.value)};
    }
};

}  // namespace detail
}  // namespace StreamCompaction

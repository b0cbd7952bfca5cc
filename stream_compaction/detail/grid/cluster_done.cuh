#pragma once
// Combining the blocks of a one-launch reduction whose grid is one thread block cluster (sm_90 on):
// each block's thread 0 writes its partial into the first block's shared memory (distributed shared
// memory), the cluster's barrier orders those writes before that block reads them, and its first
// warp combines them in block order. No partials in global memory, no ticket, no fence: nothing
// outlives the launch, so graph replay and calls on overlapping streams need nothing more.
#include <stream_compaction/detail/util/shared_storage.cuh>
#include <stream_compaction/detail/warp/warp_reduce.cuh>
#include <stream_compaction/tuning/policies.h>

#include <cooperative_groups.h>

namespace StreamCompaction {
namespace detail {

template <class Acc>
struct ClusterPartials {
    Acc values[kReduceClusterMaxBlocks];
};

// The end of every block of a reduction launched as one cluster of at most kReduceClusterMaxBlocks
// blocks (launch_one_cluster), the blocks holding consecutive parts of the input (or any parts, for
// an operator that commutes): thread 0's `block_total` is its block's part combined; the launch's
// result goes to finish(total), called by one thread. Every thread of every block calls begin()
// as the kernel's first step and the operator at its end.
//
// Another block's shared memory may be written only once that block runs: begin() arrives at the
// cluster's barrier, and the operator waits there before its write, so the wait costs nothing once
// the blocks have loaded their parts. The second barrier orders the writes before the reads.
template <class Acc, class Finish>
struct ClusterDone {
    Finish finish;

    __device__ __forceinline__ void begin() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#endif
    }

    template <class Combine>
    __device__ __forceinline__ void operator()(const Acc &block_total, Combine combine) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
        auto &partials = shared_storage<ClusterPartials<Acc>>();
        const unsigned rank = cluster.block_rank();
        asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // every block of the cluster runs
        if (threadIdx.x == 0) cluster.map_shared_rank(&partials, 0)->values[rank] = block_total;
        cluster.sync();  // every block's write to the first block is visible to it
        if (rank == 0 && threadIdx.x < kWarpThreads) {
            const unsigned blocks = cluster.num_blocks();
            const unsigned lane = threadIdx.x;
            const Acc total = warp_reduce_prefix(partials.values[lane < blocks ? lane : 0], blocks, combine);
            if (lane == 0) finish(total);
        }
#else
        __trap();  // unreachable: launch_one_cluster refuses kernels not compiled for sm_90 (kernel_compiled_for_sm90)
#endif
    }
};

}  // namespace detail
}  // namespace StreamCompaction

#pragma once
// Programmatic dependent launch (sm_90 on): a kernel launched with launch_dependent may start its
// blocks while the kernel before it in the stream still runs, once every block of that kernel has
// called allow_dependent_launch (or ended); its blocks must call wait_for_prior_grid before they
// read anything that kernel writes, which returns once it has ended and its writes are visible.
// Both are no-ops where there is no such launch (a plain launch, or code for an older GPU, which
// launch_dependent launches plainly).

namespace StreamCompaction {
namespace detail {

__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

__device__ __forceinline__ void wait_for_prior_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace detail
}  // namespace StreamCompaction

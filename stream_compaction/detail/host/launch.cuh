#pragma once
// The one way every kernel of the device API is launched (checks: launch.h).
#include <stream_compaction/detail/host/launch.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/tuning/policies.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace StreamCompaction {
namespace detail {

// Launches kernel<<<blocks, threads, dynamic_shared_bytes, stream>>>(args...) after
// prepare_launch, and checks the launch.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const LaunchSite &site, unsigned blocks, int threads,
            std::size_t dynamic_shared_bytes, cudaStream_t stream, Args &&...args) {
    prepare_launch(reinterpret_cast<const void *>(kernel), site.name, threads, dynamic_shared_bytes);
    kernel<<<blocks, threads, dynamic_shared_bytes, stream>>>(std::forward<Args>(args)...);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) throw_cuda_error(status, site.name, site.file, site.line);
}

// Launches kernel with one launch attribute (cudaLaunchKernelEx), prepare_launch having run, and
// checks the launch.
template <class... Params, class... Args>
void launch_with_attribute(void (*kernel)(Params...), const LaunchSite &site, unsigned blocks, int threads,
                           std::size_t dynamic_shared_bytes, cudaStream_t stream, cudaLaunchAttribute attribute,
                           Args &&...args) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = dynamic_shared_bytes;
    config.stream = stream;
    config.attrs = &attribute;
    config.numAttrs = 1;
    cudaError_t status = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
    const cudaError_t last = cudaGetLastError();  // cleared either way, as after a <<<>>> launch
    if (status == cudaSuccess) status = last;
    if (status != cudaSuccess) throw_cuda_error(status, site.name, site.file, site.line);
}

// Launches kernel over `blocks` blocks that form one thread block cluster (at most 8, the portable
// cluster size), after prepare_launch, and checks the launch. Only a kernel compiled for sm_90 or
// later has the cluster code (callers choose this path by kernel_compiled_for_sm90); any other is
// refused with std::invalid_argument before anything is enqueued.
template <class... Params, class... Args>
void launch_one_cluster(void (*kernel)(Params...), const LaunchSite &site, unsigned blocks, int threads,
                        std::size_t dynamic_shared_bytes, cudaStream_t stream, Args &&...args) {
    prepare_launch(reinterpret_cast<const void *>(kernel), site.name, threads, dynamic_shared_bytes);
    if (!kernel_compiled_for_sm90(reinterpret_cast<const void *>(kernel)))
        throw std::invalid_argument(std::string(site.name) +
                                    ": a one-cluster launch needs the kernel compiled for sm_90 or later; this "
                                    "binary's code for the device was compiled for an older architecture");
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = blocks;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    launch_with_attribute(kernel, site, blocks, threads, dynamic_shared_bytes, stream, cluster,
                          std::forward<Args>(args)...);
}

// Launches kernel as a programmatic dependent of the kernel before it in the stream
// (detail/grid/dependent_launch.cuh): its blocks may start while that kernel's last blocks run and
// wait in wait_for_prior_grid until it has ended, so that the launch and the blocks' start overlap
// its tail. Plainly where the kernel was compiled for a GPU older than sm_90 (no wait in it: its PTX
// version, kernel_compiled_for_sm90). Captured into a CUDA graph, the dependency becomes a
// programmatic edge.
template <class... Params, class... Args>
void launch_dependent(void (*kernel)(Params...), const LaunchSite &site, unsigned blocks, int threads,
                      std::size_t dynamic_shared_bytes, cudaStream_t stream, Args &&...args) {
    if (!kernel_compiled_for_sm90(reinterpret_cast<const void *>(kernel))) {
        launch(kernel, site, blocks, threads, dynamic_shared_bytes, stream, std::forward<Args>(args)...);
        return;
    }
    prepare_launch(reinterpret_cast<const void *>(kernel), site.name, threads, dynamic_shared_bytes);
    cudaLaunchAttribute dependent{};
    dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent.val.programmaticStreamSerializationAllowed = 1;
    launch_with_attribute(kernel, site, blocks, threads, dynamic_shared_bytes, stream, dependent,
                          std::forward<Args>(args)...);
}

// The look-back sleeps of a launch of `tiles` tiles of `kernel` (look_back_delay, tuning/policies.h):
// `tuned` when the tiles are several waves of the blocks resident at once, none otherwise.
template <class... Params>
LookBackDelay look_back_delay_for(void (*kernel)(Params...), const char *name, LookBackDelay tuned,
                                  std::size_t tiles, int threads, std::size_t dynamic_shared_bytes) {
    return look_back_delay(tuned, tiles,
                           resident_grid(reinterpret_cast<const void *>(kernel), name, threads, dynamic_shared_bytes));
}

}  // namespace detail
}  // namespace StreamCompaction

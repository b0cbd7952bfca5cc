#pragma once
// A CCCL memory resource as the library's MemoryResource (memory_resource.h): any object with the
// stream-ordered interface of cuda::mr, in either of its spellings:
//   CCCL 3.0 (cuda::mr::async_resource, RMM's device_async_resource_ref):
//     void *allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref);
//     void deallocate_async(void *p, std::size_t bytes, std::size_t alignment, cuda::stream_ref);
//   CCCL 3.1 and later:
//     void *allocate(cuda::stream_ref, std::size_t bytes, std::size_t alignment);
//     void deallocate(cuda::stream_ref, void *p, std::size_t bytes, std::size_t alignment);
// The adapter holds a reference: the resource must outlive it.
//
// Example:
//   rmm::mr::cuda_async_memory_resource pool;
//   AsyncResourceAdapter memory(pool);
//   radix_sort_keys(d_in, d_out, n, CallEnvironment{stream, memory});
#include <stream_compaction/support/memory_resource.h>

#include <cuda/stream_ref>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace StreamCompaction {
namespace detail {

template <class R, class = void>
struct has_allocate_async : std::false_type {};
template <class R>
struct has_allocate_async<R, std::void_t<decltype(std::declval<R &>().allocate_async(
                                 std::size_t{}, std::size_t{}, std::declval<cuda::stream_ref>()))>> : std::true_type {};

template <class R, class = void>
struct has_stream_first_allocate : std::false_type {};
template <class R>
struct has_stream_first_allocate<R, std::void_t<decltype(std::declval<R &>().allocate(
                                        std::declval<cuda::stream_ref>(), std::size_t{}, std::size_t{}))>>
    : std::true_type {};

}  // namespace detail

template <class Resource>
class AsyncResourceAdapter final : public MemoryResource {
    static_assert(detail::has_allocate_async<Resource>::value || detail::has_stream_first_allocate<Resource>::value,
                  "AsyncResourceAdapter needs a stream-ordered resource: allocate_async(bytes, alignment, stream) "
                  "(CCCL 3.0) or allocate(stream, bytes, alignment) (CCCL 3.1 and later)");

public:
    // What every allocation is aligned to: cudaMalloc's alignment, which CUB asks for too.
    static constexpr std::size_t kAlignment = 256;

    explicit AsyncResourceAdapter(Resource &resource) noexcept : resource_(&resource) {}

    void *allocate(std::size_t bytes, cudaStream_t stream) override {
        if constexpr (detail::has_allocate_async<Resource>::value)
            return resource_->allocate_async(bytes, kAlignment, cuda::stream_ref{stream});
        else
            return resource_->allocate(cuda::stream_ref{stream}, bytes, kAlignment);
    }
    void deallocate(void *p, std::size_t bytes, cudaStream_t stream) noexcept override {
        if constexpr (detail::has_allocate_async<Resource>::value)
            resource_->deallocate_async(p, bytes, kAlignment, cuda::stream_ref{stream});
        else
            resource_->deallocate(cuda::stream_ref{stream}, p, bytes, kAlignment);
    }

private:
    Resource *resource_;
};

}  // namespace StreamCompaction

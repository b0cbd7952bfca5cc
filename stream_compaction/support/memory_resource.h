#pragma once
// Where the library's allocations come from. The calls that allocate (the overloads without
// temporary-storage arguments, and Spmv's plan and per-call storage) take their memory from the
// MemoryResource of their CallEnvironment (support/call_environment.h), so a caller's pool (RMM,
// PyTorch's caching allocator, cuda::mr resources through AsyncResourceAdapter) can serve them.
// The calls that take the caller's temporary storage allocate nothing.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace StreamCompaction {

// A stream-ordered device allocator. Invariant the library keeps: every allocate(bytes, stream)
// is matched by exactly one deallocate(p, bytes, stream') with the same pointer and bytes; stream'
// is the allocation's stream unless the owner documents another.
class MemoryResource {
public:
    virtual ~MemoryResource() = default;
    // `bytes` (> 0) of device memory that work enqueued on `stream` after this call may use.
    // Throws on failure; never returns null.
    virtual void *allocate(std::size_t bytes, cudaStream_t stream) = 0;
    // Gives back what allocate returned; the memory may be reused by work ordered after the work
    // already enqueued on `stream`.
    virtual void deallocate(void *p, std::size_t bytes, cudaStream_t stream) noexcept = 0;
};

// The default resource: cudaMallocAsync and cudaFreeAsync on the call's stream (the device's
// default memory pool). Errors throw cuda_error naming the call.
MemoryResource &stream_ordered_memory() noexcept;

// Device memory of `bytes` from a resource, given back when this object goes, on the stream it was
// allocated on (as rmm::device_buffer does): the resource and the stream must outlive it.
class ResourceBuffer {
public:
    ResourceBuffer() = default;
    ResourceBuffer(MemoryResource &resource, std::size_t bytes, cudaStream_t stream)
        : resource_(&resource), bytes_(bytes), stream_(stream) {
        if (bytes > 0) data_ = resource.allocate(bytes, stream);
    }
    ResourceBuffer(ResourceBuffer &&other) noexcept { swap(other); }
    ResourceBuffer &operator=(ResourceBuffer &&other) noexcept {
        ResourceBuffer(std::move(other)).swap(*this);
        return *this;
    }
    ResourceBuffer(const ResourceBuffer &) = delete;
    ResourceBuffer &operator=(const ResourceBuffer &) = delete;
    ~ResourceBuffer() {
        if (data_ != nullptr) resource_->deallocate(data_, bytes_, stream_);
    }

    void *get() const noexcept { return data_; }
    template <class T>
    T *as() const noexcept {
        return static_cast<T *>(data_);
    }
    std::size_t bytes() const noexcept { return bytes_; }

private:
    void swap(ResourceBuffer &other) noexcept {
        std::swap(resource_, other.resource_);
        std::swap(data_, other.data_);
        std::swap(bytes_, other.bytes_);
        std::swap(stream_, other.stream_);
    }
    MemoryResource *resource_ = nullptr;
    void *data_ = nullptr;
    std::size_t bytes_ = 0;
    cudaStream_t stream_ = nullptr;
};

}  // namespace StreamCompaction

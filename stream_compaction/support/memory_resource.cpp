#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/memory_resource.h>

namespace StreamCompaction {
namespace {

class StreamOrderedMemory final : public MemoryResource {
public:
    void *allocate(std::size_t bytes, cudaStream_t stream) override {
        void *p = nullptr;
        SC_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
        return p;
    }
    // No throw: a failure here is reported by the stream's next checked call.
    void deallocate(void *p, std::size_t, cudaStream_t stream) noexcept override { cudaFreeAsync(p, stream); }
};

}  // namespace

MemoryResource &stream_ordered_memory() noexcept {
    static StreamOrderedMemory resource;
    return resource;
}

}  // namespace StreamCompaction

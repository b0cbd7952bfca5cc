#pragma once
// Owning device allocation for the course wrappers, the tests and the benchmark. The device API
// itself never allocates behind the caller's back unless asked to (see each *_temp_bytes()).
#include <stream_compaction/support/cuda_check.h>

#include <cstddef>
#include <utility>

namespace StreamCompaction {

template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count > 0) SC_CUDA_CHECK(cudaMalloc(&data_, count * sizeof(T)));
    }
    // Allocates `count` elements and copies them from host memory. Done when it returns, so the
    // buffer is ready for work on any stream (a pageable cudaMemcpy may return before its DMA ends,
    // and a non-blocking stream does not wait for the legacy stream it ran on).
    static DeviceBuffer from_host(const T *host, std::size_t count) {
        DeviceBuffer buffer(count);
        if (count > 0) {
            SC_CUDA_CHECK(cudaMemcpy(buffer.data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
            SC_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
        }
        return buffer;
    }
    void copy_to_host(T *host, std::size_t count) const {
        if (count > count_) throw std::out_of_range("DeviceBuffer::copy_to_host: count > size");
        if (count > 0)
            SC_CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
    }
    // Fills every byte with `byte` (tests poison outputs this way before a run); done when it returns.
    void fill_bytes(int byte) {
        if (count_ == 0) return;
        SC_CUDA_CHECK(cudaMemset(data_, byte, count_ * sizeof(T)));
        SC_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
    }

    DeviceBuffer(DeviceBuffer &&other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
        std::swap(data_, other.data_);
        std::swap(count_, other.count_);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    // No throw from a destructor. An empty buffer makes no call: even cudaFree(nullptr) is an
    // unsafe call that invalidates a capture under way on this thread (a call that refuses a
    // capturing stream may unwind through empty buffers).
    ~DeviceBuffer() {
        if (data_ != nullptr) cudaFree(data_);
    }

    T *get() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    std::size_t bytes() const noexcept { return count_ * sizeof(T); }

private:
    T *data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace StreamCompaction

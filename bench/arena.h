#pragma once
// Serves Thrust's temporary allocations from storage the benchmark allocated beforehand, so that a timed
// Thrust call allocates nothing: pass it as thrust::cuda::par_nosync(arena).on(stream). Thrust
// keeps a reference to it and never frees into it, so one arena serves one call.
#include <cstddef>
#include <stdexcept>

namespace bench {

class Arena {
public:
    using value_type = char;
    Arena(void *storage, std::size_t bytes) : storage_(static_cast<char *>(storage)), bytes_(bytes) {}
    // Each allocation starts 256-byte aligned, as a cudaMalloc would.
    char *allocate(std::ptrdiff_t bytes) {
        const std::size_t start = (used_ + 255) / 256 * 256;
        if (start + static_cast<std::size_t>(bytes) > bytes_)
            throw std::runtime_error("Thrust needs more temporary storage than the benchmark reserved");
        used_ = start + bytes;
        return storage_ + start;
    }
    void deallocate(char *, std::size_t) noexcept {}

private:
    char *storage_;
    std::size_t bytes_;
    std::size_t used_ = 0;
};

}  // namespace bench

#pragma once
// Error reporting of the device API: every CUDA call and every launch is checked, and a failure
// becomes a cuda_error exception naming the error, the call and the place. Only the course macro
// checkCUDAError (common.h) exits the process.
#include <cuda_runtime.h>

#include <stdexcept>

namespace StreamCompaction {

class cuda_error : public std::runtime_error {
public:
    // what(): "CUDA error (file:line): call: <error string> (<error name>)"
    cuda_error(cudaError_t code, const char *call, const char *file, int line);
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char *call, const char *file, int line);

}  // namespace StreamCompaction

#define SC_CUDA_CHECK(call)                                                                \
    do {                                                                                   \
        const cudaError_t sc_status_ = (call);                                             \
        if (sc_status_ != cudaSuccess)                                                     \
            ::StreamCompaction::throw_cuda_error(sc_status_, #call, __FILE__, __LINE__);   \
    } while (0)

// Checks the launch just made: a bad configuration surfaces here rather than at a later call.
#define SC_CHECK_LAUNCH(kernel)                                                            \
    do {                                                                                   \
        const cudaError_t sc_status_ = cudaGetLastError();                                 \
        if (sc_status_ != cudaSuccess)                                                     \
            ::StreamCompaction::throw_cuda_error(sc_status_, "launch of " #kernel,         \
                                                 __FILE__, __LINE__);                      \
    } while (0)

#include <stream_compaction/support/cuda_check.h>

#include <string>

namespace StreamCompaction {

static std::string describe(cudaError_t code, const char *call, const char *file, int line) {
    return std::string("CUDA error (") + file + ":" + std::to_string(line) + "): " + call + ": " +
           cudaGetErrorString(code) + " (" + cudaGetErrorName(code) + ")";
}

cuda_error::cuda_error(cudaError_t code, const char *call, const char *file, int line)
    : std::runtime_error(describe(code, call, file, line)), code_(code) {}

void throw_cuda_error(cudaError_t code, const char *call, const char *file, int line) {
    // Consume the runtime's record of a non-sticky error (e.g. a failed cudaMalloc), so that the
    // next launch check does not report it again as its own.
    cudaGetLastError();
    throw cuda_error(code, call, file, line);
}

}  // namespace StreamCompaction

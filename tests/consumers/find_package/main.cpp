// Consumer of an installed StreamCompaction: the Matrix Market reader (StreamCompaction::io) and
// the course CPU scan (StreamCompaction::core) run anywhere; the device scan needs a GPU.
// Exit codes: 0 pass, 1 fail, 77 no CUDA device (after the CPU-side checks passed).
#include <stream_compaction/cpu.h>
#include <stream_compaction/io/matrix_market.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <vector>

std::vector<int> device_exclusive_scan(const std::vector<int> &in);  // device_scan.cu

int main() {
    try {
        const StreamCompaction::CsrMatrix<double> m = StreamCompaction::read_matrix_market(SC_CONSUMER_MATRIX);
        if (m.rows != 3 || m.cols != 3 || m.nnz() != 4 || m.row_offsets != std::vector<int>{0, 1, 3, 4}) {
            std::printf("FAIL: tiny.mtx read as %d x %d, %zu nonzeros\n", m.rows, m.cols, m.nnz());
            return 1;
        }

        const int n = 100000;
        std::vector<int> in(n), expected(n);
        for (int i = 0; i < n; ++i) in[i] = (i * 7) % 11;
        StreamCompaction::CPU::scan(n, expected.data(), in.data());
        std::printf("io reader and CPU scan: ok\n");

        int devices = 0;
        const cudaError_t status = cudaGetDeviceCount(&devices);
        if (status != cudaSuccess || devices == 0) {
            std::printf("skipped: no CUDA device (%s): device scan not run\n",
                        status != cudaSuccess ? cudaGetErrorString(status) : "none found");
            return 77;
        }
        if (device_exclusive_scan(in) != expected) {
            std::printf("FAIL: device exclusive scan differs from the CPU scan\n");
            return 1;
        }
        std::printf("device exclusive scan of %d ints: ok\n", n);
        return 0;
    } catch (const std::exception &e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}

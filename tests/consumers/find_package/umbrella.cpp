// StreamCompaction::stream_compaction links core, io and sparse (with cuSPARSE). Host code only,
// so it runs without a GPU: exit 0 pass, 1 fail.
#include <stream_compaction/cpu.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/device/spmv.cuh>

#include <cstdio>
#include <cstring>
#include <exception>

int main() {
    namespace SC = StreamCompaction;
    try {
        const SC::CsrMatrix<double> poisson = SC::poisson_2d(4);  // 16 rows, 64 nonzeros
        const char *name = SC::spmv_algorithm_name(SC::SpmvAlgorithm::MergePath);
        int in[4] = {1, 2, 3, 4}, out[4] = {};
        SC::CPU::scan(4, out, in);
        if (poisson.rows != 16 || poisson.nnz() != 64 || std::strcmp(name, "merge-path") != 0 || out[3] != 6) {
            std::printf("FAIL: umbrella target: poisson_2d(4) %d rows %zu nonzeros, algorithm \"%s\", scan %d\n",
                        poisson.rows, poisson.nnz(), name, out[3]);
            return 1;
        }
        std::printf("umbrella target (core, io, sparse): ok\n");
        return 0;
    } catch (const std::exception &e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}

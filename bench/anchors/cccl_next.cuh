#pragma once
// What every file of sc_nvbench_cccl_next shares: the check that the CCCL compiled is SC_CCCL_NEXT's,
// and its benchmarks' names. sc_nvbench_cccl_next times CUB of a second, newer CCCL (the headers
// SC_CCCL_NEXT names, e.g. CCCL 3.6 from the cuda-cccl wheel: tools/cccl_next.sh) on the inputs and at
// the points of the NVBench parts (bench/nvbench/<part>.cu), in a program of its own: two CCCL
// versions are never mixed in one program. Each benchmark is named "<operation>/cub_<major>.<minor>"
// (with a suffix where one operation has several of that CUB's rows, e.g. scan_float/cub_3.6_env)
// and has exactly the axes of the toolkit CUB's benchmark of that operation, so that
// bench/nvbench/nvbench_to_csv.py, given both programs' JSONs, puts the two CUBs at one point (and
// bench/plot/anchors.py counts cub_<X.Y> as a library). Every output is poisoned before the timed
// runs and the last timed run's output checked in full against the CPU reference the part's own
// program uses (the shared inputs headers), recorded as sc/check/ok (bench/nvbench/check.cuh).
#include <cub/version.cuh>
#include <cuda/std/version>

#include <string>

// CMake reads CCCL_VERSION from SC_CCCL_NEXT's headers and passes it here: if the toolkit's own
// CCCL headers had been found first, this is where the build stops.
#ifndef SC_EXPECTED_CCCL_VERSION
#error "configure with -DSC_CCCL_NEXT=<CCCL include dir> (tools/cccl_next.sh); CMake defines SC_EXPECTED_CCCL_VERSION"
#endif
static_assert(CCCL_VERSION == SC_EXPECTED_CCCL_VERSION,
              "the CCCL headers compiled are not SC_CCCL_NEXT's (the toolkit's were found first?)");

namespace bench {

// "cub_<major>.<minor><suffix>", the version CUB_VERSION's (major * 100000 + minor * 100 + subminor):
// e.g. "cub_3.6", the implementation that the parts' shared CUB benchmarks (bench/nvbench/<part>_cub.cuh)
// are registered under here. Called as the benchmarks are registered, at static initialisation.
inline std::string cub_implementation(const std::string &suffix = "") {
    return "cub_" + std::to_string(CUB_VERSION / 100000) + "." + std::to_string(CUB_VERSION / 100 % 1000) + suffix;
}

// "<operation>/cub_<major>.<minor><suffix>": e.g. "scan/cub_3.6", the name of a row of this CUB's alone.
inline std::string cub_benchmark(const std::string &operation, const std::string &suffix = "") {
    return operation + "/" + cub_implementation(suffix);
}

}  // namespace bench

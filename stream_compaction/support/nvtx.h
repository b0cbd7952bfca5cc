#pragma once
// Every public call opens an NVTX range named after the primitive, so that an Nsight Systems
// timeline shows `exclusive_scan`, `radix_sort_keys`, ... around their kernels. NVTX 3 is
// header-only (in the CUDA toolkit) and costs next to nothing when no tool is attached. Off with
// the CMake option SC_NVTX=OFF (which defines SC_NVTX=0 for the library and its users).
#ifndef SC_NVTX
#define SC_NVTX 1
#endif

#if SC_NVTX
#include <nvtx3/nvToolsExt.h>

namespace StreamCompaction {
namespace detail {

class NvtxRange {
public:
    explicit NvtxRange(const char *name) { nvtxRangePushA(name); }
    ~NvtxRange() { nvtxRangePop(); }
    NvtxRange(const NvtxRange &) = delete;
    NvtxRange &operator=(const NvtxRange &) = delete;
};

}  // namespace detail
}  // namespace StreamCompaction

#define SC_NVTX_RANGE(name) const ::StreamCompaction::detail::NvtxRange sc_nvtx_range_(name)
#else
#define SC_NVTX_RANGE(name) ((void)0)
#endif

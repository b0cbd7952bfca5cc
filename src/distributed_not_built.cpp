// The harness's `distributed` group in a build without NCCL (SC_DISTRIBUTED=OFF, or NCCL not
// found): says so. Asked for by --only it counts as skipped, so that the run does not pass.
#include "test_groups.h"

void distributedTests(Harness &h, std::mt19937 &) {
    h.notBuilt("distributed", "distributed (NCCL) tests",
               "built without NCCL (configure with NCCL: -DNCCL_ROOT=..., or the nvidia-nccl wheel; README)");
}

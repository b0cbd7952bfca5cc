// The harness's `distributed` group in a build without NCCL (SC_DISTRIBUTED=OFF, or NCCL not
// found): registered as left out of this build, so that main refuses `--only distributed` (exit 3)
// and a run of every group names it on one line (Harness::finish).
#include "test_groups.h"

namespace {

const LeftOutOfThisBuild kDistributed(
    "distributed", "built without NCCL (configure with NCCL: -DNCCL_ROOT=..., or the nvidia-nccl wheel; docs/usage.md)");

}  // namespace

// Nothing to run: the group's absence is reported from groupsNotBuilt(); its name is registered so
// that --only distributed is refused as left out (exit 3), not as unknown (exit 2).
const RegisterTests kDistributedTests(130, {"distributed"}, [](Harness &, const GroupContext &) {});

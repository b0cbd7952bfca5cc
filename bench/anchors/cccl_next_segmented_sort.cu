// sc_nvbench_cccl_next's rows of the segmented-sort part (bench/nvbench/segmented_sort.cu): the CUB of
// SC_CCCL_NEXT (cccl_next.cuh) on that part's inputs (segmented_sort_inputs.cuh: n = 2^24 int32 keys and
// values, index hashes of every bit, in segments of seven size classes, axis param: kSizeClasses):
// segmented_sort_keys/cub_X.Y and segmented_sort_pairs/cub_X.Y, cub::DeviceSegmentedSort::
// StableSortKeys and StableSortPairs, called as segmented_sort.cu calls the toolkit's (int item and
// segment counts, the begin and end offsets from one array). Above its partitioning threshold CUB
// copies the sizes of its segment groups to the host and waits for them (it still does in CCCL 3.6),
// so the states run under exec_tag::sync (no blocking kernel, no batch), as the toolkit CUB's do.
// Bytes as segmented_sort.cu counts them: the keys (and values) read and written once, and the
// offsets read (8n for keys, 16n for pairs, + 4 (segments + 1)). Every output, and the temporary
// storage, is poisoned before the timed runs; what the last one wrote is checked in full, keys and
// values, against segmented_sort.cu's CPU reference (sorted_segments: std::stable_sort of each
// segment's (key, value) pairs by key, once per point). The bodies and axes are segmented_sort.cu's own
// CUB rows' (bench/nvbench/segmented_sort_cub.cuh), compiled here with SC_CCCL_NEXT's CUB.
#include "cccl_next.cuh"
#include "nvbench/segmented_sort_cub.cuh"

namespace bench {
namespace {

// segmented_sort.cu's segmented_sort_keys/cub and segmented_sort_pairs/cub, as cub_X.Y.
[[maybe_unused]] const bool kRegistered = segmented_sort_cub::register_segmented_sort_cub(cub_implementation());

}  // namespace
}  // namespace bench

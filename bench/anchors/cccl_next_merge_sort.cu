// sc_nvbench_cccl_next's rows of the merge-sort part (bench/nvbench/merge_sort.cu): the CUB of
// SC_CCCL_NEXT (cccl_next.cuh) on that part's inputs and at its points (merge_sort_inputs.cuh: int keys
// uniform and sorted, alone and with their indices; 16-byte records by one field; n = 2^24 and 2^28):
// merge_sort_keys/cub_X.Y, merge_sort_pairs/cub_X.Y and merge_sort_records/cub_X.Y,
// cub::DeviceMergeSort::StableSortKeysCopy and SortPairsCopy. The bodies, checks and axes are
// merge_sort.cu's own CUB rows' (bench/nvbench/merge_sort_cub.cuh), compiled here with SC_CCCL_NEXT's CUB.
#include "cccl_next.cuh"
#include "nvbench/merge_sort_cub.cuh"

namespace bench {
namespace {

// merge_sort.cu's merge_sort_{keys,pairs,records}/cub, as cub_X.Y.
[[maybe_unused]] const bool kRegistered = merge_sort_cub::register_merge_sort_cub(cub_implementation());

}  // namespace
}  // namespace bench

#pragma once
// The parts of sc_bench_cccl_next beyond the scan (cccl_next.cu): another CCCL's CUB on the inputs
// of sc_bench's merge, segmented-sort and segmented parts (cccl_next_merge.cu). `name` is the rows'
// implementation ("cub_3.6").
#include "options.h"
#include "report.h"
#include "timing.h"

#include <cuda_runtime.h>

#include <string>

namespace bench {

void run_merge_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream);
void run_segmented_sort_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream);
void run_segmented_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream);

}  // namespace bench

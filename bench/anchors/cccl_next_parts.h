#pragma once
// The parts of sc_bench_cccl_next beyond the scan and the reductions (cccl_next.cu): another CCCL's
// CUB on the inputs of sc_bench's merge, segmented-sort and segmented parts (cccl_next_merge.cu)
// and of its by-key part (cccl_next_by_key.cu). `name` is the rows' implementation ("cub_3.6").
#include "options.h"
#include "report.h"
#include "timing.h"

#include <cuda_runtime.h>

#include <functional>
#include <string>

namespace bench {

// Runs `run` on copy 0 and checks it with `check`, then times it over the rotation: one anchor row.
void time_row(const Options &options, Report &report, const char *operation, const Size &size, const std::string &param,
              double bytes, const std::string &name, Rotation &rotation, cudaStream_t stream,
              const std::function<void(std::size_t)> &run, const std::function<bool()> &check);

void run_merge_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream);
void run_segmented_sort_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream);
void run_segmented_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream);
void run_by_key_anchors(const Options &options, Report &report, const std::string &name, cudaStream_t stream);

}  // namespace bench

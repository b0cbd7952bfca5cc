#pragma once
// What sc_bench measures: every implementation and the anchors (CUB, Thrust, cudaMemcpyAsync) on
// the same inputs, one Measurement (report.h) per implementation, operation, size and selectivity.
// Options (options.h) is the command line.
#include "check.h"
#include "options.h"
#include "report.h"
#include "timing.h"

#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bench {

bool runs_part(const Options &options, const std::string &part);

using Sink = std::function<void(const Measurement &)>;

// The block_sizes() field an implementation reads at each launch.
using BlockField = StreamCompaction::BlockSize StreamCompaction::BlockSizes::*;

class Benchmark {
public:
    // Allocates and fills the pools for the largest size.
    Benchmark(const Options &options, Sink sink);
    Benchmark(const Benchmark &) = delete;
    Benchmark &operator=(const Benchmark &) = delete;

    // Device-to-device copy at the largest size, for the report's header (not sent to the sink).
    Measurement largest_copy();
    // Every operation at every size.
    void run_sizes();
    // Each project scan at 2^24 and 2^28 with block sizes 64..1024; restores the defaults after.
    void run_sweep();

private:
    struct Impl {
        std::string name;
        BlockField block;                           // nullptr for the anchors
        std::function<void(std::size_t)> run;       // enqueues one run on the copy at this offset
        // What run(0) must leave in out_, computed on the host (check.h).
        std::shared_ptr<const Expected<int>> expected;
        // The compactions' and partitions' count, in storage of the implementation's own, so that
        // no check reads another implementation's: poisoned before its checked run, read after it.
        // Empty for the copy and the scans.
        std::function<void()> poison_count;
        std::function<long long()> count;
    };

    Impl copy_impl(std::size_t n);
    std::vector<Impl> scan_impls(std::size_t n);
    std::vector<Impl> compact_impls(std::size_t n, int keep);
    std::vector<Impl> partition_impls(std::size_t n, int percent_true);
    // Times `impl`, then checks it (check()).
    Measurement measure(const char *operation, const Size &size, int param, double bytes, const Impl &impl,
                        Rotation &rotation);
    // One more run of `impl` on copy 0, its output there and its count poisoned first: "" when it
    // leaves impl.expected, else what it got wrong first (check.h).
    std::string check(const Impl &impl);
    void run_group(const char *operation, const Size &size, int param, const std::vector<Impl> &impls,
                   Rotation &rotation, double bytes);
    bool naive_runs(std::size_t n) const;

    Options options_;
    Sink sink_;
    std::vector<Size> sizes_;
    std::size_t pool_elems_;
    Stream stream_;
    StreamCompaction::DeviceBuffer<int> in_;        // uniform ints in [0, 100)
    StreamCompaction::DeviceBuffer<int> nonzero_;   // in_ as "keep the non-zeros" for one selectivity
    StreamCompaction::DeviceBuffer<int> out_;
    StreamCompaction::DeviceBuffer<char> temp_;     // every implementation's temporary storage
    std::vector<int> host_in_;                      // in_'s copy 0 at the largest size: the references' input
};

// Where the .mtx files are (SpMV, BFS): --matrix-dir, else $SC_MATRIX_DIR, else ./.data/matrices,
// else ./../shared/data/matrices: the first that is a directory; "" (with a note) when none is.
std::string matrix_directory(const Options &options);  // spmv.cu

// The parts (parts.h), each in its own file of cases/, each allocating its own data and sending
// every measurement to the sink. Anchors are measured before the implementations compared with them.
#define SC_BENCH_PART_RUNNER(name, runner, help) void runner(const Options &options, const Sink &sink);
SC_BENCH_PARTS(SC_BENCH_PART_RUNNER)
#undef SC_BENCH_PART_RUNNER

}  // namespace bench

#pragma once
// What sc_bench measures: every implementation and the anchors (CUB, Thrust, cudaMemcpyAsync) on
// the same inputs, one Measurement (report.h) per implementation, operation, size and selectivity.
// Options (options.h) is the command line.
#include "check.h"
#include "options.h"
#include "report.h"
#include "timing.h"

#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bench {

bool runs_part(const Options &options, const std::string &part);

using Sink = std::function<void(const Measurement &)>;

// Where an implementation's block size is set, and so where the sweep sets it. A call of the
// library runs at a field of the Tuning of the environment it is given (0: the family's tuned
// default, tuning/call_tuning.h); a course unit (Naive, Efficient, Shared, the classic radix sort)
// reads a field of the process-wide block_sizes() at each launch. None for the anchors and the copy.
class BlockKnob {
public:
    using TuningField = int StreamCompaction::Tuning::*;
    using CourseField = StreamCompaction::BlockSize StreamCompaction::BlockSizes::*;

    BlockKnob(std::nullptr_t = nullptr) {}
    BlockKnob(TuningField field) : tuning_field_(field) {}
    BlockKnob(CourseField field) : course_field_(field) {}

    explicit operator bool() const { return tuning_field_ != nullptr || course_field_ != nullptr; }

    // Makes the implementation run at `threads`: in `tuning`, which the environment of its calls
    // must then carry, for a call of the library; in block_sizes() for a course unit.
    void set(int threads, StreamCompaction::Tuning &tuning) const {
        if (tuning_field_ != nullptr) tuning.*tuning_field_ = threads;
        if (course_field_ != nullptr) StreamCompaction::block_sizes().*course_field_ = threads;
    }

    // The block size the implementation runs at when its calls are given `tuning` (0 for none).
    int threads(const StreamCompaction::Tuning &tuning) const {
        namespace SC = StreamCompaction;
        if (course_field_ != nullptr) return SC::block_sizes().*course_field_;
        if (tuning_field_ == &SC::Tuning::single_pass) return SC::single_pass_threads(tuning);
        if (tuning_field_ == &SC::Tuning::radix) return SC::radix_threads_asked(tuning);
        if (tuning_field_ == &SC::Tuning::segmented) return SC::segmented_threads(tuning);
        if (tuning_field_ == &SC::Tuning::reduce) return SC::reduce_threads(tuning);
        return 0;
    }

private:
    TuningField tuning_field_ = nullptr;
    CourseField course_field_ = nullptr;
};

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
        BlockKnob block;                            // none for the anchors and the copy
        // Enqueues one run on the copy at this offset. The environment is the row's (measure()):
        // our library calls take it; the anchors and the course units need only stream_.
        std::function<void(std::size_t, const StreamCompaction::CallEnvironment &)> run;
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
    // Times `impl`, then checks it (check()), its calls of the library given `tuning`: the sweep
    // point's, the defaults elsewhere.
    Measurement measure(const char *operation, const Size &size, int param, double bytes, const Impl &impl,
                        Rotation &rotation, const StreamCompaction::Tuning &tuning = {});
    // One more run of `impl` on copy 0 under `env`, its output there and its count poisoned first:
    // "" when it leaves impl.expected, else what it got wrong first (check.h).
    std::string check(const Impl &impl, const StreamCompaction::CallEnvironment &env);
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

// sc_bench's reduce part: the four reduction strategies and the maximum segment sum of int32 at the
// scan part's sizes (2^10 ... 2^28), against the toolkit's cub::DeviceReduce: Sum (the anchor of
// param "sum") and Reduce with a maximum (param "max"). Operation "reduce".
//
// Bytes counted: the input read (4n; the result's few bytes are left out), so GB/s is the read
// bandwidth the reduction reaches. The maximum segment sum ("mss") reads the same input and is
// listed at param "sum": its ratio is to CUB's plain sum of the same array, the issue's yardstick.
// Inputs: values in [-50, 50] from index_hash (a random walk: the best segment is long, not the
// whole array). Each implementation's result is checked against the CPU's (Kadane for mss): after
// its timed runs, one more run on the first copy, into a result of its own poisoned first.
#include "cases.h"
#include "fill.h"
#include "reduce_inputs.cuh"

#include <stream_compaction/cpu.h>
#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/operators.cuh>

#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace bench {
namespace {

using StreamCompaction::DeviceBuffer;
using StreamCompaction::MaxSegmentSum;
using StreamCompaction::ReduceStrategy;

class Reductions {
public:
    Reductions(const Options &options, const Sink &sink)
        : options_(options),
          sink_(sink),
          sizes_(scan_sizes(options.max_log2)),
          pool_elems_(std::max(kPoolMinElems, copy_stride(sizes_.back().n))),
          env_(stream_.get()),
          in_(pool_elems_),
          temp_(temp_bytes()) {
        fill_signed<<<fill_blocks(pool_elems_), kFillThreads, 0, stream_.get()>>>(in_.get(), pool_elems_, kReduceSeed);
        SC_CHECK_LAUNCH(fill_signed);
        host_ = read_back(in_.get(), sizes_.back().n, stream_.get());  // copy 0 of every size: the references' input
    }

    void run() {
        for (const Size &size : sizes_) {
            std::fprintf(stderr, "[reduce] n=%s\n", size.label.c_str());
            const int *first = host_.data();
            const int sum = StreamCompaction::CPU::sum(static_cast<int>(size.n), first);
            run_op("sum", size, StreamCompaction::Sum{}, 0, sum);
            run_op("max", size, StreamCompaction::Max{}, INT_MIN, *std::max_element(first, first + size.n));
        }
    }

private:
    std::size_t temp_bytes() const {
        const std::size_t n = sizes_.back().n;  // every size's storage grows with n
        std::size_t cub_sum = 0, cub_max = 0;
        SC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_sum, static_cast<const int *>(nullptr), static_cast<int *>(nullptr),
                                             static_cast<int>(n)));
        SC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, cub_max, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<int>(n), StreamCompaction::Max{},
                                                INT_MIN));
        std::size_t bytes = std::max({cub_sum, cub_max, StreamCompaction::max_segment_sum_temp_bytes(n)});
        for (const ReduceStrategy strategy : StreamCompaction::kReduceStrategies)
            bytes = std::max(bytes, StreamCompaction::reduce_temp_bytes<int>(n, strategy));
        return bytes;
    }

    // Times run(at, result) on rotating copies, then checks one more run on copy 0 against
    // `expected` (the CPU's). `result` is the implementation's own, poisoned before that run: no
    // implementation passes on a result that another left.
    template <class R, class Run>
    void measure(const char *implementation, const char *param, const Size &size, bool library, Run run,
                 const R &expected, Rotation &rotation) {
        const DeviceBuffer<R> result(1);
        const auto run_at = [&](std::size_t at) { run(at, result.get()); };
        const double ms = median_ms(stream_.get(), rotation, options_.runs, run_at);
        poison(result.get(), 1, stream_.get());
        run_at(0);
        const std::string mismatch = value_mismatch(read_back(result.get(), stream_.get()), expected);
        if (!mismatch.empty())
            warn_mismatch(implementation, "reduce", std::string(param) + ", n = " + size.label, mismatch);
        Measurement m{"reduce", implementation, size, param, ms, 4.0 * size.n,
                      library ? 0 : StreamCompaction::reduce_threads(env_.tuning), mismatch.empty()};
        m.anchor = library;
        sink_(m);
    }

    template <class Op>
    void run_op(const char *param, const Size &size, Op op, int identity, int expected) {
        const std::size_t n = size.n;
        cudaStream_t stream = stream_.get();
        Rotation rotation(n, pool_elems_);
        const auto in = [&](std::size_t at) { return in_.get() + at; };
        measure("cub", param, size, true, [&](std::size_t at, int *result) {
            std::size_t bytes = temp_.bytes();
            if constexpr (std::is_same_v<Op, StreamCompaction::Sum>)
                SC_CUDA_CHECK(cub::DeviceReduce::Sum(temp_.get(), bytes, in(at), result, static_cast<int>(n), stream));
            else
                SC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp_.get(), bytes, in(at), result, static_cast<int>(n), op,
                                                        identity, stream));
        }, expected, rotation);
        for (const ReduceStrategy strategy : StreamCompaction::kReduceStrategies) {
            const char *name = StreamCompaction::reduce_strategy_name(strategy);
            measure(name, param, size, false, [&](std::size_t at, int *result) {
                StreamCompaction::reduce(strategy, in(at), result, n, op, identity, temp_.get(), temp_.bytes(), env_);
            }, expected, rotation);
        }
        if constexpr (std::is_same_v<Op, StreamCompaction::Sum>) {
            // The standard operator of CUB and Thrust users: the same kernels as Sum (standard_operator),
            // so the same time.
            for (const ReduceStrategy strategy : {ReduceStrategy::Atomics, ReduceStrategy::Chunked}) {
                const std::string name = std::string(StreamCompaction::reduce_strategy_name(strategy)) + "_cuda_std_plus";
                measure(name.c_str(), param, size, false, [&](std::size_t at, int *result) {
                    StreamCompaction::reduce(strategy, in(at), result, n, cuda::std::plus<>{}, identity, temp_.get(),
                                             temp_.bytes(), env_);
                }, expected, rotation);
            }
            const MaxSegmentSum kadane = StreamCompaction::CPU::maxSegmentSum(static_cast<int>(n), host_.data());
            measure("mss", param, size, false, [&](std::size_t at, MaxSegmentSum *result) {
                StreamCompaction::max_segment_sum(in(at), result, n, temp_.get(), temp_.bytes(), env_);
            }, kadane, rotation);
        }
    }

    const Options &options_;
    const Sink &sink_;
    std::vector<Size> sizes_;
    std::size_t pool_elems_;
    Stream stream_;
    const StreamCompaction::CallEnvironment env_;  // of our calls: stream_, at the library's default tuning
    DeviceBuffer<int> in_;
    DeviceBuffer<char> temp_;
    std::vector<int> host_;
};

}  // namespace

void run_reduce(const Options &options, const Sink &sink) { Reductions(options, sink).run(); }

}  // namespace bench

#include "cases.h"

#include "arena.h"
#include "fill.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/efficient.h>
#include <stream_compaction/naive.h>
#include <stream_compaction/support/operators.cuh>
#include <stream_compaction/thrust.h>

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/shared.h>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace {

using StreamCompaction::BlockSizes;
using StreamCompaction::CallEnvironment;
using StreamCompaction::Tuning;
using Below = StreamCompaction::LessThan<int>;  // the anchors' predicate: x < keep percent

constexpr int kSweepBlocks[] = {64, 128, 256, 512, 1024};
constexpr int kSweepLog2[] = {24, 28};
// The naive scan does O(n log n) work: above this it takes long and tells nothing new (--all).
constexpr std::size_t kNaiveMax = std::size_t{1} << 26;

// The selection `x < keep` restated as "keep the non-zeros" for Efficient and Shared, whose
// compaction has that predicate built in: every implementation then keeps the same elements.
__global__ void to_nonzero_selection(const int *in, int *out, std::size_t count, int keep) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = in[i] < keep ? in[i] + 1 : 0;
}

// The anchors' and the course units' scans and compactions under one signature.
using ScanFn = void (*)(const int *, int *, std::size_t, void *, std::size_t, cudaStream_t);
using CompactFn = void (*)(const int *, int *, int *, std::size_t, void *, std::size_t, cudaStream_t);

// 32-bit num_items: CUB's offset type for n < 2^31, as Thrust dispatches for these sizes.
void cub_scan(const int *in, int *out, std::size_t n, void *temp, std::size_t temp_bytes, cudaStream_t stream) {
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, static_cast<int>(n), stream));
}

// Temporary storage that every implementation at size n fits in.
std::size_t temp_bytes_for(std::size_t n) {
    std::size_t cub_scan_bytes = 0, cub_select_bytes = 0, cub_partition_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, cub_scan_bytes, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<int>(n)));
    SC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, cub_select_bytes, static_cast<const int *>(nullptr),
                                        static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr), n,
                                        Below{0}));
    SC_CUDA_CHECK(cub::DevicePartition::If(nullptr, cub_partition_bytes, static_cast<const int *>(nullptr),
                                           static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr),
                                           static_cast<int>(n), Below{0}));
    std::size_t bytes = std::max({cub_scan_bytes, cub_select_bytes, cub_partition_bytes,
                                  // thrust::copy_if: CUB's select storage and its own counter, with room to spare
                                  2 * cub_select_bytes + (std::size_t{1} << 20),
                                  StreamCompaction::Thrust::scan_temp_bytes(n),
                                  StreamCompaction::Naive::scan_temp_bytes(n),
                                  StreamCompaction::Efficient::scan_temp_bytes(n),
                                  StreamCompaction::Efficient::compact_temp_bytes(n)});
    bytes = std::max({bytes, StreamCompaction::Shared::scan_temp_bytes(n),
                      StreamCompaction::Shared::compact_temp_bytes(n)});
    bytes = std::max({bytes, StreamCompaction::scan_temp_bytes<int>(n), StreamCompaction::select_temp_bytes<int>(n)});
    return bytes;
}

std::size_t max_temp_bytes(const std::vector<Size> &sizes) {
    std::size_t bytes = 0;
    for (const Size &size : sizes) bytes = std::max(bytes, temp_bytes_for(size.n));
    return bytes;
}

// A count in device memory that one implementation owns. T: int for Efficient and Shared,
// std::size_t for the others. Copies share the storage: the run that writes the count, and the
// poison and read of its check.
template <class T>
class OwnCount {
public:
    explicit OwnCount(cudaStream_t stream)
        : buffer_(std::make_shared<StreamCompaction::DeviceBuffer<T>>(1)), stream_(stream) {}
    T *get() const { return buffer_->get(); }
    std::function<void()> poisoner() const {
        return [buffer = buffer_, stream = stream_] { poison(buffer->get(), 1, stream); };
    }
    std::function<long long()> reader() const {
        return [buffer = buffer_, stream = stream_] {
            return static_cast<long long>(read_back(buffer->get(), stream));
        };
    }

private:
    std::shared_ptr<StreamCompaction::DeviceBuffer<T>> buffer_;
    cudaStream_t stream_;
};

}  // namespace

bool runs_part(const Options &options, const std::string &part) {
    return std::find(options.parts.begin(), options.parts.end(), part) != options.parts.end();
}

Benchmark::Benchmark(const Options &options, Sink sink)
    : options_(options),
      sink_(std::move(sink)),
      sizes_(scan_sizes(options.max_log2)),
      pool_elems_(std::max(kPoolMinElems, copy_stride(sizes_.back().n))),
      in_(pool_elems_),
      nonzero_(pool_elems_),
      out_(pool_elems_),
      temp_(max_temp_bytes(sizes_)) {
    fill_percentiles<<<fill_blocks(pool_elems_), kFillThreads, 0, stream_.get()>>>(in_.get(), pool_elems_, kScanSeed);
    SC_CHECK_LAUNCH(fill_percentiles);
    host_in_ = read_back(in_.get(), sizes_.back().n, stream_.get());
}

bool Benchmark::naive_runs(std::size_t n) const { return options_.all || n <= kNaiveMax; }

Benchmark::Impl Benchmark::copy_impl(std::size_t n) {
    const auto copied = std::make_shared<const Expected<int>>(
        Expected<int>{std::vector<int>(host_in_.begin(), host_in_.begin() + n), std::nullopt});
    return {"cudaMemcpyAsync", nullptr,
            [this, n](std::size_t at, const CallEnvironment &) {
                SC_CUDA_CHECK(cudaMemcpyAsync(out_.get() + at, in_.get() + at, n * sizeof(int),
                                              cudaMemcpyDeviceToDevice, stream_.get()));
            },
            copied, {}, {}};
}

std::vector<Benchmark::Impl> Benchmark::scan_impls(std::size_t n) {
    const auto sums = std::make_shared<Expected<int>>();
    sums->values.resize(n);
    exclusive_sum<unsigned>(host_in_.data(), n, sums->values.data());
    std::vector<Impl> impls;
    const auto add = [&](const char *name, BlockKnob block, ScanFn scan) {
        impls.push_back({name, block,
                         [this, n, scan](std::size_t at, const CallEnvironment &) {
                             scan(in_.get() + at, out_.get() + at, n, temp_.get(), temp_.bytes(), stream_.get());
                         },
                         sums, {}, {}});
    };
    add("cub", nullptr, cub_scan);
    add("thrust", nullptr, StreamCompaction::Thrust::exclusive_scan);
    if (naive_runs(n)) add("naive", &BlockSizes::naive, StreamCompaction::Naive::exclusive_scan);
    add("efficient", &BlockSizes::efficient, StreamCompaction::Efficient::exclusive_scan);
    add("shared", &BlockSizes::shared, StreamCompaction::Shared::exclusive_scan);
    impls.push_back({"single_pass", &Tuning::single_pass,
                     [this, n](std::size_t at, const CallEnvironment &env) {
                         StreamCompaction::exclusive_scan(in_.get() + at, out_.get() + at, n, StreamCompaction::Sum{},
                                                          0, temp_.get(), temp_.bytes(), env);
                     },
                     sums, {}, {}});
    return impls;
}

std::vector<Benchmark::Impl> Benchmark::compact_impls(std::size_t n, int keep) {
    const Below pred{keep};
    const auto kept = std::make_shared<const Expected<int>>(selected(host_in_.data(), n, pred));
    // Efficient and Shared compact nonzero_, where each kept x is x + 1 (to_nonzero_selection).
    const auto kept_plus_one = std::make_shared<Expected<int>>(*kept);
    for (int &value : kept_plus_one->values) ++value;
    cudaStream_t stream = stream_.get();
    std::vector<Impl> impls;
    const OwnCount<std::size_t> cub_count(stream);
    impls.push_back({"cub", nullptr,
                     [this, n, pred, cub_count](std::size_t at, const CallEnvironment &) {
                         std::size_t bytes = temp_.bytes();
                         SC_CUDA_CHECK(cub::DeviceSelect::If(temp_.get(), bytes, in_.get() + at, out_.get() + at,
                                                             cub_count.get(), n, pred, stream_.get()));
                     },
                     kept, cub_count.poisoner(), cub_count.reader()});
    // thrust::copy_if returns the end of the output, so it waits for the count: the round trip to
    // the host is part of its time, as it is for every caller of Thrust.
    const auto thrust_kept = std::make_shared<long long>(0);
    impls.push_back({"thrust", nullptr,
                     [this, n, pred, thrust_kept](std::size_t at, const CallEnvironment &) {
                         Arena arena(temp_.get(), temp_.bytes());
                         const int *in = in_.get() + at;
                         int *out = out_.get() + at;
                         *thrust_kept =
                             thrust::copy_if(thrust::cuda::par_nosync(arena).on(stream_.get()), in, in + n, out, pred) -
                             out;
                     },
                     kept, [thrust_kept] { *thrust_kept = poison_value<long long>(); },
                     [thrust_kept] { return *thrust_kept; }});
    const auto add_nonzero = [&](const char *name, BlockKnob block, CompactFn compact) {
        const OwnCount<int> count(stream);
        impls.push_back({name, block,
                         [this, n, compact, count](std::size_t at, const CallEnvironment &) {
                             compact(nonzero_.get() + at, out_.get() + at, count.get(), n, temp_.get(), temp_.bytes(),
                                     stream_.get());
                         },
                         kept_plus_one, count.poisoner(), count.reader()});
    };
    add_nonzero("efficient", &BlockSizes::efficient, StreamCompaction::Efficient::compact);
    add_nonzero("shared", &BlockSizes::shared, StreamCompaction::Shared::compact);
    const OwnCount<std::size_t> single_pass_count(stream);
    impls.push_back({"single_pass", &Tuning::single_pass,
                     [this, n, pred, single_pass_count](std::size_t at, const CallEnvironment &env) {
                         StreamCompaction::select_if(in_.get() + at, out_.get() + at, single_pass_count.get(), n, pred,
                                                     temp_.get(), temp_.bytes(), env);
                     },
                     kept, single_pass_count.poisoner(), single_pass_count.reader()});
    return impls;
}

std::vector<Benchmark::Impl> Benchmark::partition_impls(std::size_t n, int percent_true) {
    const Below pred{percent_true};
    // CUB's partition writes the falses from the back, in reverse order: the contract of ours
    // named single_pass (partition). single_pass_stable (stable_partition) keeps the falses in
    // order, which costs it a count pass first.
    const auto reversed =
        std::make_shared<const Expected<int>>(partitioned(host_in_.data(), n, pred, Falses::Reversed));
    const auto in_order = std::make_shared<const Expected<int>>(partitioned(host_in_.data(), n, pred, Falses::InOrder));
    cudaStream_t stream = stream_.get();
    std::vector<Impl> impls;
    const OwnCount<std::size_t> cub_count(stream);
    impls.push_back({"cub", nullptr,
                     [this, n, pred, cub_count](std::size_t at, const CallEnvironment &) {
                         std::size_t bytes = temp_.bytes();
                         SC_CUDA_CHECK(cub::DevicePartition::If(temp_.get(), bytes, in_.get() + at, out_.get() + at,
                                                                cub_count.get(), static_cast<int>(n), pred,
                                                                stream_.get()));
                     },
                     reversed, cub_count.poisoner(), cub_count.reader()});
    const OwnCount<std::size_t> single_pass_count(stream);
    impls.push_back({"single_pass", &Tuning::single_pass,
                     [this, n, pred, single_pass_count](std::size_t at, const CallEnvironment &env) {
                         StreamCompaction::partition(in_.get() + at, out_.get() + at, single_pass_count.get(), n, pred,
                                                     temp_.get(), temp_.bytes(), env);
                     },
                     reversed, single_pass_count.poisoner(), single_pass_count.reader()});
    const OwnCount<std::size_t> stable_count(stream);
    impls.push_back({"single_pass_stable", &Tuning::single_pass,
                     [this, n, pred, stable_count](std::size_t at, const CallEnvironment &env) {
                         StreamCompaction::stable_partition(in_.get() + at, out_.get() + at, stable_count.get(), n,
                                                            pred, temp_.get(), temp_.bytes(), env);
                     },
                     in_order, stable_count.poisoner(), stable_count.reader()});
    return impls;
}

std::string Benchmark::check(const Impl &impl, const CallEnvironment &env) {
    const Expected<int> &expected = *impl.expected;
    const std::size_t elements = expected.values.size();
    poison(out_.get(), elements, stream_.get());
    if (impl.poison_count) impl.poison_count();
    impl.run(0, env);
    if (expected.count) {
        const std::string wrong_count = count_mismatch(impl.count(), *expected.count);
        if (!wrong_count.empty()) return wrong_count;
    }
    const std::vector<int> got = read_back(out_.get(), elements, stream_.get());
    return elements_mismatch(got.data(), expected.values.data(), elements);
}

Measurement Benchmark::measure(const char *operation, const Size &size, int param, double bytes, const Impl &impl,
                               Rotation &rotation, const Tuning &tuning) {
    const CallEnvironment env{stream_.get(), tuning};
    const double ms = median_ms(stream_.get(), rotation, options_.runs, [&](std::size_t at) { impl.run(at, env); });
    const std::string mismatch = check(impl, env);
    if (!mismatch.empty())
        warn_mismatch(impl.name, operation, (param >= 0 ? std::to_string(param) + "%, " : "") + "n = " + size.label,
                      mismatch);
    const int block_size = impl.block.threads(tuning);
    Measurement m{operation, impl.name, size, param < 0 ? "" : std::to_string(param), ms, bytes, block_size,
                  mismatch.empty()};
    m.anchor = impl.name == "cub";
    return m;
}

void Benchmark::run_group(const char *operation, const Size &size, int param, const std::vector<Impl> &impls,
                          Rotation &rotation, double bytes) {
    for (const Impl &impl : impls) sink_(measure(operation, size, param, bytes, impl, rotation));
}

Measurement Benchmark::largest_copy() {
    const Size &size = sizes_.back();
    Rotation rotation(size.n, pool_elems_);
    return measure("copy", size, -1, 8.0 * size.n, copy_impl(size.n), rotation);
}

void Benchmark::run_sizes() {
    const std::size_t groups = sizes_.size() * (3 + std::size(kPercentKept));
    std::size_t group = 0;
    const auto progress = [&](const Size &size, const std::string &what) {
        std::fprintf(stderr, "[%zu/%zu] n=%s %s\n", ++group, groups, size.label.c_str(), what.c_str());
    };
    for (const Size &size : sizes_) {
        const std::size_t n = size.n;
        // A rotation per size, shared by its groups, so that no implementation reruns on the
        // copies that the previous one left in L2.
        Rotation rotation(n, pool_elems_);
        const double read_and_write = 8.0 * n;
        progress(size, "copy");
        run_group("copy", size, -1, {copy_impl(n)}, rotation, read_and_write);
        progress(size, "scan");
        run_group("scan", size, -1, scan_impls(n), rotation, read_and_write);
        for (const int keep : kPercentKept) {
            progress(size, "compact " + std::to_string(keep) + "%");
            to_nonzero_selection<<<fill_blocks(rotation.span()), kFillThreads, 0, stream_.get()>>>(
                in_.get(), nonzero_.get(), rotation.span(), keep);
            SC_CHECK_LAUNCH(to_nonzero_selection);
            const std::vector<Impl> impls = compact_impls(n, keep);
            // Read every input, write the kept ones (every implementation's reference has as many)
            // and the count.
            const double kept = static_cast<double>(impls.front().expected->values.size());
            run_group("compact", size, keep, impls, rotation, 4.0 * n + 4.0 * kept + 4.0);
        }
        progress(size, "partition " + std::to_string(kPartitionPercent) + "%");
        run_group("partition", size, kPartitionPercent, partition_impls(n, kPartitionPercent), rotation,
                  read_and_write);
    }
}

void Benchmark::run_sweep() {
    const BlockSizes defaults = StreamCompaction::block_sizes();
    std::vector<std::pair<Size, std::vector<Impl>>> plan;  // the project's scans at each sweep size
    std::size_t total = 0;
    for (const int log2 : kSweepLog2) {
        if (log2 > options_.max_log2) continue;
        const Size size = power_of_two(log2);
        std::vector<Impl> impls = scan_impls(size.n);
        total += std::count_if(impls.begin(), impls.end(), [](const Impl &impl) { return bool(impl.block); }) *
                 std::size(kSweepBlocks);
        plan.emplace_back(size, std::move(impls));
    }
    std::size_t done = 0;
    for (const auto &[size, impls] : plan) {
        Rotation rotation(size.n, pool_elems_);
        for (const Impl &impl : impls) {
            if (!impl.block) continue;
            for (const int threads : kSweepBlocks) {
                StreamCompaction::block_sizes() = defaults;
                // impl at this point's block size: in the tuning measure() gives its calls, or in block_sizes().
                Tuning tuning;
                impl.block.set(threads, tuning);
                std::fprintf(stderr, "[sweep %zu/%zu] %s scan n=%s block=%d\n", ++done, total, impl.name.c_str(),
                             size.label.c_str(), threads);
                sink_(measure("sweep_scan", size, -1, 8.0 * size.n, impl, rotation, tuning));
            }
        }
    }
    StreamCompaction::block_sizes() = defaults;
}

}  // namespace bench

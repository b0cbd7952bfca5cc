// sc_bench_cccl_next: CUB from a second, newer CCCL (the headers SC_CCCL_NEXT names, e.g. CCCL 3.6
// from the cuda-cccl wheel) timed as sc_bench times the toolkit's CUB, on the same inputs and the
// same sizes, in a binary of its own: two CCCL versions are never mixed in one program. Its rows
// (implementation "cub_<major>.<minor>", e.g. cub_3.6) go in sc_bench's CSV columns, for
// bench/plot/anchors.py to merge into sc_bench's CSV of the same GPU call.
//
// What it times, at every size of sc_bench's scan part (and with its --runs, --max-log2, --only; the
// merge, segmented-sort and segmented parts' rows: cccl_next_merge.cu; the by-key part's:
// cccl_next_by_key.cu):
//   scan           int32 cub::DeviceScan::ExclusiveSum          (sc_bench's "scan")
//   compact 5/50/95 cub::DeviceSelect::If, x < 5 / 50 / 95     (sc_bench's "compact")
//   partition 50   cub::DevicePartition::If, x < 50            (sc_bench's "partition")
//   scan_int64     int64 ExclusiveSum
//   scan_float     float ExclusiveSum: cub_X.Y (temporary storage from the caller, as above),
//                  cub_X.Y_env (the environment API, no requirement: determinism not guaranteed) and
//                  cub_X.Y_run_to_run (the environment API with
//                  cuda::execution::require(cuda::execution::determinism::run_to_run): bitwise the
//                  same result on every run on one GPU, by a fixed reduction order)
//   scan_double    the same three for double
//   reduce sum/max int32 cub::DeviceReduce::Sum and Reduce with a maximum, on sc_bench's reduce
//                  inputs (--only reduce; uniform ints in [-50, 50])
// The inputs are sc_bench's: uniform ints in [0, 100) from the same hash and seed (converted for
// int64, float and double), rotated through copies larger than L2. Every result is checked on copy
// 0 against a reference computed on the device (last element of the scan, count kept); the
// run_to_run rows must also give the same bits on two runs.
#include <cub/device/device_partition.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cub/version.cuh>
#include <cuda/execution.determinism.h>
#include <cuda/execution.require.h>
#include <cuda/memory_resource>
#include <cuda/std/execution>
#include <cuda/stream_ref>

#include "cccl_next_parts.h"
#include "fill.h"
#include "options.h"
#include "report.h"
#include "run_header.h"
#include "timing.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// CMake reads CCCL_VERSION from SC_CCCL_NEXT's headers and passes it here: if the toolkit's own
// CCCL headers had been found first, this is where the build stops.
#ifndef SC_EXPECTED_CCCL_VERSION
#error "configure with -DSC_CCCL_NEXT=<CCCL include dir> (tools/cccl_next.sh prints it); CMake defines SC_EXPECTED_CCCL_VERSION"
#endif
static_assert(CCCL_VERSION == SC_EXPECTED_CCCL_VERSION,
              "the CCCL headers compiled are not SC_CCCL_NEXT's (the toolkit's were found first?)");

namespace {

using bench::Measurement;
using bench::Rotation;
using bench::read_back;
using bench::Size;
using StreamCompaction::DeviceBuffer;

const char kUsage[] =
    "usage: sc_bench_cccl_next [--only PARTS] [--runs N] [--max-log2 N] [--csv FILE] [--help]\n"
    "Times CUB of the CCCL it was built against (cmake -DSC_CCCL_NEXT=DIR) on sc_bench's inputs and sizes:\n"
    "int32 scan, compaction (5, 50, 95% kept), partition (50% true), int64, float and double scans,\n"
    "and int32 reductions (sum and maximum, sc_bench's reduce part), the float and double scans\n"
    "also through the environment API with and without\n"
    "cuda::execution::determinism::run_to_run. CUDA events, median of N runs after 3 warm-ups, as sc_bench.\n"
    "Also, for sc_bench's merge part, DeviceFind::LowerBoundSortedValues and LowerBound and DeviceMerge, and for\n"
    "its segmented-sort part, DeviceSegmentedSort::StableSortKeys and StableSortPairs, and for its segmented\n"
    "part, DeviceScan::ExclusiveSumByKey and DeviceSegmentedScan::ExclusiveSegmentedSum, and for its by-key\n"
    "part, DeviceReduce::ReduceByKey, DeviceSelect::Unique, DeviceRunLengthEncode::Encode and\n"
    "DeviceHistogram::HistogramEven, on the same inputs.\n"
    "Takes sc_bench's flags, so one argument list serves both: --only (scan, reduce, merge, segmented-sort,\n"
    "segmented, by-key), --runs, --max-log2 as in sc_bench; --all, --sweep, --no-sweep, --matrix-dir are accepted\n"
    "and ignored.\n"
    "  --csv FILE    write every result as CSV in sc_bench's columns; merge it into sc_bench's CSV of the\n"
    "                same run with: python3 bench/plot/anchors.py BENCH.csv FILE\n"
    "Exit code: 0 done; 1 a result differs from its reference, or an error; 2 bad command line;\n"
    "77 no usable CUDA device: nothing measured.\n";

// The anchors' predicate: x < limit (StreamCompaction::LessThan<int>, restated without the
// project's headers).
struct Below {
    int limit;
    __host__ __device__ bool operator()(const int &x) const { return x < limit; }
};

std::string implementation_name() { return "cub_" + bench::major_minor(CUB_VERSION, 100000, 100); }

std::string version_text(int version, int per_major, int per_minor) {
    return bench::major_minor(version, per_major, per_minor) + "." + std::to_string(version % per_minor);
}

// Uniform values in [0, 100), as sc_bench's fill_percentiles (fill.h), converted to T.
template <class T>
__global__ void fill_uniform(T *out, std::size_t count, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<T>(bench::index_hash(i, seed) % 100u);
}

// totals[0] += the sum of in[0, n - 1) (the exclusive scan's last element); totals[1] += the count
// of in[0, n) below `limit` (what a compaction keeps).
__global__ void reference_totals(const int *in, std::size_t n, int limit, unsigned long long *totals) {
    unsigned long long sum = 0, below = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const int x = in[i];
        if (i + 1 < n) sum += static_cast<unsigned long long>(x);
        below += x < limit;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
        below += __shfl_down_sync(0xffffffffu, below, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(totals, sum);
        atomicAdd(totals + 1, below);
    }
}

// A position-weighted sum of the bits of out[0, n): equal for two outputs that are bitwise equal.
template <class Bits>
__global__ void bit_checksum(const Bits *out, std::size_t n, unsigned long long *sum) {
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        local += static_cast<unsigned long long>(out[i]) * (2 * i + 1);
    for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xffffffffu, local, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(sum, local);
}

// Temporary storage of the environment API's calls, which allocate it through the memory resource
// of their environment: this one serves storage allocated beforehand, so that the timed calls
// allocate nothing, like every other row. A call that asks for more than that gets it from
// cudaMallocAsync and is counted; the storage then grows before the timed runs.
struct EnvStorage {
    DeviceBuffer<char> buffer;
    std::size_t largest_request = 0;
    int fallbacks = 0;
};

class CallerStorage {
public:
    explicit CallerStorage(EnvStorage *storage) : storage_(storage) {}

    void *allocate(cuda::stream_ref stream, std::size_t bytes, std::size_t) {
        storage_->largest_request = std::max(storage_->largest_request, bytes);
        if (bytes <= storage_->buffer.bytes()) return storage_->buffer.get();
        ++storage_->fallbacks;
        void *memory = nullptr;
        SC_CUDA_CHECK(cudaMallocAsync(&memory, bytes, stream.get()));
        return memory;
    }
    void deallocate(cuda::stream_ref stream, void *memory, std::size_t, std::size_t) noexcept {
        if (memory != storage_->buffer.get()) cudaFreeAsync(memory, stream.get());
    }
    void *allocate_sync(std::size_t bytes, std::size_t alignment) {
        void *memory = allocate(cuda::stream_ref{cudaStreamLegacy}, bytes, alignment);
        SC_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
        return memory;
    }
    void deallocate_sync(void *memory, std::size_t bytes, std::size_t alignment) noexcept {
        deallocate(cuda::stream_ref{cudaStreamLegacy}, memory, bytes, alignment);
        cudaStreamSynchronize(cudaStreamLegacy);
    }
    bool operator==(const CallerStorage &other) const { return storage_ == other.storage_; }
    bool operator!=(const CallerStorage &other) const { return storage_ != other.storage_; }

private:
    EnvStorage *storage_;
};
static_assert(cuda::mr::resource<CallerStorage>, "CallerStorage must be a cuda::mr::resource");

using StorageProp = cuda::std::execution::prop<cuda::mr::get_memory_resource_t, CallerStorage>;

// ExclusiveSum through the environment API: stream, caller storage and, when Deterministic, the
// run_to_run requirement.
template <bool Deterministic, class T>
void env_exclusive_sum(const T *in, T *out, std::size_t n, cudaStream_t stream, EnvStorage &storage) {
    const StorageProp memory{cuda::mr::get_memory_resource, CallerStorage(&storage)};
    if constexpr (Deterministic) {
        const auto requirement = cuda::execution::require(cuda::execution::determinism::run_to_run);
        const cuda::std::execution::env<cuda::stream_ref, StorageProp, decltype(requirement)> env{
            cuda::stream_ref{stream}, memory, requirement};
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(in, out, static_cast<int>(n), env));
    } else {
        const cuda::std::execution::env<cuda::stream_ref, StorageProp> env{cuda::stream_ref{stream}, memory};
        SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(in, out, static_cast<int>(n), env));
    }
}

template <class T>
std::size_t scan_temp_bytes(std::size_t n) {
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const T *>(nullptr),
                                                static_cast<T *>(nullptr), static_cast<int>(n)));
    return bytes;
}

class Anchors {
public:
    Anchors(const bench::Options &options, bench::Report &report)
        : options_(options),
          report_(report),
          name_(implementation_name()),
          sizes_(bench::scan_sizes(options.max_log2)),
          pool_elems_(std::max(bench::kPoolMinElems, bench::copy_stride(sizes_.back().n))),
          wide_elems_(std::max(bench::kPoolMinElems, bench::copy_stride(2 * sizes_.back().n))),
          in_(pool_elems_),
          out_(pool_elems_),
          wide_in_(wide_elems_),
          wide_out_(wide_elems_),
          temp_(temp_bytes()),
          count_(1),
          totals_(2) {
        // Room for the environment API's storage too: the same tile states, once more for the
        // deterministic mode's own, and slack; it grows if a call asks for more.
        env_storage_.buffer = DeviceBuffer<char>(2 * temp_.bytes() + (std::size_t{16} << 20));
        fill_uniform<<<bench::fill_blocks(pool_elems_), bench::kFillThreads, 0, stream_.get()>>>(
            in_.get(), pool_elems_, bench::kScanSeed);
        SC_CHECK_LAUNCH(fill_uniform);
    }

    void run() {
        for (const Size &size : sizes_) {
            std::fprintf(stderr, "[%s] n=%s\n", name_.c_str(), size.label.c_str());
            run_int32(size);
            run_wide<long long>("scan_int64", size);
            run_wide<float>("scan_float", size);
            run_wide<double>("scan_double", size);
        }
        if (timed_fallbacks_ > 0)
            std::fprintf(stderr, "note: %d timed environment-API calls allocated their storage (asked up to %zu bytes)\n",
                         timed_fallbacks_, env_storage_.largest_request);
    }

private:
    std::size_t temp_bytes() const {
        std::size_t bytes = 0;
        for (const Size &size : sizes_) {
            const std::size_t n = size.n;
            std::size_t select = 0, partition = 0;
            SC_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select, static_cast<const int *>(nullptr),
                                                static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr), n,
                                                Below{0}));
            SC_CUDA_CHECK(cub::DevicePartition::If(nullptr, partition, static_cast<const int *>(nullptr),
                                                   static_cast<int *>(nullptr), static_cast<std::size_t *>(nullptr),
                                                   static_cast<int>(n), Below{0}));
            bytes = std::max({bytes, select, partition, scan_temp_bytes<int>(n), scan_temp_bytes<long long>(n),
                              scan_temp_bytes<float>(n), scan_temp_bytes<double>(n)});
        }
        return bytes;
    }

    // {sum of in[0, n - 1), count of in[0, n) below limit} on copy 0 of the int pool, whose first n
    // values the wide pools share (both are the hash of the index).
    std::pair<long long, long long> reference(std::size_t n, int limit) {
        SC_CUDA_CHECK(cudaMemsetAsync(totals_.get(), 0, totals_.bytes(), stream_.get()));
        reference_totals<<<bench::fill_blocks(n), bench::kFillThreads, 0, stream_.get()>>>(in_.get(), n, limit,
                                                                                            totals_.get());
        SC_CHECK_LAUNCH(reference_totals);
        unsigned long long totals[2];
        SC_CUDA_CHECK(cudaMemcpyAsync(totals, totals_.get(), sizeof totals, cudaMemcpyDeviceToHost, stream_.get()));
        SC_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
        return {static_cast<long long>(totals[0]), static_cast<long long>(totals[1])};
    }

    template <class T>
    unsigned long long checksum(const T *out, std::size_t n) {
        using Bits = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
        SC_CUDA_CHECK(cudaMemsetAsync(totals_.get(), 0, sizeof(unsigned long long), stream_.get()));
        bit_checksum<<<bench::fill_blocks(n), bench::kFillThreads, 0, stream_.get()>>>(
            reinterpret_cast<const Bits *>(out), n, totals_.get());
        SC_CHECK_LAUNCH(bit_checksum);
        return read_back(totals_.get(), stream_.get());
    }

    // Runs `run` on copy 0 and checks it, then times it; one row.
    template <class Run, class Check>
    void time(const char *operation, const Size &size, const std::string &param, double bytes,
              const std::string &implementation, Rotation &rotation, Run &&run, Check &&check, bool to_csv = true) {
        run(0);
        const bool ok = check();
        const double ms = bench::median_ms(stream_.get(), rotation, options_.runs, run);
        Measurement m{operation, implementation, size, param, ms, bytes, 0, ok};
        m.anchor = to_csv;  // every row but the copy is a library's
        report_.add(m, to_csv);
    }

    void run_int32(const Size &size) {
        const std::size_t n = size.n;
        cudaStream_t stream = stream_.get();
        Rotation rotation(n, pool_elems_);  // one per size, shared by its groups, as in sc_bench
        // The copy: the % of copy column of this program's rows (sc_bench's CSV has the copy row).
        time("copy", size, "", 8.0 * n, "cudaMemcpyAsync", rotation,
             [&](std::size_t at) {
                 SC_CUDA_CHECK(cudaMemcpyAsync(out_.get() + at, in_.get() + at, n * sizeof(int),
                                               cudaMemcpyDeviceToDevice, stream));
             },
             [] { return true; }, false);

        const long long sum = reference(n, 0).first;
        time("scan", size, "", 8.0 * n, name_, rotation,
             [&](std::size_t at) {
                 std::size_t bytes = temp_.bytes();
                 // const int *: sc_bench's CUB scan gets its input as that (selection and partition: int *).
                 const int *in = in_.get() + at;
                 SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp_.get(), bytes, in, out_.get() + at,
                                                             static_cast<int>(n), stream));
             },
             // int32 wraps: the last element is the reference sum modulo 2^32.
             [&] {
                 return read_back(out_.get() + n - 1, stream_.get()) ==
                        static_cast<int>(static_cast<std::uint32_t>(sum));
             });

        for (const int keep : bench::kPercentKept) {
            const long long kept = reference(n, keep).second;
            // Read every input, write the kept ones and the count (sc_bench's bytes).
            time("compact", size, std::to_string(keep), 4.0 * n + 4.0 * kept + 4.0, name_, rotation,
                 [&](std::size_t at) {
                     std::size_t bytes = temp_.bytes();
                     SC_CUDA_CHECK(cub::DeviceSelect::If(temp_.get(), bytes, in_.get() + at, out_.get() + at,
                                                         count_.get(), n, Below{keep}, stream));
                 },
                 [&] { return static_cast<long long>(read_back(count_.get(), stream_.get())) == kept; });
        }
        const int percent = bench::kPartitionPercent;
        const long long trues = reference(n, percent).second;
        time("partition", size, std::to_string(percent), 8.0 * n, name_, rotation,
             [&](std::size_t at) {
                 std::size_t bytes = temp_.bytes();
                 SC_CUDA_CHECK(cub::DevicePartition::If(temp_.get(), bytes, in_.get() + at, out_.get() + at,
                                                        count_.get(), static_cast<int>(n), Below{percent}, stream));
             },
             [&] { return static_cast<long long>(read_back(count_.get(), stream_.get())) == trues; });
    }

    // Scans of T on the wide pools, whose copies are counted in ints (sizeof(T) / 4 per element).
    template <class T>
    void run_wide(const char *operation, const Size &size) {
        const std::size_t n = size.n;
        const std::size_t units = sizeof(T) / sizeof(int);
        cudaStream_t stream = stream_.get();
        const std::size_t count = wide_elems_ / units;
        fill_uniform<<<bench::fill_blocks(count), bench::kFillThreads, 0, stream>>>(
            reinterpret_cast<T *>(wide_in_.get()), count, bench::kScanSeed);
        SC_CHECK_LAUNCH(fill_uniform);
        const long long sum = reference(n, 0).first;
        const auto in = [&](std::size_t at) { return reinterpret_cast<const T *>(wide_in_.get() + at); };
        const auto out = [&](std::size_t at) { return reinterpret_cast<T *>(wide_out_.get() + at); };
        // Integers and double add these integers exactly; float rounds past 2^24.
        const auto last_ok = [&] {
            const T last = read_back(out(0) + n - 1, stream_.get());
            if constexpr (std::is_same_v<T, float>)
                return std::abs(static_cast<double>(last) - static_cast<double>(sum)) <= 1e-3 * std::max(1.0, double(sum));
            else
                return last == static_cast<T>(sum);
        };
        const double bytes = 2.0 * sizeof(T) * n;
        Rotation rotation(n * units, wide_elems_);
        time(operation, size, "", bytes, name_, rotation,
             [&](std::size_t at) {
                 std::size_t temp_bytes = temp_.bytes();
                 SC_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp_.get(), temp_bytes, in(at), out(at),
                                                             static_cast<int>(n), stream));
             },
             last_ok);
        if constexpr (std::is_floating_point_v<T>) {
            time_env<false, T>(operation, size, bytes, name_ + "_env", rotation, last_ok);
            time_env<true, T>(operation, size, bytes, name_ + "_run_to_run", rotation, [&] {
                // Bitwise the same output on a second run: what run_to_run promises.
                const unsigned long long first = checksum(out(0), n);
                env_exclusive_sum<true>(in(0), out(0), n, stream, env_storage_);
                const unsigned long long second = checksum(out(0), n);
                if (first != second) std::fprintf(stderr, "warning: run_to_run %s n=%s: two runs differ\n", operation,
                                                  size.label.c_str());
                return last_ok() && first == second;
            });
        }
    }

    template <bool Deterministic, class T, class Check>
    void time_env(const char *operation, const Size &size, double bytes, const std::string &implementation,
                  Rotation &rotation, Check &&check) {
        const std::size_t n = size.n;
        cudaStream_t stream = stream_.get();
        const auto run = [&](std::size_t at) {
            env_exclusive_sum<Deterministic>(reinterpret_cast<const T *>(wide_in_.get() + at),
                                             reinterpret_cast<T *>(wide_out_.get() + at), n, stream, env_storage_);
        };
        // The first call tells how much storage the mode needs: grow it before anything is timed.
        run(0);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        if (env_storage_.largest_request > env_storage_.buffer.bytes())
            env_storage_.buffer = DeviceBuffer<char>(env_storage_.largest_request);
        env_storage_.fallbacks = 0;
        time(operation, size, "", bytes, implementation, rotation, run, check);
        timed_fallbacks_ += env_storage_.fallbacks;
    }

    bench::Options options_;
    bench::Report &report_;
    std::string name_;
    std::vector<Size> sizes_;
    std::size_t pool_elems_;  // ints per int pool, as sc_bench's
    std::size_t wide_elems_;  // ints per wide pool: the same copies of arrays of 8-byte elements
    bench::Stream stream_;
    DeviceBuffer<int> in_, out_;
    DeviceBuffer<int> wide_in_, wide_out_;
    DeviceBuffer<char> temp_;
    DeviceBuffer<std::size_t> count_;
    DeviceBuffer<unsigned long long> totals_;
    EnvStorage env_storage_;
    int timed_fallbacks_ = 0;  // environment-API calls that allocated after their storage had grown
};

// sc_bench's reduce inputs (bench/cases/reduce.cu, restated without the project's headers): the
// hash of the index, in [-50, 50].
constexpr std::uint32_t kReduceSeed = 0x5eed2026u;
__global__ void fill_signed(int *out, std::size_t count, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = static_cast<int>(bench::index_hash(i, seed) % 101u) - 50;
}

struct MaxOf {
    __host__ __device__ int operator()(const int &a, const int &b) const { return a < b ? b : a; }
};

// DeviceReduce::Sum and Reduce with a maximum at the scan part's sizes, as sc_bench's reduce part
// times the toolkit's: copy 0 checked against the host, then the median over rotating copies.
void run_reduce_anchors(const bench::Options &options, bench::Report &report, const std::string &name,
                        cudaStream_t stream) {
    const std::vector<Size> sizes = bench::scan_sizes(options.max_log2);
    const std::size_t largest = sizes.back().n;
    const std::size_t pool = std::max(bench::kPoolMinElems, bench::copy_stride(largest));
    DeviceBuffer<int> in(pool), result(1);
    fill_signed<<<bench::fill_blocks(pool), bench::kFillThreads, 0, stream>>>(in.get(), pool, kReduceSeed);
    SC_CHECK_LAUNCH(fill_signed);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<int> host(largest);
    in.copy_to_host(host.data(), host.size());
    std::size_t sum_bytes = 0, max_bytes = 0;
    SC_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, sum_bytes, in.get(), result.get(), static_cast<int>(largest)));
    SC_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, max_bytes, in.get(), result.get(), static_cast<int>(largest),
                                            MaxOf{}, INT_MIN));
    DeviceBuffer<char> temp(std::max(sum_bytes, max_bytes));
    for (const Size &size : sizes) {
        std::fprintf(stderr, "[%s reduce] n=%s\n", name.c_str(), size.label.c_str());
        const std::size_t n = size.n;
        Rotation rotation(n, pool);
        long long sum = 0;
        int most = INT_MIN;
        for (std::size_t i = 0; i < n; ++i) {
            sum += host[i];
            most = std::max(most, host[i]);
        }
        const auto row = [&](const char *param, int expected, auto &&call) {
            call(0);
            const bool ok = read_back(result.get(), stream) == expected;
            Measurement m{"reduce", name, size, param, bench::median_ms(stream, rotation, options.runs, call),
                          4.0 * n, 0, ok};
            m.anchor = true;
            report.add(m, true);
        };
        row("sum", static_cast<int>(static_cast<std::uint32_t>(sum)), [&](std::size_t at) {
            std::size_t bytes = temp.bytes();
            SC_CUDA_CHECK(cub::DeviceReduce::Sum(temp.get(), bytes, in.get() + at, result.get(), static_cast<int>(n),
                                                 stream));
        });
        row("max", most, [&](std::size_t at) {
            std::size_t bytes = temp.bytes();
            SC_CUDA_CHECK(cub::DeviceReduce::Reduce(temp.get(), bytes, in.get() + at, result.get(), static_cast<int>(n),
                                                    MaxOf{}, INT_MIN, stream));
        });
    }
}

int run(const bench::Options &options) {
    const bench::CsvFile csv = bench::start_report(
        "sc_bench_cccl_next", options,
        "CUB " + version_text(CUB_VERSION, 100000, 100) + " of CCCL " + version_text(CCCL_VERSION, 1000000, 1000) +
            " (SC_CCCL_NEXT: \"" + implementation_name() + "\")");
    const auto runs = [&](const char *part) {
        return std::find(options.parts.begin(), options.parts.end(), part) != options.parts.end();
    };
    if (!runs("scan") && !runs("reduce") && !runs("merge") && !runs("segmented-sort") && !runs("segmented") &&
        !runs("by-key")) {
        std::printf("nothing to time: --only names none of scan, reduce, merge, segmented-sort, segmented, by-key\n");
        return 0;
    }
    bench::Report report(csv.get());
    if (runs("scan")) Anchors(options, report).run();
    const bench::Stream stream;
    if (runs("reduce")) run_reduce_anchors(options, report, implementation_name(), stream.get());
    if (runs("merge")) bench::run_merge_anchors(options, report, implementation_name(), stream.get());
    if (runs("segmented-sort")) bench::run_segmented_sort_anchors(options, report, implementation_name(), stream.get());
    if (runs("segmented")) bench::run_segmented_anchors(options, report, implementation_name(), stream.get());
    if (runs("by-key")) bench::run_by_key_anchors(options, report, implementation_name(), stream.get());
    if (report.mismatches() > 0) {
        std::fprintf(stderr, "sc_bench_cccl_next: %d results differ from their reference (rows marked MISMATCH, ok=0)\n",
                     report.mismatches());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) { return bench::program_main("sc_bench_cccl_next", kUsage, argc, argv, run); }

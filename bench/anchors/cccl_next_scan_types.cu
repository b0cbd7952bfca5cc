// sc_nvbench_cccl_next's rows of the scan part's other element types (bench/nvbench/scan_types.cu):
// the CUB of SC_CCCL_NEXT (cccl_next.cuh) on that part's inputs (uniform integers in [0, 100)
// converted to the type: scan_inputs.cuh) at its points, n = 2^20, 2^24, 2^28 (axis n; the full profile: 2^10,
// 2^12, ..., 2^28):
//   scan_int64/cub_X.Y, scan_float/cub_X.Y, scan_double/cub_X.Y
//       cub::DeviceScan::ExclusiveSum with the caller's temporary storage and an int item count, as
//       scan_types.cu calls the toolkit's;
//   scan_float/cub_X.Y_env, scan_double/cub_X.Y_env
//       ExclusiveSum through the environment API (stream and memory resource in a
//       cuda::std::execution::env), no requirement: determinism not guaranteed;
//   scan_float/cub_X.Y_run_to_run, scan_double/cub_X.Y_run_to_run
//       the environment API with cuda::execution::require(cuda::execution::determinism::run_to_run):
//       bitwise the same result on every run on one GPU, by a fixed reduction order.
// The environment API allocates its temporary storage through the environment's memory resource:
// CallerStorage serves it from storage allocated before the timed runs (sized by an untimed first
// call), so that no timed call allocates, like every other row; a timed call that asks for more gets
// it from cudaMallocAsync, and the state then says so on stderr.
//
// Bytes as scan_types.cu counts them: every item read and written once (2 sizeof(T) n). The output
// and the temporary storage are poisoned before the timed runs; what the last one wrote is checked in
// full against scan_types.cu's CPU reference (exact_exclusive_sum_of, first_disagreement: int64 and
// double equal to the exact sums, float within 1e-3 of them, relative). The run_to_run rows also run
// once more after the timed runs, on a poisoned output, and must give the same bits as the last timed run.
// The rows with the caller's storage are scan_types.cu's own scan_<type>/cub (bench/nvbench/scan_types_cub.cuh),
// compiled here with SC_CCCL_NEXT's CUB; the environment API's rows are this file's.
#include "cccl_next.cuh"
#include "nvbench/check.cuh"
#include "nvbench/registration.cuh"
#include "nvbench/scan_types_cub.cuh"
#include "scan_inputs.cuh"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_scan.cuh>
#include <cuda/execution.determinism.h>
#include <cuda/execution.require.h>
#include <cuda/memory_resource>
#include <cuda/std/execution>
#include <cuda/stream_ref>
#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;
using scan_inputs::exact_exclusive_sum_of;
using scan_inputs::fill_converted;
using scan_inputs::first_disagreement;
using scan_inputs::kScanLog2;

// The temporary storage of the environment API's calls, allocated beforehand; the largest request
// seen and the requests it could not serve.
struct EnvStorage {
    SC::DeviceBuffer<char> buffer;
    std::size_t largest_request = 0;
    int fallbacks = 0;
};

// A cuda::mr::resource that serves EnvStorage's buffer; a request larger than it, from cudaMallocAsync
// (counted).
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

// ExclusiveSum through the environment API: the stream, the caller's storage and, when
// Deterministic, the run_to_run requirement.
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

// A state's input (converted to T, as scan_types.cu makes it) and its poisoned output, for the environment
// API's rows.
template <class T>
struct ScanBuffers {
    SC::DeviceBuffer<T> in, out;
    ScanBuffers(std::size_t n, cudaStream_t stream) : in(n), out(n) {
        fill_converted<<<fill_blocks(n), kFillThreads, 0, stream>>>(in.get(), n);
        SC_CHECK_LAUNCH(fill_converted);
        out.fill_bytes(kPoisonByte);
    }
};

template <class T>
void add_counts(nvbench::state &state, std::size_t n) {
    state.add_element_count(n);
    state.add_global_memory_reads<T>(n);
    state.add_global_memory_writes<T>(n);
}

// "" when two outputs are bitwise the same, else the first item where they differ.
template <class T>
std::string bits_difference(const std::vector<T> &first, const std::vector<T> &second) {
    const std::size_t i = first_failing(first.size(), [&](std::size_t k) {
        return std::memcmp(&first[k], &second[k], sizeof(T)) != 0;
    });
    if (i == first.size()) return "";
    return "two runs differ: item " + std::to_string(i) + " of " + std::to_string(first.size()) + " is " +
           describe(first[i]) + " after the timed runs, " + describe(second[i]) + " after one more";
}

// ExclusiveSum through the environment API (Deterministic: with the run_to_run requirement).
template <bool Deterministic, class T>
void scan_env(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    ScanBuffers<T> data(n, stream);
    // Room for the storage of the call with the caller's storage (scan_temp_bytes), once more for the
    // deterministic mode's own, and slack; the untimed first call tells how much the mode needs, and
    // the storage grows to that.
    EnvStorage storage;
    storage.buffer = SC::DeviceBuffer<char>(2 * scan_temp_bytes<T>(n) + (std::size_t{16} << 20));
    env_exclusive_sum<Deterministic>(data.in.get(), data.out.get(), n, stream, storage);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (storage.largest_request > storage.buffer.bytes())
        storage.buffer = SC::DeviceBuffer<char>(storage.largest_request);
    storage.fallbacks = 0;
    storage.buffer.fill_bytes(kPoisonByte);
    data.out.fill_bytes(kPoisonByte);  // what the first call wrote
    add_counts<T>(state, n);
    state.exec([&](nvbench::launch &launch) {
        env_exclusive_sum<Deterministic>(data.in.get(), data.out.get(), n,
                                         static_cast<cudaStream_t>(launch.get_stream()), storage);
    });
    if (storage.fallbacks > 0)
        std::fprintf(stderr,
                     "sc_nvbench_cccl_next: %s: %d timed calls allocated their storage (asked up to %zu bytes)\n",
                     state.get_short_description().c_str(), storage.fallbacks, storage.largest_request);
    const std::vector<T> got = read_back(data.out.get(), n, stream);
    std::string difference = first_disagreement(got, *exact_exclusive_sum_of(n));
    if (difference.empty() && Deterministic) {
        // Bitwise the same output on one more run: what run_to_run promises.
        data.out.fill_bytes(kPoisonByte);
        env_exclusive_sum<Deterministic>(data.in.get(), data.out.get(), n, stream, storage);
        difference = bits_difference(got, read_back(data.out.get(), n, stream));
    }
    record_difference(state, difference);
}

// T's environment rows, "scan_<type>/cub_X.Y_env" and "scan_<type>/cub_X.Y_run_to_run", with
// scan_types.cu's axis.
template <class T>
bool add_env_rows() {
    const std::string operation = scan_types_cub::scan_operation<T>();
    add_benchmark(cub_benchmark(operation, "_env"), scan_env<false, T>).add_int64_power_of_two_axis("n", kScanLog2);
    add_benchmark(cub_benchmark(operation, "_run_to_run"), scan_env<true, T>)
        .add_int64_power_of_two_axis("n", kScanLog2);
    return true;
}

// scan_types.cu's scan_<type>/cub as cub_X.Y (its axis), each type's environment rows after it.
[[maybe_unused]] nvbench::benchmark_base &kInt64Cub = scan_types_cub::add_scan_cub<long long>(cub_implementation());
[[maybe_unused]] nvbench::benchmark_base &kFloatCub = scan_types_cub::add_scan_cub<float>(cub_implementation());
[[maybe_unused]] const bool kFloatEnv = add_env_rows<float>();
[[maybe_unused]] nvbench::benchmark_base &kDoubleCub = scan_types_cub::add_scan_cub<double>(cub_implementation());
[[maybe_unused]] const bool kDoubleEnv = add_env_rows<double>();

}  // namespace
}  // namespace bench

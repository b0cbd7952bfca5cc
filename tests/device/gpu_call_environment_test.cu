// The call environment (support/call_environment.h): where the calls' memory comes from, and that
// a call's tuning is its own.
//
// Contract: the overloads that allocate (no temporary-storage arguments) and Spmv (its plan and
// the storage of a call without any) take every byte from the environment's MemoryResource and
// give every byte back, on the stream it was allocated on; a call with the caller's temporary
// storage allocates nothing. Two host threads may call at once with environments of their own
// (streams, block sizes, staging), and each gets its own result. A Tuning the kernels cannot take
// is refused with std::invalid_argument before any work. AsyncResourceAdapter serves cuda::mr
// resources of either CCCL spelling. Every result is compared in full with a CPU reference, on
// outputs poisoned before each run.
#include <gtest/gtest.h>

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/support/async_resource.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/memory_resource.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <cuda/stream_ref>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using namespace robustness;

namespace {

// Powers of two and odd sizes, 0 and 1, past many tiles of every kernel here.
const std::size_t kSizes[] = {0, 1, 2, 1000, 4096, 100003, std::size_t{1} << 20, (std::size_t{1} << 20) + 1};

// cudaMallocAsync and cudaFreeAsync, counted: calls, the bytes not yet given back, and every
// deallocation that does not match its allocation (pointer, bytes, stream) or that CUDA refused.
// Thread-safe: the library may allocate from several host threads at once.
class CountingResource final : public SC::MemoryResource {
public:
    void *allocate(std::size_t bytes, cudaStream_t stream) override {
        void *p = nullptr;
        SC_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
        const std::lock_guard<std::mutex> lock(mutex_);
        ++allocations_;
        outstanding_ += bytes;
        live_[p] = Allocation{bytes, stream};
        return p;
    }
    void deallocate(void *p, std::size_t bytes, cudaStream_t stream) noexcept override {
        const cudaError_t freed = cudaFreeAsync(p, stream);
        const std::lock_guard<std::mutex> lock(mutex_);
        ++deallocations_;
        const auto it = live_.find(p);
        if (freed != cudaSuccess || it == live_.end() || it->second.bytes != bytes || it->second.stream != stream) {
            ++mismatches_;
        }
        if (it != live_.end()) {
            outstanding_ -= it->second.bytes;
            live_.erase(it);
        }
    }

    std::size_t allocations() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return allocations_;
    }
    std::size_t outstandingBytes() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return outstanding_;
    }

    // Every allocation given back once, as it was made.
    ::testing::AssertionResult allGivenBack() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (allocations_ != deallocations_ || outstanding_ != 0 || !live_.empty() || mismatches_ != 0)
            return ::testing::AssertionFailure()
                   << allocations_ << " allocations, " << deallocations_ << " deallocations, " << outstanding_
                   << " bytes outstanding, " << mismatches_ << " deallocations unlike their allocation";
        return ::testing::AssertionSuccess() << allocations_ << " allocations, all given back";
    }

private:
    struct Allocation {
        std::size_t bytes;
        cudaStream_t stream;
    };
    mutable std::mutex mutex_;
    std::size_t allocations_ = 0, deallocations_ = 0, outstanding_ = 0, mismatches_ = 0;
    std::map<void *, Allocation> live_;
};

class GpuCallEnvironment : public GpuTest {};

// ---- CPU references ----

template <class Key>
std::vector<Key> sortedKeys(std::vector<Key> keys) {
    std::sort(keys.begin(), keys.end());
    return keys;
}

// The values of a stable sort by key, the values being the input positions.
std::vector<std::int64_t> stableOrder(const std::vector<int> &keys) {
    std::vector<std::int64_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return keys[a] < keys[b]; });
    return order;
}

std::vector<int> negativesOf(const std::vector<int> &in) {
    std::vector<int> kept;
    std::copy_if(in.begin(), in.end(), std::back_inserter(kept), [](int x) { return x < 0; });
    return kept;
}

struct IsNegative {
    __host__ __device__ bool operator()(int x) const { return x < 0; }
};

// y = A x in double, and each row's magnitude.
void referenceSpmv(const SC::CsrMatrix<double> &a, const std::vector<double> &x, std::vector<double> &y,
                   std::vector<double> &magnitude) {
    y.assign(a.rows, 0.0);
    magnitude.assign(a.rows, 0.0);
    for (int r = 0; r < a.rows; ++r)
        for (int k = a.row_offsets[r]; k < a.row_offsets[r + 1]; ++k) {
            const double product = a.values[k] * x[a.column_indices[k]];
            y[r] += product;
            magnitude[r] += std::fabs(product);
        }
}

// Square matrices of 0 rows, 1, a power of two and an odd count, with skewed row lengths.
std::vector<SC::CsrMatrix<double>> spmvMatrices() {
    return {SC::CsrMatrix<double>{}, SC::power_law(1, 1, 1.3, 1, freshSeed()),
            SC::power_law(1024, 1024, 1.3, 2, freshSeed()),
            SC::power_law(30011, 30011, 1.3, 2, freshSeed())};
}

std::string matrixName(const SC::CsrMatrix<double> &m) {
    return std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", nnz " + std::to_string(m.nnz());
}

}  // namespace

// ---- (a) the allocating overloads take their storage from the environment's resource ----

TEST_F(GpuCallEnvironment, AllocatingScanAndSortsTakeEveryByteFromTheResourceAndGiveItBack) {
    Stream stream;
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        CountingResource resource;
        const SC::CallEnvironment env(stream, resource);
        const std::vector<int> in = randomInts(n, rng);
        const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
        DeviceBuffer<int> d_out(n);

        d_out.fill_bytes(kPoisonByte);
        SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, 7, env);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_TRUE(sameElements(download(d_out.get(), n), referenceExclusiveScan(in, SC::Sum{}, 7), "exclusive_scan"));
        EXPECT_EQ(resource.allocations(), n > 0 ? 1u : 0u) << "exclusive_scan: one allocation a call";

        d_out.fill_bytes(kPoisonByte);
        SC::radix_sort_keys(d_in.get(), d_out.get(), n, env);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_TRUE(sameElements(download(d_out.get(), n), sortedKeys(in), "radix_sort_keys"));
        EXPECT_EQ(resource.allocations(), n > 0 ? 2u : 0u) << "radix_sort_keys: one allocation a call";

        std::vector<std::int64_t> positions(n);
        std::iota(positions.begin(), positions.end(), std::int64_t{0});
        const DeviceBuffer<std::int64_t> d_positions = DeviceBuffer<std::int64_t>::from_host(positions.data(), n);
        DeviceBuffer<std::int64_t> d_moved(n);
        d_out.fill_bytes(kPoisonByte);
        d_moved.fill_bytes(kPoisonByte);
        SC::radix_sort_pairs(d_in.get(), d_out.get(), d_positions.get(), d_moved.get(), n, env);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_TRUE(sameElements(download(d_out.get(), n), sortedKeys(in), "radix_sort_pairs keys"));
        EXPECT_TRUE(sameElements(download(d_moved.get(), n), stableOrder(in), "radix_sort_pairs values"));
        EXPECT_EQ(resource.allocations(), n > 0 ? 3u : 0u) << "radix_sort_pairs: one allocation a call";

        EXPECT_TRUE(resource.allGivenBack());
    }
}

TEST_F(GpuCallEnvironment, SpmvCallsWithoutStorageTakeItFromTheirEnvironmentsResource) {
    Stream stream;
    std::mt19937 rng(freshSeed());
    for (const SC::CsrMatrix<double> &host : spmvMatrices()) {
        const SC::DeviceCsr<double> matrix(host);
        for (const SC::SpmvAlgorithm algorithm : {SC::SpmvAlgorithm::Flat, SC::SpmvAlgorithm::MergePath}) {
            SCOPED_TRACE(matrixName(host) + ", " + SC::spmv_algorithm_name(algorithm));
            const SC::Spmv<double> multiply(matrix, algorithm);  // its plan from the default resource
            std::vector<double> x(host.cols);
            for (double &v : x) v = std::uniform_real_distribution<double>(-1, 1)(rng);
            const DeviceBuffer<double> d_x = DeviceBuffer<double>::from_host(x.data(), x.size());
            DeviceBuffer<double> d_y(host.rows);
            std::vector<double> expected, magnitude;
            referenceSpmv(host, x, expected, magnitude);
            CountingResource resource;
            for (int call = 0; call < 3; ++call) {
                d_y.fill_bytes(kPoisonByte);
                multiply(1.0, d_x.get(), 0.0, d_y.get(), SC::CallEnvironment(stream, resource));
                SC_CUDA_CHECK(cudaStreamSynchronize(stream));
                ASSERT_TRUE(closeTo(download(d_y.get(), host.rows), expected, magnitude, 1e-12, "y"));
            }
            EXPECT_EQ(resource.allocations(), host.rows > 0 ? 3u : 0u) << "one allocation a call";
            EXPECT_TRUE(resource.allGivenBack());
        }
    }
}

// ---- (b) calls with the caller's storage allocate nothing ----

TEST_F(GpuCallEnvironment, CallsWithCallerStorageAllocateNothing) {
    Stream stream;
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        CountingResource resource;
        const SC::CallEnvironment env(stream, resource);
        const std::vector<int> in = randomInts(n, rng);
        const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
        DeviceBuffer<int> d_out(n);
        DeviceBuffer<std::size_t> d_count(1);
        DeviceBuffer<char> temp(std::max({SC::scan_temp_bytes<int>(n, env), SC::select_temp_bytes<int>(n, env),
                                          SC::radix_sort_temp_bytes<int>(n, env)}));

        d_out.fill_bytes(kPoisonByte);
        SC::inclusive_scan(d_in.get(), d_out.get(), n, SC::Max{}, temp.get(), temp.bytes(), env);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_TRUE(sameElements(download(d_out.get(), n), referenceInclusiveScan(in, SC::Max{}), "inclusive_scan"));

        d_out.fill_bytes(kPoisonByte);
        d_count.fill_bytes(kPoisonByte);
        SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, IsNegative{}, temp.get(), temp.bytes(), env);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        const std::vector<int> negatives = negativesOf(in);
        ASSERT_EQ(download(d_count.get(), 1)[0], negatives.size()) << "select_if count";
        EXPECT_TRUE(sameElements(download(d_out.get(), negatives.size()), negatives, "select_if"));

        d_out.fill_bytes(kPoisonByte);
        SC::radix_sort_keys(d_in.get(), d_out.get(), n, temp.get(), temp.bytes(), env);
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_TRUE(sameElements(download(d_out.get(), n), sortedKeys(in), "radix_sort_keys"));

        EXPECT_EQ(resource.allocations(), 0u);
        EXPECT_TRUE(resource.allGivenBack());
    }
}

// ---- (c) Spmv's plan storage: from the resource it is made with, back when it goes ----

TEST_F(GpuCallEnvironment, MergePathSpmvTakesItsPlanFromItsResourceAndItsHotPathAllocatesNothing) {
    Stream stream;
    std::mt19937 rng(freshSeed());
    for (const SC::CsrMatrix<double> &host : spmvMatrices()) {
        SCOPED_TRACE(matrixName(host));
        const SC::DeviceCsr<double> matrix(host);
        std::vector<double> x(host.cols);
        for (double &v : x) v = std::uniform_real_distribution<double>(-1, 1)(rng);
        const DeviceBuffer<double> d_x = DeviceBuffer<double>::from_host(x.data(), x.size());
        DeviceBuffer<double> d_y(host.rows);
        std::vector<double> expected, magnitude;
        referenceSpmv(host, x, expected, magnitude);

        CountingResource plan_memory, call_memory;
        {
            const SC::Spmv<double> multiply(matrix, SC::SpmvAlgorithm::MergePath,
                                            SC::CallEnvironment(stream, plan_memory));
            const std::size_t plan_allocations = plan_memory.allocations();
            if (host.rows > 0) {
                EXPECT_GE(plan_allocations, 1u) << "the merge path's corners come from the plan's resource";
                EXPECT_GT(plan_memory.outstandingBytes(), 0u) << "held while the Spmv lives";
            }
            DeviceBuffer<char> temp(multiply.temp_bytes());
            for (int call = 0; call < 3; ++call) {
                d_y.fill_bytes(kPoisonByte);
                multiply(1.0, d_x.get(), 0.0, d_y.get(), temp.get(), temp.bytes(),
                         SC::CallEnvironment(stream, call_memory));
                SC_CUDA_CHECK(cudaStreamSynchronize(stream));
                ASSERT_TRUE(closeTo(download(d_y.get(), host.rows), expected, magnitude, 1e-12, "y, caller's storage"));
            }
            EXPECT_EQ(plan_memory.allocations(), plan_allocations) << "a call with storage allocates nothing";
            EXPECT_EQ(call_memory.allocations(), 0u) << "a call with storage allocates nothing";

            // Without storage: the call's own environment's resource serves it, not the plan's.
            d_y.fill_bytes(kPoisonByte);
            multiply(1.0, d_x.get(), 0.0, d_y.get(), SC::CallEnvironment(stream, call_memory));
            SC_CUDA_CHECK(cudaStreamSynchronize(stream));
            ASSERT_TRUE(closeTo(download(d_y.get(), host.rows), expected, magnitude, 1e-12, "y, allocated storage"));
            EXPECT_EQ(plan_memory.allocations(), plan_allocations);
            EXPECT_EQ(call_memory.allocations(), host.rows > 0 ? 1u : 0u);
            EXPECT_TRUE(call_memory.allGivenBack());
        }
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        EXPECT_TRUE(plan_memory.allGivenBack()) << "after the Spmv is destroyed";
    }
}

// ---- (d) two host threads, each with an environment of its own ----

namespace {

// Rounds of exclusive_scan (allocating, from `env`'s resource) and select_if (its own storage) on
// `env`'s stream, every size of kSizes, each result checked: the first failure, or success.
::testing::AssertionResult scanAndSelectRounds(const SC::CallEnvironment &env, std::uint32_t seed,
                                               std::atomic<int> &started) {
    try {
        std::mt19937 rng(seed);
        ++started;
        while (started.load() < 2) std::this_thread::yield();  // both threads enqueue together
        for (int round = 0; round < 3; ++round) {
            for (const std::size_t n : kSizes) {
                const std::string where = "round " + std::to_string(round) + ", n = " + std::to_string(n);
                const std::vector<int> in = randomInts(n, rng);
                const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
                DeviceBuffer<int> d_scanned(n), d_selected(n);
                DeviceBuffer<std::size_t> d_count(1);
                DeviceBuffer<char> temp(SC::select_temp_bytes<int>(n, env));
                d_scanned.fill_bytes(kPoisonByte);
                d_selected.fill_bytes(kPoisonByte);
                d_count.fill_bytes(kPoisonByte);
                SC::exclusive_scan(d_in.get(), d_scanned.get(), n, SC::Sum{}, -3, env);
                SC::select_if(d_in.get(), d_selected.get(), d_count.get(), n, IsNegative{}, temp.get(), temp.bytes(),
                              env);
                SC_CUDA_CHECK(cudaStreamSynchronize(env.stream));
                ::testing::AssertionResult same = sameElements(download(d_scanned.get(), n),
                                                               referenceExclusiveScan(in, SC::Sum{}, -3), "scan");
                if (!same) return same << ", " << where;
                const std::vector<int> negatives = negativesOf(in);
                const std::size_t count = download(d_count.get(), 1)[0];
                if (count != negatives.size())
                    return ::testing::AssertionFailure()
                           << "select_if count " << count << ", expected " << negatives.size() << ", " << where;
                same = sameElements(download(d_selected.get(), count), negatives, "select_if");
                if (!same) return same << ", " << where;
            }
        }
        return ::testing::AssertionSuccess();
    } catch (const std::exception &e) {
        return ::testing::AssertionFailure() << "threw: " << e.what();
    }
}

SC::Tuning tuningOf(int single_pass, SC::ScanStaging staging) {
    SC::Tuning tuning;
    tuning.single_pass = single_pass;
    tuning.scan_staging = staging;
    return tuning;
}

std::string tuningName(const SC::Tuning &t) {
    const char *staging = t.scan_staging == SC::ScanStaging::Staged     ? "staged"
                          : t.scan_staging == SC::ScanStaging::Portable ? "portable"
                                                                        : "auto";
    return std::to_string(SC::single_pass_threads(t)) + " threads, " + staging;
}

}  // namespace

TEST_F(GpuCallEnvironment, TwoThreadsCallAtOnceWithEnvironmentsOfTheirOwn) {
    // Other block sizes and stagings on each side; 0 is the tuned block size, the only one that
    // stages (elsewhere Staged runs the portable kernel).
    const std::pair<SC::Tuning, SC::Tuning> pairs[] = {
        {tuningOf(128, SC::ScanStaging::Portable), tuningOf(512, SC::ScanStaging::Staged)},
        {tuningOf(0, SC::ScanStaging::Staged), tuningOf(128, SC::ScanStaging::Auto)},
        {tuningOf(1024, SC::ScanStaging::Auto), tuningOf(0, SC::ScanStaging::Portable)},
    };
    for (const auto &[first_tuning, second_tuning] : pairs) {
        SCOPED_TRACE(tuningName(first_tuning) + " beside " + tuningName(second_tuning));
        CountingResource resource;  // one resource for both threads
        Stream first_stream, second_stream;
        const SC::CallEnvironment first(first_stream, first_tuning, &resource);
        const SC::CallEnvironment second(second_stream, second_tuning, &resource);
        std::atomic<int> started{0};
        ::testing::AssertionResult first_result = ::testing::AssertionSuccess();
        ::testing::AssertionResult second_result = ::testing::AssertionSuccess();
        const std::uint32_t first_seed = freshSeed(), second_seed = freshSeed();
        std::thread other([&] { second_result = scanAndSelectRounds(second, second_seed, started); });
        first_result = scanAndSelectRounds(first, first_seed, started);
        other.join();
        EXPECT_TRUE(first_result) << "first thread, " << tuningName(first_tuning);
        EXPECT_TRUE(second_result) << "second thread, " << tuningName(second_tuning);
        EXPECT_GT(resource.allocations(), 0u);
        EXPECT_TRUE(resource.allGivenBack());
    }
}

// ---- (e) a Tuning the kernels cannot take ----

TEST_F(GpuCallEnvironment, AnInvalidTuningIsRefusedBeforeAnyWork) {
    Stream stream;
    const std::size_t n = 100003;
    std::mt19937 rng(freshSeed());
    const std::vector<int> in = randomInts(n, rng);
    const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
    DeviceBuffer<int> d_out(n);
    DeviceBuffer<std::size_t> d_count(1);
    DeviceBuffer<char> temp(std::max({SC::scan_temp_bytes<int>(n), SC::select_temp_bytes<int>(n),
                                      SC::radix_sort_temp_bytes<int>(n)}));
    d_out.fill_bytes(kPoisonByte);
    d_count.fill_bytes(kPoisonByte);
    CountingResource resource;

    for (const int threads : {48, 16, 2048}) {
        SCOPED_TRACE("single_pass " + std::to_string(threads));
        const SC::CallEnvironment bad(stream, tuningWith(&SC::Tuning::single_pass, threads), &resource);
        EXPECT_THROW(SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, 0, temp.get(), temp.bytes(), bad),
                     std::invalid_argument);
        EXPECT_THROW(SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, 0, bad), std::invalid_argument);
        EXPECT_THROW(
            SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, IsNegative{}, temp.get(), temp.bytes(), bad),
            std::invalid_argument);
    }
    for (const int threads : {1024, 48}) {
        SCOPED_TRACE("radix " + std::to_string(threads));
        const SC::CallEnvironment bad(stream, tuningWith(&SC::Tuning::radix, threads), &resource);
        EXPECT_THROW(SC::radix_sort_temp_bytes<int>(n, bad), std::invalid_argument);
        EXPECT_THROW(SC::radix_sort_keys(d_in.get(), d_out.get(), n, temp.get(), temp.bytes(), bad),
                     std::invalid_argument);
        EXPECT_THROW(SC::radix_sort_keys(d_in.get(), d_out.get(), n, bad), std::invalid_argument);
    }
    {
        SCOPED_TRACE("segmented 48");
        const SC::CsrMatrix<double> host = SC::power_law(1024, 1024, 1.3, 2, freshSeed());
        const SC::DeviceCsr<double> matrix(host);
        const SC::CallEnvironment bad(stream, tuningWith(&SC::Tuning::segmented, 48), &resource);
        EXPECT_THROW(SC::Spmv<double>(matrix, SC::SpmvAlgorithm::MergePath, bad), std::invalid_argument);
    }
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_TRUE(stillPoisoned(d_out.get(), d_out.bytes())) << "a refused call wrote its output";
    EXPECT_TRUE(stillPoisoned(d_count.get(), d_count.bytes())) << "a refused call wrote its count";
    EXPECT_TRUE(resource.allGivenBack()) << "what a refused call took is given back";
    // The same storage and stream still serve a call at the defaults.
    SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, 0, temp.get(), temp.bytes(), stream.get());
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_TRUE(sameElements(download(d_out.get(), n), referenceExclusiveScan(in, SC::Sum{}, 0), "exclusive_scan"));
}

// ---- (f) cuda::mr resources through AsyncResourceAdapter ----

// Neither spelling: a synchronous allocate only (outside the unnamed namespace: it is only declared,
// for the traits below).
namespace gpu_call_environment_test {
struct SynchronousOnly {
    void *allocate(std::size_t bytes, std::size_t alignment);
};
}  // namespace gpu_call_environment_test
using gpu_call_environment_test::SynchronousOnly;

namespace {

// What a cuda::mr-style resource below was asked (one allocation at a time: a single call's):
// calls, the bytes not yet given back, every alignment asked for, and whether each deallocation
// came with its allocation's pointer, bytes and stream.
struct AsyncCalls {
    std::size_t allocations = 0, deallocations = 0, outstanding = 0;
    std::vector<std::size_t> alignments;
    bool matched = true;
    void *allocated = nullptr;
    std::size_t allocated_bytes = 0;
    cudaStream_t allocation_stream = nullptr;

    void *allocate(std::size_t bytes, std::size_t alignment, cudaStream_t stream) {
        void *p = nullptr;
        SC_CUDA_CHECK(cudaMallocAsync(&p, bytes, stream));
        ++allocations;
        outstanding += bytes;
        alignments.push_back(alignment);
        allocated = p;
        allocated_bytes = bytes;
        allocation_stream = stream;
        return p;
    }
    void deallocate(void *p, std::size_t bytes, std::size_t alignment, cudaStream_t stream) {
        matched = matched && cudaFreeAsync(p, stream) == cudaSuccess && p == allocated && bytes == allocated_bytes &&
                  stream == allocation_stream;
        ++deallocations;
        outstanding -= bytes;
        alignments.push_back(alignment);
    }
};

// CCCL 3.0's spelling (cuda::mr::async_resource, RMM's device_async_resource_ref).
class Cccl30Resource {
public:
    void *allocate_async(std::size_t bytes, std::size_t alignment, cuda::stream_ref stream) {
        return calls.allocate(bytes, alignment, stream.get());
    }
    void deallocate_async(void *p, std::size_t bytes, std::size_t alignment, cuda::stream_ref stream) {
        calls.deallocate(p, bytes, alignment, stream.get());
    }
    AsyncCalls calls;
};

// CCCL 3.1's: the stream first.
class Cccl31Resource {
public:
    void *allocate(cuda::stream_ref stream, std::size_t bytes, std::size_t alignment) {
        return calls.allocate(bytes, alignment, stream.get());
    }
    void deallocate(cuda::stream_ref stream, void *p, std::size_t bytes, std::size_t alignment) {
        calls.deallocate(p, bytes, alignment, stream.get());
    }
    AsyncCalls calls;
};

static_assert(SC::detail::has_allocate_async<Cccl30Resource>::value, "the CCCL 3.0 spelling is recognized");
static_assert(!SC::detail::has_stream_first_allocate<Cccl30Resource>::value, "and only it");
static_assert(SC::detail::has_stream_first_allocate<Cccl31Resource>::value, "the CCCL 3.1 spelling is recognized");
static_assert(!SC::detail::has_allocate_async<Cccl31Resource>::value, "and only it");
static_assert(!SC::detail::has_allocate_async<SynchronousOnly>::value &&
                  !SC::detail::has_stream_first_allocate<SynchronousOnly>::value,
              "a resource without stream-ordered allocation is not taken");
static_assert(std::is_base_of_v<SC::MemoryResource, SC::AsyncResourceAdapter<Cccl30Resource>>, "a MemoryResource");
static_assert(std::is_base_of_v<SC::MemoryResource, SC::AsyncResourceAdapter<Cccl31Resource>>, "a MemoryResource");
static_assert(SC::AsyncResourceAdapter<Cccl30Resource>::kAlignment == 256, "cudaMalloc's alignment");

// A sort of every size through `resource`, adapted; each result checked, every call counted.
template <class Resource>
void checkSortsThroughAnAdaptedResource() {
    Stream stream;
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        Resource resource;
        SC::AsyncResourceAdapter<Resource> memory(resource);
        const std::vector<int> in = randomInts(n, rng);
        const DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n);
        DeviceBuffer<int> d_out(n);
        d_out.fill_bytes(kPoisonByte);
        SC::radix_sort_keys(d_in.get(), d_out.get(), n, SC::CallEnvironment(stream, memory));
        SC_CUDA_CHECK(cudaStreamSynchronize(stream));
        ASSERT_TRUE(sameElements(download(d_out.get(), n), sortedKeys(in), "radix_sort_keys"));
        const AsyncCalls &calls = resource.calls;
        EXPECT_EQ(calls.allocations, n > 0 ? 1u : 0u);
        EXPECT_EQ(calls.deallocations, calls.allocations);
        EXPECT_EQ(calls.outstanding, 0u);
        EXPECT_TRUE(calls.matched) << "given back with its pointer and bytes, on the allocation's stream";
        for (const std::size_t alignment : calls.alignments)
            EXPECT_EQ(alignment, SC::AsyncResourceAdapter<Resource>::kAlignment);
        if (n > 0) EXPECT_EQ(calls.allocation_stream, stream.get()) << "allocated on the call's stream";
    }
}

}  // namespace

TEST_F(GpuCallEnvironment, AsyncResourceAdapterServesTheCccl30Spelling) {
    checkSortsThroughAnAdaptedResource<Cccl30Resource>();
}

TEST_F(GpuCallEnvironment, AsyncResourceAdapterServesTheCccl31Spelling) {
    checkSortsThroughAnAdaptedResource<Cccl31Resource>();
}

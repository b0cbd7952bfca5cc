// Every GPU scan and compaction against the CPU on the same input: device API and course wrappers.
#include <gtest/gtest.h>

#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/efficient.h>
#include <stream_compaction/naive.h>
#include <stream_compaction/thrust.h>
#include <stream_compaction/tuning/block_sizes.h>

#include "gpu_test_util.h"
#include "reference.h"

#include <climits>
#include <functional>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

namespace {

constexpr int kPoisonByte = 0xA5;  // 0xA5A5A5A5: no scan of these inputs produces it by chance here

struct DeviceScan {
    const char *name;
    std::size_t (*tempBytes)(std::size_t);
    void (*scan)(const int *, int *, std::size_t, void *, std::size_t, cudaStream_t);
    void (*courseScan)(int, int *, const int *);
};

const DeviceScan kScans[] = {
    {"naive", SC::Naive::scan_temp_bytes, SC::Naive::exclusive_scan, SC::Naive::scan},
    {"efficient", SC::Efficient::scan_temp_bytes, SC::Efficient::exclusive_scan, SC::Efficient::scan},
    {"thrust", SC::Thrust::scan_temp_bytes, SC::Thrust::exclusive_scan, SC::Thrust::scan},
};

// Runs the device API on a poisoned output; returns the result.
std::vector<int> deviceScan(const DeviceScan &impl, const std::vector<int> &in, cudaStream_t stream = 0) {
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
    DeviceBuffer<int> d_out(in.size());
    d_out.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(impl.tempBytes(in.size()));
    temp.fill_bytes(kPoisonByte);
    impl.scan(d_in.get(), d_out.get(), in.size(), temp.get(), temp.bytes(), stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<int> out(in.size());
    d_out.copy_to_host(out.data(), out.size());
    return out;
}

struct CompactResult {
    int count;
    std::vector<int> kept;
};

CompactResult deviceCompact(const std::vector<int> &in) {
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
    DeviceBuffer<int> d_out(in.size()), d_count(1);
    d_out.fill_bytes(kPoisonByte);
    d_count.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::Efficient::compact_temp_bytes(in.size()));
    temp.fill_bytes(kPoisonByte);
    SC::Efficient::compact(d_in.get(), d_out.get(), d_count.get(), in.size(), temp.get(), temp.bytes());
    CompactResult r{};
    d_count.copy_to_host(&r.count, 1);
    if (r.count < 0 || std::size_t(r.count) > in.size()) return r;
    r.kept.resize(r.count);
    d_out.copy_to_host(r.kept.data(), r.count);
    return r;
}

}  // namespace

TEST(GpuScan, EveryImplementationMatchesCpuOnEdgeSizes) {
    SKIP_WITHOUT_GPU();
    for (const DeviceScan &impl : kScans) {
        for (Fill fill : {Fill::Random, Fill::Zeros, Fill::NoZeros, Fill::Negatives}) {
            for (std::size_t n : edgeSizes()) {
                SCOPED_TRACE(std::string(impl.name) + ", n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
                const std::vector<int> in = makeInput(n, fill, freshSeed());
                ASSERT_EQ(deviceScan(impl, in), cpuScan(in));
            }
        }
    }
}

TEST(GpuScan, CourseInterfaceMatchesCpu) {
    SKIP_WITHOUT_GPU();
    for (const DeviceScan &impl : kScans) {
        for (int n : {1, 3, 1 << 8, (1 << 8) - 3, 1 << 16, (1 << 16) - 3}) {
            SCOPED_TRACE(std::string(impl.name) + ", n = " + std::to_string(n));
            const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
            std::vector<int> out(n, INT_MIN);
            impl.courseScan(n, out.data(), in.data());
            ASSERT_EQ(out, cpuScan(in));
        }
        int untouched = 42;
        EXPECT_NO_THROW(impl.courseScan(0, &untouched, &untouched));
        EXPECT_EQ(untouched, 42);
        EXPECT_THROW(impl.courseScan(-1, &untouched, &untouched), std::invalid_argument);
        EXPECT_THROW(impl.courseScan(4, nullptr, &untouched), std::invalid_argument);
    }
}

TEST(GpuScan, InPlaceOnAStream) {
    SKIP_WITHOUT_GPU();
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    for (const DeviceScan &impl : kScans) {
        for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(1) << 17}) {
            SCOPED_TRACE(std::string(impl.name) + ", n = " + std::to_string(n));
            const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
            DeviceBuffer<int> data = DeviceBuffer<int>::from_host(in.data(), n);
            DeviceBuffer<char> temp(impl.tempBytes(n));
            impl.scan(data.get(), data.get(), n, temp.get(), temp.bytes(), stream);
            ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
            std::vector<int> out(n);
            data.copy_to_host(out.data(), n);
            ASSERT_EQ(out, cpuScan(in));
        }
    }
    cudaStreamDestroy(stream);
}

TEST(GpuScan, EveryBlockSize) {
    SKIP_WITHOUT_GPU();
    const SC::BlockSizes saved = SC::block_sizes();
    for (int threads = 32; threads <= 1024; threads *= 2) {
        SC::set_block_size(threads);
        for (const DeviceScan &impl : kScans) {
            SCOPED_TRACE(std::string(impl.name) + ", block size " + std::to_string(threads));
            const std::vector<int> in = makeInput(100003, Fill::Random, freshSeed());
            ASSERT_EQ(deviceScan(impl, in), cpuScan(in));
        }
    }
    SC::block_sizes() = saved;
}

TEST(GpuScan, RejectsBadArgumentsBeforeTouchingMemory) {
    SKIP_WITHOUT_GPU();
    DeviceBuffer<int> buffer(16);
    for (const DeviceScan &impl : kScans) {
        SCOPED_TRACE(impl.name);
        DeviceBuffer<char> temp(impl.tempBytes(16));
        EXPECT_THROW(impl.scan(nullptr, buffer.get(), 16, temp.get(), temp.bytes(), 0), std::invalid_argument);
        EXPECT_THROW(impl.scan(buffer.get(), nullptr, 16, temp.get(), temp.bytes(), 0), std::invalid_argument);
        if (impl.tempBytes(16) > 0)
            EXPECT_THROW(impl.scan(buffer.get(), buffer.get(), 16, nullptr, 0, 0), std::invalid_argument);
        EXPECT_NO_THROW(impl.scan(nullptr, nullptr, 0, nullptr, 0, 0));
    }
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Sanitizer runs leave this out: it makes a CUDA call fail on purpose.
TEST(GpuFailure, OutOfMemoryIsACudaError) {
    SKIP_WITHOUT_GPU();
    // More memory than any GPU has: the allocation fails and says which call and where.
    try {
        DeviceBuffer<int> huge(std::size_t(1) << 45);
        FAIL() << "allocation of 128 TiB succeeded";
    } catch (const SC::cuda_error &e) {
        EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
        EXPECT_NE(std::string(e.what()).find("cudaMalloc"), std::string::npos) << e.what();
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // the failure did not poison later work
}

TEST(GpuCompact, MatchesCpuOnEdgeSizesAndPredicates) {
    SKIP_WITHOUT_GPU();
    for (Fill fill : {Fill::HalfZeros, Fill::Zeros, Fill::NoZeros, Fill::Negatives}) {
        for (std::size_t n : edgeSizes()) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
            const std::vector<int> in = makeInput(n, fill, freshSeed());
            const std::vector<int> expected = cpuCompact(in);
            const CompactResult r = deviceCompact(in);
            ASSERT_EQ(r.count, int(expected.size()));
            ASSERT_EQ(r.kept, expected);
        }
    }
}

TEST(GpuCompact, CourseInterfaceMatchesCpu) {
    SKIP_WITHOUT_GPU();
    for (int n : {1, 2, 1 << 10, (1 << 10) - 3, 1 << 16, (1 << 16) + 1}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> in = makeInput(n, Fill::HalfZeros, freshSeed());
        const std::vector<int> expected = cpuCompact(in);
        std::vector<int> out(n, INT_MIN);
        ASSERT_EQ(SC::Efficient::compact(n, out.data(), in.data()), int(expected.size()));
        out.resize(expected.size());
        ASSERT_EQ(out, expected);
    }
    EXPECT_EQ(SC::Efficient::compact(0, nullptr, nullptr), 0);
    EXPECT_THROW(SC::Efficient::compact(-5, nullptr, nullptr), std::invalid_argument);
}

// Sizes that fill the GPU: kept apart so that the sanitizer runs can leave them out.
TEST(GpuLarge, ScansAndCompactionAtMillionsOfElements) {
    SKIP_WITHOUT_GPU();
    for (std::size_t n : {std::size_t(1) << 20, (std::size_t(1) << 24) - 1, std::size_t(1) << 24,
                          (std::size_t(1) << 24) + 1}) {
        const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
        const std::vector<int> expected = cpuScan(in);
        for (const DeviceScan &impl : kScans) {
            SCOPED_TRACE(std::string(impl.name) + ", n = " + std::to_string(n));
            ASSERT_EQ(deviceScan(impl, in), expected);
        }
        const std::vector<int> sparse = makeInput(n, Fill::HalfZeros, freshSeed());
        const CompactResult r = deviceCompact(sparse);
        ASSERT_EQ(r.kept, cpuCompact(sparse)) << "compaction, n = " << n;
    }
}

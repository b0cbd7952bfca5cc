// The shared-memory hierarchical scan (StreamCompaction::Shared) against the CPU: device API and
// course interface, tile boundaries and recursion depths at several block sizes, in place,
// unaligned pointers, compaction, bad arguments; large sizes and a timing in the GpuLarge suite.
#include <gtest/gtest.h>

#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/shared.h>
#include <stream_compaction/tuning/block_sizes.h>
#include <stream_compaction/tuning/policies.h>

#include "gpu_test_util.h"
#include "reference.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;

namespace {

constexpr int kPoisonByte = 0xA5;

std::size_t tileOf(int threads) { return std::size_t(threads) * SC::kSharedItemsPerThread; }

// Restores every block size when the test leaves, ASSERT failures included.
struct BlockSizeGuard {
    SC::BlockSizes saved = SC::block_sizes();
    ~BlockSizeGuard() { SC::block_sizes() = saved; }
};

// Element-wise comparison that names the first difference instead of printing whole arrays.
::testing::AssertionResult sameInts(const std::vector<int> &actual, const std::vector<int> &expected) {
    if (actual.size() != expected.size())
        return ::testing::AssertionFailure() << "size " << actual.size() << ", expected " << expected.size();
    const auto diff = std::mismatch(actual.begin(), actual.end(), expected.begin());
    if (diff.first == actual.end()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "first difference at index " << (diff.first - actual.begin()) << " of "
                                         << actual.size() << ": " << *diff.first << ", expected " << *diff.second;
}

// Inputs for the largest sizes, where makeInput's distribution would dominate the run time:
// xorshift values in [-1000, 1000], with zeros about half the time when `halfZeros`.
std::vector<int> fastInput(std::size_t n, std::uint32_t seed, bool halfZeros = false) {
    std::vector<int> v(n);
    std::uint64_t s = seed | 1;
    for (int &x : v) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x = (halfZeros && (s >> 63)) ? 0 : int((s >> 20) % 2001) - 1000;
    }
    return v;
}

// Device API on a poisoned output and poisoned temporary storage of exactly scan_temp_bytes(n),
// so that the sanitizer sees any access past it. `offset` shifts both pointers off 16-byte alignment.
std::vector<int> sharedScan(const std::vector<int> &in, cudaStream_t stream = 0, std::size_t offset = 0) {
    const std::size_t n = in.size();
    DeviceBuffer<int> d_in(n + offset), d_out(n + offset);
    if (n > 0) SC_CUDA_CHECK(cudaMemcpy(d_in.get() + offset, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    d_out.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::Shared::scan_temp_bytes(n));
    temp.fill_bytes(kPoisonByte);
    SC::Shared::exclusive_scan(d_in.get() + offset, d_out.get() + offset, n, temp.get(), temp.bytes(), stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<int> out(n);
    if (n > 0) SC_CUDA_CHECK(cudaMemcpy(out.data(), d_out.get() + offset, n * sizeof(int), cudaMemcpyDeviceToHost));
    return out;
}

std::vector<int> sharedScanInPlace(const std::vector<int> &in, cudaStream_t stream) {
    DeviceBuffer<int> data = DeviceBuffer<int>::from_host(in.data(), in.size());
    DeviceBuffer<char> temp(SC::Shared::scan_temp_bytes(in.size()));
    temp.fill_bytes(kPoisonByte);
    SC::Shared::exclusive_scan(data.get(), data.get(), in.size(), temp.get(), temp.bytes(), stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<int> out(in.size());
    data.copy_to_host(out.data(), out.size());
    return out;
}

struct CompactResult {
    int count;
    std::vector<int> kept;
};

CompactResult sharedCompact(const std::vector<int> &in) {
    DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), in.size());
    DeviceBuffer<int> d_out(in.size()), d_count(1);
    d_out.fill_bytes(kPoisonByte);
    d_count.fill_bytes(kPoisonByte);
    DeviceBuffer<char> temp(SC::Shared::compact_temp_bytes(in.size()));
    temp.fill_bytes(kPoisonByte);
    SC::Shared::compact(d_in.get(), d_out.get(), d_count.get(), in.size(), temp.get(), temp.bytes());
    CompactResult r{};
    d_count.copy_to_host(&r.count, 1);
    if (r.count < 0 || std::size_t(r.count) > in.size()) return r;
    r.kept.resize(r.count);
    d_out.copy_to_host(r.kept.data(), r.count);
    return r;
}

// Sizes around the tiles of `threads`: one tile and its neighbours, several tiles, and, when
// `withSquare`, tile^2 and its neighbours, where the tile sums need a second level of recursion.
std::vector<std::size_t> tileSizes(int threads, bool withSquare) {
    const std::size_t tile = tileOf(threads);
    std::vector<std::size_t> sizes = {tile - 1, tile, tile + 1, 2 * tile, 3 * tile - 1, 7 * tile + 5};
    if (withSquare) {
        sizes.push_back(tile * tile - 1);
        sizes.push_back(tile * tile);
        sizes.push_back(tile * tile + 1);
        sizes.push_back(tile * tile + tile + 1);
    }
    return sizes;
}

}  // namespace

TEST(GpuShared, DeviceApiMatchesCpuOnEdgeSizes) {
    SKIP_WITHOUT_GPU();
    for (Fill fill : {Fill::Random, Fill::Zeros, Fill::NoZeros, Fill::Negatives}) {
        for (std::size_t n : edgeSizes()) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
            const std::vector<int> in = makeInput(n, fill, freshSeed());
            ASSERT_TRUE(sameInts(sharedScan(in), cpuScan(in)));
        }
    }
}

TEST(GpuShared, TileBoundariesAtSeveralBlockSizes) {
    SKIP_WITHOUT_GPU();
    BlockSizeGuard guard;
    for (int threads : {32, 64, 256, 1024}) {
        SC::block_sizes().shared = threads;
        // tile^2 is 2^18 items at 32 threads; larger squares are in GpuLarge.
        for (std::size_t n : tileSizes(threads, threads == 32)) {
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n));
            const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
            ASSERT_TRUE(sameInts(sharedScan(in), cpuScan(in)));
        }
    }
}

TEST(GpuShared, EveryBlockSizeWithTheSameTemporaryStorage) {
    SKIP_WITHOUT_GPU();
    BlockSizeGuard guard;
    const std::size_t n = 300007;
    const std::size_t tempBytes = SC::Shared::scan_temp_bytes(n);
    const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
    const std::vector<int> expected = cpuScan(in);
    for (int threads = 32; threads <= 1024; threads *= 2) {
        SCOPED_TRACE("block size " + std::to_string(threads));
        SC::block_sizes().shared = threads;
        EXPECT_EQ(SC::Shared::scan_temp_bytes(n), tempBytes);  // sized for the smallest block
        ASSERT_TRUE(sameInts(sharedScan(in), expected));
    }
    // Up to one tile of the smallest block, no temporary storage at all.
    EXPECT_EQ(SC::Shared::scan_temp_bytes(0), 0u);
    EXPECT_EQ(SC::Shared::scan_temp_bytes(tileOf(32)), 0u);
    EXPECT_GT(SC::Shared::scan_temp_bytes(tileOf(32) + 1), 0u);
}

TEST(GpuShared, InPlaceOnAStream) {
    SKIP_WITHOUT_GPU();
    BlockSizeGuard guard;
    cudaStream_t stream;
    ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
    for (int threads : {32, 256}) {
        SC::block_sizes().shared = threads;
        for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(1) << 17, tileOf(32) * tileOf(32) + 3}) {
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n));
            const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
            ASSERT_TRUE(sameInts(sharedScanInPlace(in, stream), cpuScan(in)));
        }
    }
    cudaStreamDestroy(stream);
}

TEST(GpuShared, UnalignedPointersTakeTheScalarPath) {
    SKIP_WITHOUT_GPU();
    for (std::size_t offset : {1, 2, 3}) {
        for (std::size_t n : {std::size_t(5000), std::size_t(1) << 16, (std::size_t(1) << 16) + 7}) {
            SCOPED_TRACE("offset " + std::to_string(offset) + ", n = " + std::to_string(n));
            const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
            ASSERT_TRUE(sameInts(sharedScan(in, 0, offset), cpuScan(in)));
        }
    }
}

TEST(GpuShared, ExtremeValuesWrapModulo2To32) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = 100000;
    std::vector<int> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = (i % 3 == 0) ? INT_MAX : (i % 3 == 1 ? INT_MIN : -1);
    ASSERT_TRUE(sameInts(sharedScan(in), cpuScan(in)));
}

TEST(GpuShared, CourseScanMatchesCpu) {
    SKIP_WITHOUT_GPU();
    for (int n : {1, 3, 1 << 8, (1 << 8) - 3, 1 << 16, (1 << 16) - 3, 1 << 20}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> in = makeInput(n, Fill::Random, freshSeed());
        std::vector<int> out(n, INT_MIN);
        const std::uint64_t timed = SC::Shared::timer().completedGpuTimings();
        SC::Shared::scan(n, out.data(), in.data());
        ASSERT_TRUE(sameInts(out, cpuScan(in)));
        EXPECT_EQ(SC::Shared::timer().completedGpuTimings(), timed + 1);  // its time may read 0 ms
    }
    int untouched = 42;
    EXPECT_NO_THROW(SC::Shared::scan(0, &untouched, &untouched));
    EXPECT_NO_THROW(SC::Shared::scan(0, nullptr, nullptr));
    EXPECT_EQ(untouched, 42);
    EXPECT_THROW(SC::Shared::scan(-1, &untouched, &untouched), std::invalid_argument);
    EXPECT_THROW(SC::Shared::scan(4, nullptr, &untouched), std::invalid_argument);
    EXPECT_THROW(SC::Shared::scan(4, &untouched, nullptr), std::invalid_argument);
}

TEST(GpuShared, CompactMatchesCpuOnEdgeSizesAndPredicates) {
    SKIP_WITHOUT_GPU();
    for (Fill fill : {Fill::HalfZeros, Fill::Zeros, Fill::NoZeros, Fill::Negatives}) {
        for (std::size_t n : edgeSizes()) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
            const std::vector<int> in = makeInput(n, fill, freshSeed());
            const std::vector<int> expected = cpuCompact(in);
            const CompactResult r = sharedCompact(in);
            ASSERT_EQ(r.count, int(expected.size()));
            ASSERT_TRUE(sameInts(r.kept, expected));
        }
    }
}

TEST(GpuShared, CompactAtTileBoundaries) {
    SKIP_WITHOUT_GPU();
    BlockSizeGuard guard;
    for (int threads : {32, 256, 1024}) {
        SC::block_sizes().shared = threads;
        // n + 1 flags are scanned: n = tile - 1 fills one tile exactly, n = tile spills into a second.
        for (std::size_t n : tileSizes(threads, threads == 32)) {
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n));
            const std::vector<int> in = makeInput(n, Fill::HalfZeros, freshSeed());
            const std::vector<int> expected = cpuCompact(in);
            const CompactResult r = sharedCompact(in);
            ASSERT_EQ(r.count, int(expected.size()));
            ASSERT_TRUE(sameInts(r.kept, expected));
        }
    }
}

TEST(GpuShared, CourseCompactMatchesCpu) {
    SKIP_WITHOUT_GPU();
    for (int n : {1, 2, 1 << 10, (1 << 10) - 3, 1 << 16, (1 << 16) + 1}) {
        for (Fill fill : {Fill::HalfZeros, Fill::Zeros, Fill::NoZeros}) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", fill " + std::to_string(int(fill)));
            const std::vector<int> in = makeInput(n, fill, freshSeed());
            const std::vector<int> expected = cpuCompact(in);
            std::vector<int> out(n, INT_MIN);
            ASSERT_EQ(SC::Shared::compact(n, out.data(), in.data()), int(expected.size()));
            out.resize(expected.size());
            ASSERT_TRUE(sameInts(out, expected));
        }
    }
    EXPECT_EQ(SC::Shared::compact(0, nullptr, nullptr), 0);
    EXPECT_THROW(SC::Shared::compact(-5, nullptr, nullptr), std::invalid_argument);
    int x = 1;
    EXPECT_THROW(SC::Shared::compact(1, nullptr, &x), std::invalid_argument);
}

TEST(GpuShared, RejectsBadArgumentsBeforeTouchingMemory) {
    SKIP_WITHOUT_GPU();
    const std::size_t n = 4096;  // needs temporary storage at every block size's tiles
    DeviceBuffer<int> buffer(n), count(1);
    DeviceBuffer<char> temp(SC::Shared::scan_temp_bytes(n));
    ASSERT_GT(temp.bytes(), 0u);
    EXPECT_THROW(SC::Shared::exclusive_scan(nullptr, buffer.get(), n, temp.get(), temp.bytes()), std::invalid_argument);
    EXPECT_THROW(SC::Shared::exclusive_scan(buffer.get(), nullptr, n, temp.get(), temp.bytes()), std::invalid_argument);
    EXPECT_THROW(SC::Shared::exclusive_scan(buffer.get(), buffer.get(), n, nullptr, 0), std::invalid_argument);
    EXPECT_THROW(SC::Shared::exclusive_scan(buffer.get(), buffer.get(), n, temp.get(), temp.bytes() - 1),
                 std::invalid_argument);
    EXPECT_NO_THROW(SC::Shared::exclusive_scan(nullptr, nullptr, 0, nullptr, 0));

    DeviceBuffer<char> ctemp(SC::Shared::compact_temp_bytes(n));
    EXPECT_THROW(SC::Shared::compact(nullptr, buffer.get(), count.get(), n, ctemp.get(), ctemp.bytes()),
                 std::invalid_argument);
    EXPECT_THROW(SC::Shared::compact(buffer.get(), buffer.get(), nullptr, n, ctemp.get(), ctemp.bytes()),
                 std::invalid_argument);
    EXPECT_THROW(SC::Shared::compact(buffer.get(), buffer.get(), count.get(), n, ctemp.get(), ctemp.bytes() - 1),
                 std::invalid_argument);
    EXPECT_THROW(SC::Shared::compact(buffer.get(), buffer.get(), count.get(), std::size_t(INT_MAX) + 1, ctemp.get(),
                                     ctemp.bytes()),
                 std::length_error);
    // n = 0 writes a zero count and nothing else.
    count.fill_bytes(kPoisonByte);
    EXPECT_NO_THROW(SC::Shared::compact(nullptr, nullptr, count.get(), 0, nullptr, 0));
    int kept = -1;
    count.copy_to_host(&kept, 1);
    EXPECT_EQ(kept, 0);

    BlockSizeGuard guard;
    SC::block_sizes().shared = 48;
    EXPECT_THROW(SC::Shared::exclusive_scan(buffer.get(), buffer.get(), n, temp.get(), temp.bytes()),
                 std::invalid_argument);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Sizes that fill the GPU: kept apart so that the sanitizer runs can leave them out.
TEST(GpuLarge, SharedScanAndCompactAtTensOfMillions) {
    SKIP_WITHOUT_GPU();
    for (std::size_t n : {(std::size_t(1) << 24) + 1, std::size_t(1) << 26}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> in = fastInput(n, freshSeed());
        ASSERT_TRUE(sameInts(sharedScan(in), cpuScan(in)));
        const std::vector<int> sparse = fastInput(n, freshSeed(), true);
        const std::vector<int> expected = cpuCompact(sparse);
        const CompactResult r = sharedCompact(sparse);
        ASSERT_EQ(r.count, int(expected.size()));
        ASSERT_TRUE(sameInts(r.kept, expected));
    }
}

// tile^2 +- 1 at 256 and 1024 threads (2^24 and 2^28 items): one and two levels of tile sums.
TEST(GpuLarge, SharedScanRecursionAtLargeBlocks) {
    SKIP_WITHOUT_GPU();
    BlockSizeGuard guard;
    for (int threads : {256, 1024}) {
        SC::block_sizes().shared = threads;
        const std::size_t square = tileOf(threads) * tileOf(threads);
        for (std::size_t n : {square - 1, square + 1}) {
            SCOPED_TRACE("block size " + std::to_string(threads) + ", n = " + std::to_string(n));
            const std::vector<int> in = fastInput(n, freshSeed());
            ASSERT_TRUE(sameInts(sharedScanInPlace(in, 0), cpuScan(in)));
        }
    }
}

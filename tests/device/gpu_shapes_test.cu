// Every public primitive at element sizes of 4, 8, 12, 16 and 48 bytes (where the type is allowed:
// scans, selections and segmented scans and reductions take any trivially copyable type; radix
// sort keys are 4 bytes and its values 4 or 8; SpMV is float or double) and at block sizes 32 ...
// 1024 (a call's Tuning; the classic radix sort, a course unit, by StreamCompaction::set_block_size,
// which the fixture restores).
//
// Contract, per configuration: either it runs correctly, or it throws std::invalid_argument before
// any work where a documented limit excuses it (robustness::documentedRefusal: the kernel's threads
// per block or the device's shared memory per block, with the numbers that exceed it; never at the
// default block size nor for 4-byte elements); then its outputs are untouched and the CUDA context
// still works (a small scan right after is right). A launch failure (cuda_error), a refusal no
// limit excuses, a wrong result or a broken context fails, naming the configuration.
#include <gtest/gtest.h>

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/radix.h>
#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/tuning/block_sizes.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using namespace robustness;

namespace {

constexpr std::size_t kN = 100003;
constexpr int kBlockSizes[] = {32, 64, 128, 256, 512, 1024};

// Words of unsigned: 12, 16 and 48 bytes. Sum: word by word, wrapping (exact, associative).
template <int Words>
struct Wide {
    unsigned w[Words];
    bool operator==(const Wide &o) const { return std::memcmp(w, o.w, sizeof w) == 0; }
};
using Bytes12 = Wide<3>;
using Bytes16 = Wide<4>;
using Bytes48 = Wide<12>;
static_assert(sizeof(Bytes12) == 12 && sizeof(Bytes16) == 16 && sizeof(Bytes48) == 48, "element sizes");

struct Plus {
    template <class T>
    __host__ __device__ T operator()(const T &a, const T &b) const {
        if constexpr (std::is_arithmetic_v<T>) {
            return a + b;
        } else {
            T r;
            for (int i = 0; i < int(sizeof(T) / sizeof(unsigned)); ++i) r.w[i] = a.w[i] + b.w[i];
            return r;
        }
    }
};

template <class T>
__host__ __device__ unsigned firstWord(const T &x) {
    if constexpr (std::is_arithmetic_v<T>) return static_cast<unsigned>(x);
    else return x.w[0];
}

struct FirstWordEven {
    template <class T>
    __host__ __device__ bool operator()(const T &x) const { return (firstWord(x) & 1u) == 0; }
};

template <class T>
T zero() {
    T z;
    std::memset(&z, 0, sizeof z);
    return z;
}

template <class T>
T seven() {
    if constexpr (std::is_arithmetic_v<T>) return T(7);
    else {
        T s;
        for (unsigned &x : s.w) x = 7;
        return s;
    }
}

template <class T>
std::vector<T> randomElements(std::size_t n, std::mt19937 &rng) {
    std::vector<T> v(n);
    for (T &x : v) {
        if constexpr (std::is_arithmetic_v<T>) x = static_cast<T>(static_cast<int>(rng() % 2001) - 1000);
        else
            for (unsigned &word : x.w) word = static_cast<unsigned>(rng());
    }
    return v;
}

template <class T>
const char *typeName() {
    if constexpr (std::is_same_v<T, int>) return "int (4 bytes)";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "int64 (8 bytes)";
    else if constexpr (std::is_same_v<T, Bytes12>) return "12-byte struct";
    else if constexpr (std::is_same_v<T, Bytes16>) return "16-byte struct";
    else return "48-byte struct";
}

// Transform-scan functors: items loaded from and stored to arrays.
template <class T>
struct LoadFrom {
    const T *in;
    __device__ T operator()(std::size_t i) const { return in[i]; }
};
template <class T>
struct StoreTo {
    T *out;
    __device__ void operator()(std::size_t i, const T &x) const { out[i] = x; }
};

class GpuShapes : public RobustGpuTest {};

// Judges one configuration; on a failure that broke the context, fails fatally (every later
// configuration would fail for that reason alone): callers stop on HasFatalFailure().
// A refusal that follows the contract passes, and is printed, so that the log shows what was
// refused where.
template <class Run, class Untouched>
void expectRunsOrRefuses(const Configuration &c, Run run, Untouched untouched) {
    const ::testing::AssertionResult judged = runsOrRefusesCleanly(c, run, untouched);
    EXPECT_TRUE(judged) << c.what << " at block size " << c.threads;
    if (judged && std::string(judged.message()).rfind("refused", 0) == 0)
        std::printf("[ REFUSED  ] %s at block size %d: %s\n", c.what.c_str(), c.threads, judged.message());
    if (!judged && !contextHealthy()) FAIL() << "the CUDA context is broken: stopping here";
}

// Loops a check over every block size; `check(tuning)` judges one configuration at `tuning`: every
// family at that block size, the radix sort's capped at its most, 512 (as set_block_size caps it).
template <class Check>
void everyBlockSize(Check check) {
    for (const int threads : kBlockSizes) {
        SC::Tuning tuning;
        tuning.single_pass = threads;
        tuning.radix = std::min(threads, 512);
        tuning.segmented = threads;
        tuning.reduce = threads;
        SCOPED_TRACE("block size " + std::to_string(threads));
        check(tuning);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// ---- scans ----

template <class T>
void checkScans() {
    SCOPED_TRACE(typeName<T>());
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        for (const bool exclusive : {true, false}) {
            SCOPED_TRACE(exclusive ? "exclusive_scan" : "inclusive_scan");
            const std::vector<T> in = randomElements<T>(n, rng);
            DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
            d_out.fill_bytes(kPoisonByte);
            DeviceBuffer<char> temp(SC::scan_temp_bytes<T>(n));
            expectRunsOrRefuses(
                configurationAt(std::string(typeName<T>()) + (exclusive ? ", exclusive_scan" : ", inclusive_scan"),
                                sizeof(T), tuning, &SC::Tuning::single_pass),
                [&] {
                    if (exclusive)
                        SC::exclusive_scan(d_in.get(), d_out.get(), n, Plus{}, seven<T>(), temp.get(), temp.bytes(),
                                           testEnv(tuning));
                    else SC::inclusive_scan(d_in.get(), d_out.get(), n, Plus{}, temp.get(), temp.bytes(), testEnv(tuning));
                    SC_CUDA_CHECK(cudaDeviceSynchronize());
                    return sameElements(download(d_out.get(), n), exclusive ? referenceExclusiveScan(in, Plus{}, seven<T>())
                                                                            : referenceInclusiveScan(in, Plus{}));
                },
                [&] { return stillPoisoned(d_out.get(), d_out.bytes()); });
            if (::testing::Test::HasFatalFailure()) return;
        }
    });
}

template <class T>
void checkTransformScan() {
    SCOPED_TRACE(typeName<T>());
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        const std::vector<T> in = randomElements<T>(n, rng);
        DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
        d_out.fill_bytes(kPoisonByte);
        DeviceBuffer<char> temp(SC::scan_temp_bytes<T>(n));
        expectRunsOrRefuses(
            configurationAt(std::string(typeName<T>()) + ", transform_inclusive_scan", sizeof(T),
                            tuning, &SC::Tuning::single_pass),
            [&] {
                SC::transform_inclusive_scan<T>(n, LoadFrom<T>{d_in.get()}, StoreTo<T>{d_out.get()}, Plus{}, temp.get(),
                                                temp.bytes(), testEnv(tuning));
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                return sameElements(download(d_out.get(), n), referenceInclusiveScan(in, Plus{}));
            },
            [&] { return stillPoisoned(d_out.get(), d_out.bytes()); });
    });
}

// ---- selections ----

template <class T>
void checkSelection(Selection selection) {
    SCOPED_TRACE(std::string(typeName<T>()) + ", " + selectionName(selection));
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        const std::vector<T> in = randomElements<T>(n, rng);
        const std::vector<std::uint8_t> flags = randomFlags(n, rng, 3);
        DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
        DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(flags.data(), n);
        DeviceBuffer<std::size_t> d_count(1);
        d_out.fill_bytes(kPoisonByte);
        d_count.fill_bytes(kPoisonByte);
        DeviceBuffer<char> temp(SC::select_temp_bytes<T>(n));
        expectRunsOrRefuses(
            configurationAt(std::string(typeName<T>()) + ", " + selectionName(selection), sizeof(T),
                            tuning, &SC::Tuning::single_pass),
            [&]() -> ::testing::AssertionResult {
                switch (selection) {
                case Selection::If:
                    SC::select_if(d_in.get(), d_out.get(), d_count.get(), n, FirstWordEven{}, temp.get(), temp.bytes(),
                                  testEnv(tuning));
                    break;
                case Selection::Flagged:
                    SC::select_flagged(d_in.get(), d_flags.get(), d_out.get(), d_count.get(), n, temp.get(), temp.bytes(),
                                       testEnv(tuning));
                    break;
                case Selection::StablePartition:
                    SC::stable_partition(d_in.get(), d_out.get(), d_count.get(), n, FirstWordEven{}, temp.get(),
                                         temp.bytes(), testEnv(tuning));
                    break;
                case Selection::Partition:
                    SC::partition(d_in.get(), d_out.get(), d_count.get(), n, FirstWordEven{}, temp.get(), temp.bytes(),
                                  testEnv(tuning));
                    break;
                }
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                std::size_t kept = 0;
                const auto keep = [&](std::size_t i) {
                    return selection == Selection::Flagged ? flags[i] != 0 : FirstWordEven{}(in[i]);
                };
                const std::vector<T> expected = selection == Selection::Partition
                                                    ? referencePartition(in, keep, kept)
                                                    : referenceStablePartition(in, keep, kept);
                const std::size_t count = download(d_count.get(), 1)[0];
                if (count != kept) return ::testing::AssertionFailure() << "count " << count << ", expected " << kept;
                if (selection == Selection::StablePartition || selection == Selection::Partition)
                    return sameElements(download(d_out.get(), n), expected);
                return sameElements(download(d_out.get(), kept), std::vector<T>(expected.begin(), expected.begin() + kept));
            },
            [&] { return stillPoisoned(d_out.get(), d_out.bytes()) && stillPoisoned(d_count.get(), d_count.bytes()); });
    });
}

// ---- segmented scans and reduction ----

template <class T>
void checkSegmentedScans() {
    SCOPED_TRACE(typeName<T>());
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        const std::vector<T> in = randomElements<T>(n, rng);
        const std::vector<int> offsets = randomOffsets(n, n / 30, rng);
        const std::vector<std::uint8_t> flags = flagsFromOffsets(offsets);
        const std::size_t segments = offsets.size() - 1;
        DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
        DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(flags.data(), n);
        DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
        DeviceBuffer<char> temp(SC::segmented_scan_temp_bytes<T>(n));
        for (const bool by_offsets : {false, true}) {
            for (const bool exclusive : {false, true}) {
                SCOPED_TRACE(std::string("segmented ") + (exclusive ? "exclusive" : "inclusive") +
                             (by_offsets ? " scan by offsets" : " scan by flags"));
                d_out.fill_bytes(kPoisonByte);
                expectRunsOrRefuses(
                    configurationAt(std::string(typeName<T>()) + ", segmented " + (exclusive ? "exclusive" : "inclusive") +
                                        (by_offsets ? " scan by offsets" : " scan by flags"),
                                    sizeof(T), tuning, &SC::Tuning::single_pass),
                    [&] {
                        if (by_offsets && exclusive)
                            SC::segmented_exclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments, d_out.get(),
                                                                    Plus{}, seven<T>(), temp.get(), temp.bytes(),
                                                                    testEnv(tuning));
                        else if (by_offsets)
                            SC::segmented_inclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments, d_out.get(),
                                                                    Plus{}, temp.get(), temp.bytes(), testEnv(tuning));
                        else if (exclusive)
                            SC::segmented_exclusive_scan(d_in.get(), d_flags.get(), d_out.get(), n, Plus{}, seven<T>(),
                                                         temp.get(), temp.bytes(), testEnv(tuning));
                        else
                            SC::segmented_inclusive_scan(d_in.get(), d_flags.get(), d_out.get(), n, Plus{}, temp.get(),
                                                         temp.bytes(), testEnv(tuning));
                        SC_CUDA_CHECK(cudaDeviceSynchronize());
                        return sameElements(download(d_out.get(), n),
                                            referenceSegmentedScan(in, flags, Plus{}, exclusive, exclusive ? seven<T>() : zero<T>()));
                    },
                    [&] { return stillPoisoned(d_out.get(), d_out.bytes()); });
                if (::testing::Test::HasFatalFailure()) return;
            }
        }
    });
}

template <class T>
void checkSegmentedReduce() {
    SCOPED_TRACE(typeName<T>());
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        const std::vector<T> in = randomElements<T>(n, rng);
        const std::vector<int> offsets = randomOffsets(n, n / 30, rng);
        const std::size_t segments = offsets.size() - 1;
        DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(segments);
        DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
        DeviceBuffer<char> temp(SC::segmented_reduce_temp_bytes<T>(n, segments));
        for (const auto engine : {SC::SegmentedReduceAlgorithm::MergePath, SC::SegmentedReduceAlgorithm::ItemTiles}) {
            d_out.fill_bytes(kPoisonByte);
            expectRunsOrRefuses(
                configurationAt(std::string(typeName<T>()) + ", segmented_reduce on " +
                                    SC::segmented_reduce_algorithm_name(engine),
                                sizeof(T), tuning, &SC::Tuning::segmented),
                [&] {
                    SC::segmented_reduce(d_in.get(), n, d_offsets.get(), segments, d_out.get(), Plus{}, zero<T>(),
                                         temp.get(), temp.bytes(), testEnv(tuning), engine);
                    SC_CUDA_CHECK(cudaDeviceSynchronize());
                    return sameElements(download(d_out.get(), segments),
                                        referenceSegmentedReduce(in, offsets, Plus{}, zero<T>()));
                },
                [&] { return stillPoisoned(d_out.get(), d_out.bytes()); });
        }
    });
}

// ---- radix sorts ----

template <class Key>
std::vector<Key> randomKeys(std::size_t n, std::mt19937 &rng) {
    std::vector<Key> keys(n);
    for (Key &k : keys) {
        if constexpr (std::is_same_v<Key, float>) k = std::uniform_real_distribution<float>(-1e6f, 1e6f)(rng);
        else k = static_cast<Key>(rng());
    }
    return keys;
}

template <class Key>
const char *keyName() {
    return std::is_same_v<Key, float> ? "float keys" : std::is_same_v<Key, int> ? "int keys" : "unsigned keys";
}

template <class Key>
void checkRadixKeys() {
    SCOPED_TRACE(keyName<Key>());
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        std::vector<Key> keys = randomKeys<Key>(n, rng);
        DeviceBuffer<Key> d_in = DeviceBuffer<Key>::from_host(keys.data(), n), d_out(n);
        d_out.fill_bytes(kPoisonByte);
        DeviceBuffer<char> temp(SC::radix_sort_temp_bytes<Key>(n, testEnv(tuning)));
        expectRunsOrRefuses(
            configurationAt(std::string(keyName<Key>()) + ", radix_sort_keys", sizeof(Key), tuning, &SC::Tuning::radix),
            [&] {
                SC::radix_sort_keys(d_in.get(), d_out.get(), n, temp.get(), temp.bytes(), testEnv(tuning));
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                std::sort(keys.begin(), keys.end());
                return sameElements(download(d_out.get(), n), keys);
            },
            [&] { return stillPoisoned(d_out.get(), d_out.bytes()); });
    });
}

template <class Value>
void checkRadixPairs() {
    SCOPED_TRACE(std::to_string(sizeof(Value)) + "-byte values");
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        std::vector<int> keys(n);
        for (int &k : keys) k = static_cast<int>(rng() % 4096) - 2048;  // many equal keys: stability shows
        std::vector<Value> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<Value>(i);
        DeviceBuffer<int> d_keys = DeviceBuffer<int>::from_host(keys.data(), n), d_keys_out(n);
        DeviceBuffer<Value> d_values = DeviceBuffer<Value>::from_host(values.data(), n), d_values_out(n);
        d_keys_out.fill_bytes(kPoisonByte);
        d_values_out.fill_bytes(kPoisonByte);
        DeviceBuffer<char> temp(SC::radix_sort_temp_bytes<int, Value>(n, testEnv(tuning)));
        expectRunsOrRefuses(
            configurationAt(std::to_string(sizeof(Value)) + "-byte values, radix_sort_pairs",
                            std::max(sizeof(int), sizeof(Value)), tuning, &SC::Tuning::radix),
            [&]() -> ::testing::AssertionResult {
                SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), d_values.get(), d_values_out.get(), n, temp.get(),
                                     temp.bytes(), testEnv(tuning));
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                std::vector<std::size_t> order(n);
                std::iota(order.begin(), order.end(), std::size_t(0));
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
                std::vector<int> sorted_keys(n);
                std::vector<Value> sorted_values(n);
                for (std::size_t i = 0; i < n; ++i) {
                    sorted_keys[i] = keys[order[i]];
                    sorted_values[i] = values[order[i]];
                }
                ::testing::AssertionResult same = sameElements(download(d_keys_out.get(), n), sorted_keys, "keys");
                if (!same) return same;
                return sameElements(download(d_values_out.get(), n), sorted_values, "values");
            },
            [&] {
                return stillPoisoned(d_keys_out.get(), d_keys_out.bytes()) &&
                       stillPoisoned(d_values_out.get(), d_values_out.bytes());
            });
    });
}

}  // namespace

// The judgement of a refusal, on the library's own messages (detail/host/launch.cpp): needs no
// device. A refusal naming a limit used to pass wherever it came, int at the default 256 threads
// included.
TEST(GpuShapesRefusal, OnlyDocumentedLimitsExcuseARefusal) {
    constexpr long long kOptin = 232448;  // an H100's shared memory per block, opted in
    const std::string threadsOver = "scan: block size 1024 is over this kernel's limit of 512 threads (its registers "
                                    "per thread); use a smaller block size";
    const std::string sharedOver = "select_if: 240000 bytes of shared memory per block (1024 threads) are over the "
                                   "device's limit of 232448 bytes; use a smaller block size";
    const Configuration wide1024{"48-byte struct, select_if", 48, 1024, 256};
    EXPECT_TRUE(documentedRefusal(wide1024, threadsOver, kOptin));
    EXPECT_TRUE(documentedRefusal(wide1024, sharedOver, kOptin));

    // Never at the default block size, nor for 4-byte elements, whatever the message.
    const ::testing::AssertionResult atDefault =
        documentedRefusal(Configuration{"48-byte struct, select_if", 48, 256, 256}, sharedOver, kOptin);
    EXPECT_FALSE(atDefault);
    EXPECT_NE(std::string(atDefault.message()).find("48-byte struct, select_if at block size 256"), std::string::npos)
        << atDefault.message();
    EXPECT_FALSE(documentedRefusal(Configuration{"int (4 bytes), exclusive_scan", 4, 1024, 256}, threadsOver, kOptin));
    EXPECT_FALSE(documentedRefusal(Configuration{"float keys, radix_sort_keys", 4, 128, 512}, sharedOver, kOptin));

    // The stated numbers must exceed the limit, and the shared memory limit must be this device's.
    EXPECT_FALSE(documentedRefusal(wide1024, "scan: block size 512 is over this kernel's limit of 512 threads", kOptin));
    EXPECT_FALSE(documentedRefusal(wide1024, sharedOver, 101376));  // another device's limit
    EXPECT_FALSE(documentedRefusal(
        wide1024, "select_if: 1000 bytes of shared memory per block (1024 threads) are over the device's limit of 232448 bytes",
        kOptin));
    // A message that names a limit without stating it no longer passes.
    EXPECT_FALSE(documentedRefusal(wide1024, "select_if: too many registers for this block size", kOptin));
}

TEST_F(GpuShapes, ExclusiveAndInclusiveScan) {
    checkScans<int>();
    checkScans<std::int64_t>();
    checkScans<Bytes12>();
    checkScans<Bytes16>();
    checkScans<Bytes48>();
}

TEST_F(GpuShapes, TransformInclusiveScan) {
    checkTransformScan<int>();
    checkTransformScan<std::int64_t>();
    checkTransformScan<Bytes12>();
    checkTransformScan<Bytes16>();
    checkTransformScan<Bytes48>();
}

TEST_F(GpuShapes, SelectIf) {
    checkSelection<int>(Selection::If);
    checkSelection<std::int64_t>(Selection::If);
    checkSelection<Bytes12>(Selection::If);
    checkSelection<Bytes16>(Selection::If);
    checkSelection<Bytes48>(Selection::If);
}

TEST_F(GpuShapes, SelectFlagged) {
    checkSelection<int>(Selection::Flagged);
    checkSelection<std::int64_t>(Selection::Flagged);
    checkSelection<Bytes12>(Selection::Flagged);
    checkSelection<Bytes16>(Selection::Flagged);
    checkSelection<Bytes48>(Selection::Flagged);
}

TEST_F(GpuShapes, StablePartition) {
    checkSelection<int>(Selection::StablePartition);
    checkSelection<std::int64_t>(Selection::StablePartition);
    checkSelection<Bytes12>(Selection::StablePartition);
    checkSelection<Bytes16>(Selection::StablePartition);
    checkSelection<Bytes48>(Selection::StablePartition);
}

TEST_F(GpuShapes, Partition) {
    checkSelection<int>(Selection::Partition);
    checkSelection<std::int64_t>(Selection::Partition);
    checkSelection<Bytes12>(Selection::Partition);
    checkSelection<Bytes16>(Selection::Partition);
    checkSelection<Bytes48>(Selection::Partition);
}

TEST_F(GpuShapes, SegmentedScansByFlagsAndOffsets) {
    checkSegmentedScans<int>();
    checkSegmentedScans<std::int64_t>();
    checkSegmentedScans<Bytes12>();
    checkSegmentedScans<Bytes16>();
    checkSegmentedScans<Bytes48>();
}

TEST_F(GpuShapes, SegmentedReduce) {
    checkSegmentedReduce<int>();
    checkSegmentedReduce<std::int64_t>();
    checkSegmentedReduce<Bytes12>();
    checkSegmentedReduce<Bytes16>();
    checkSegmentedReduce<Bytes48>();
}

TEST_F(GpuShapes, RadixSortKeys) {
    checkRadixKeys<int>();
    checkRadixKeys<unsigned>();
    checkRadixKeys<float>();
}

TEST_F(GpuShapes, RadixSortPairs) {
    checkRadixPairs<std::uint32_t>();
    checkRadixPairs<std::int64_t>();
}

TEST_F(GpuShapes, ClassicRadixSort) {
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        SC::set_block_size(tuning.single_pass);  // a course unit: it runs the course's block sizes
        std::vector<int> keys = randomKeys<int>(n, rng);
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(keys.data(), n), d_out(n), d_alternate(n);
        d_out.fill_bytes(kPoisonByte);
        DeviceBuffer<char> temp(SC::Radix::classic_sort_temp_bytes(n));
        expectRunsOrRefuses(
            configurationAt("classic radix sort (stable partitions of int)", sizeof(int), SC::course_tuning(),
                            &SC::Tuning::single_pass),
            [&] {
                SC::Radix::classic_sort_keys(d_in.get(), d_out.get(), d_alternate.get(), n, temp.get(), temp.bytes());
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                std::sort(keys.begin(), keys.end());
                return sameElements(download(d_out.get(), n), keys);
            },
            [&] { return stillPoisoned(d_out.get(), d_out.bytes()); });
    });
}

// Segment conversions (their element types are lengths and flags, not values): every block size.
TEST_F(GpuShapes, MakeFlagsAndFlagsToOffsets) {
    const std::size_t n = kN;
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        const std::vector<int> offsets = randomOffsets(n, n / 9, rng);
        const std::size_t segments = offsets.size() - 1;
        std::vector<int> shape(segments);
        for (std::size_t k = 0; k < segments; ++k) shape[k] = offsets[k + 1] - offsets[k];
        const std::vector<std::uint8_t> heads = flagsFromOffsets(offsets);
        DeviceBuffer<int> d_shape = DeviceBuffer<int>::from_host(shape.data(), segments);
        DeviceBuffer<std::uint8_t> d_flags(n);
        d_flags.fill_bytes(kPoisonByte);
        DeviceBuffer<char> temp(SC::make_flags_temp_bytes(segments));
        SCOPED_TRACE("make_flags");
        expectRunsOrRefuses(
            configurationAt("make_flags (a scan of std::size_t)", sizeof(std::size_t), tuning, &SC::Tuning::single_pass),
            [&] {
                SC::make_flags(d_shape.get(), segments, d_flags.get(), n, temp.get(), temp.bytes(), testEnv(tuning));
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                return sameElements(download(d_flags.get(), n), heads);
            },
            [&] { return stillPoisoned(d_flags.get(), d_flags.bytes()); });
        if (::testing::Test::HasFatalFailure()) return;

        SCOPED_TRACE("flags_to_offsets");
        std::vector<long long> expected;
        for (std::size_t i = 0; i < n; ++i)
            if (i == 0 || heads[i]) expected.push_back(static_cast<long long>(i));
        expected.push_back(static_cast<long long>(n));
        DeviceBuffer<std::uint8_t> d_heads = DeviceBuffer<std::uint8_t>::from_host(heads.data(), n);
        DeviceBuffer<long long> d_offsets(n + 1);
        DeviceBuffer<std::size_t> d_segments(1);
        d_offsets.fill_bytes(kPoisonByte);
        d_segments.fill_bytes(kPoisonByte);
        DeviceBuffer<char> scratch(SC::flags_to_offsets_temp_bytes(n));
        expectRunsOrRefuses(
            configurationAt("flags_to_offsets (a scan of std::size_t)", sizeof(std::size_t),
                            tuning, &SC::Tuning::single_pass),
            [&]() -> ::testing::AssertionResult {
                SC::flags_to_offsets(d_heads.get(), n, d_offsets.get(), d_segments.get(), scratch.get(), scratch.bytes(),
                                     testEnv(tuning));
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                const std::size_t count = download(d_segments.get(), 1)[0];
                if (count + 1 != expected.size())
                    return ::testing::AssertionFailure() << count << " segments, expected " << expected.size() - 1;
                return sameElements(download(d_offsets.get(), count + 1), expected);
            },
            [&] {
                return stillPoisoned(d_offsets.get(), d_offsets.bytes()) &&
                       stillPoisoned(d_segments.get(), d_segments.bytes());
            });
    });
}

namespace {

template <class V>
void checkSpmv(SC::SpmvAlgorithm algorithm) {
    SCOPED_TRACE(std::string(SC::spmv_algorithm_name(algorithm)) + (std::is_same_v<V, float> ? ", float" : ", double"));
    const SC::CsrMatrix<V> host = SC::convert_values<V>(SC::power_law(20011, 20011, 1.3, 2, freshSeed()));
    const SC::DeviceCsr<V> matrix(host);
    std::mt19937 rng(freshSeed());
    everyBlockSize([&](const SC::Tuning &tuning) {
        std::vector<V> x(host.cols);
        for (V &v : x) v = std::uniform_real_distribution<V>(-1, 1)(rng);
        DeviceBuffer<V> d_x = DeviceBuffer<V>::from_host(x.data(), x.size()), d_y(host.rows);
        d_y.fill_bytes(kPoisonByte);
        expectRunsOrRefuses(
            configurationAt(std::string(SC::spmv_algorithm_name(algorithm)) +
                                (std::is_same_v<V, float> ? " SpMV, float" : " SpMV, double"),
                            sizeof(V),
                            tuning,
                            algorithm == SC::SpmvAlgorithm::MergePath ? &SC::Tuning::segmented : &SC::Tuning::single_pass),
            [&] {
                SC::Spmv<V> multiply(matrix, algorithm, testEnv(tuning));  // planned at this block size
                multiply(V(1), d_x.get(), V(0), d_y.get(), testEnv(tuning));
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                std::vector<double> expected(host.rows), magnitude(host.rows);
                for (int r = 0; r < host.rows; ++r) {
                    for (int k = host.row_offsets[r]; k < host.row_offsets[r + 1]; ++k) {
                        const double product = double(host.values[k]) * double(x[host.column_indices[k]]);
                        expected[r] += product;
                        magnitude[r] += std::fabs(product);
                    }
                }
                return closeTo(download(d_y.get(), host.rows), expected, magnitude,
                               std::is_same_v<V, float> ? 1e-5 : 1e-12, "y");
            },
            [&] { return stillPoisoned(d_y.get(), d_y.bytes()); });
    });
}

}  // namespace

TEST_F(GpuShapes, Spmv) {
    for (const SC::SpmvAlgorithm algorithm : {SC::SpmvAlgorithm::Flat, SC::SpmvAlgorithm::MergePath}) {
        checkSpmv<float>(algorithm);
        if (HasFatalFailure()) return;
        checkSpmv<double>(algorithm);
        if (HasFatalFailure()) return;
    }
}

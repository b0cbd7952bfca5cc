// Temporary storage at any alignment, and user data not aligned to 16 bytes.
//
// Contract: every *_temp_bytes(n) consumer works with exactly that many bytes starting at any
// address (the library aligns inside the buffer; the size query includes the slack), with no
// exception, and writes nothing outside them. Each test below runs with the storage carved at a
// byte offset of 0, 1, 4 and 8 past a 256-byte boundary (the test parameter), between poisoned
// guard bytes that must survive. Spmv's overload with caller storage (Spmv::temp_bytes()) is
// among them.
//
// Data pointers one int past their allocations (4-byte but not 16-byte aligned) must work too,
// for the scans and the selections, at every storage offset.
//
// A misaligned access on the device is a sticky error that breaks the CUDA context: under ctest
// every (test, offset) pair runs in its own process, so one failure does not hide the others.
#include <gtest/gtest.h>

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/device/segmented_scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/radix.h>
#include <stream_compaction/device/spmv.cuh>
#include <stream_compaction/support/call_environment.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using SC::DeviceBuffer;
using namespace robustness;

namespace {

// One tile, a few tiles, and many.
const std::size_t kSizes[] = {1, 1000, 100003};

constexpr std::size_t kGuardBytes = 256;

// `bytes` of storage starting `offset` bytes past a 256-byte boundary (cudaMalloc's alignment),
// with poisoned guard bytes before (the offset's) and after (kGuardBytes).
class CarvedStorage {
public:
    CarvedStorage(std::size_t bytes, std::size_t offset)
        : buffer_(offset + bytes + kGuardBytes), bytes_(bytes), offset_(offset) {
        buffer_.fill_bytes(kPoisonByte);
    }
    void *get() const { return buffer_.get() + offset_; }
    std::size_t bytes() const { return bytes_; }

    ::testing::AssertionResult guardsIntact() const {
        std::vector<unsigned char> all(buffer_.size());
        SC_CUDA_CHECK(cudaMemcpy(all.data(), buffer_.get(), all.size(), cudaMemcpyDeviceToHost));
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (i >= offset_ && i < offset_ + bytes_) continue;
            if (all[i] != kPoisonByte)
                return ::testing::AssertionFailure()
                       << "wrote outside the " << bytes_ << " bytes of temporary storage it was given: byte "
                       << (i < offset_ ? "-" : "+") << (i < offset_ ? offset_ - i : i - offset_ - bytes_)
                       << (i < offset_ ? " before them" : " past their end");
        }
        return ::testing::AssertionSuccess();
    }

private:
    DeviceBuffer<char> buffer_;
    std::size_t bytes_, offset_;
};

class GpuAlignment : public RobustGpuTest, public ::testing::WithParamInterface<std::size_t> {
protected:
    std::size_t offset() const { return GetParam(); }
};

// Runs `launch(d_temp, bytes)`, synchronizes, checks the guards; exceptions become failures
// naming the offset (the contract: no exception).
template <class Launch>
::testing::AssertionResult runCarved(std::size_t bytes, std::size_t offset, Launch launch) {
    CarvedStorage temp(bytes, offset);
    try {
        launch(temp.get(), temp.bytes());
        SC_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception &e) {
        return ::testing::AssertionFailure() << "temporary storage at byte offset " << offset << " (" << bytes
                                             << " bytes): " << e.what();
    }
    return temp.guardsIntact();
}

template <class T>
std::vector<T> randomOf(std::size_t n, std::mt19937 &rng) {
    if constexpr (std::is_same_v<T, double>) return randomIntegralDoubles(n, rng);
    else return randomInts(n, rng);
}

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

struct NegateLoad {
    const int *in;
    __device__ int operator()(std::size_t i) const { return -in[i]; }
};
struct ArrayStore {
    int *out;
    __device__ void operator()(std::size_t i, const int &x) const { out[i] = x; }
};

template <class T>
void checkScans(std::size_t offset, const std::vector<std::size_t> &sizes = {std::begin(kSizes), std::end(kSizes)},
                const SC::Tuning &tuning = {}) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : sizes) {
        for (const bool exclusive : {true, false}) {
            SCOPED_TRACE("n = " + std::to_string(n) + (exclusive ? ", exclusive" : ", inclusive"));
            const std::vector<T> in = randomOf<T>(n, rng);
            DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
            d_out.fill_bytes(kPoisonByte);
            ASSERT_TRUE(runCarved(SC::scan_temp_bytes<T>(n), offset, [&](void *temp, std::size_t bytes) {
                if (exclusive)
                    SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, T(3), temp, bytes, testEnv(tuning));
                else SC::inclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, temp, bytes, testEnv(tuning));
            }));
            ASSERT_TRUE(sameElements(download(d_out.get(), n), exclusive ? referenceExclusiveScan(in, SC::Sum{}, T(3))
                                                                         : referenceInclusiveScan(in, SC::Sum{})));
        }
    }
}

bool writesEveryElement(Selection s) { return s == Selection::StablePartition || s == Selection::Partition; }

// One selection on data `data_offset` elements past their allocations' starts.
void checkSelection(Selection selection, std::size_t offset, std::size_t data_offset) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE(std::string(selectionName(selection)) + ", n = " + std::to_string(n));
        const std::vector<int> in = randomInts(n, rng);
        const std::vector<std::uint8_t> flags = randomFlags(n, rng, 3);
        std::vector<int> padded(data_offset, 0);
        padded.insert(padded.end(), in.begin(), in.end());
        std::vector<std::uint8_t> padded_flags(data_offset, 0);
        padded_flags.insert(padded_flags.end(), flags.begin(), flags.end());
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(padded.data(), padded.size()), d_out(n + data_offset);
        DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(padded_flags.data(), padded.size());
        DeviceBuffer<std::size_t> d_count(1);
        d_out.fill_bytes(kPoisonByte);
        d_count.fill_bytes(kPoisonByte);
        int *in_ptr = d_in.get() + data_offset, *out_ptr = d_out.get() + data_offset;
        ASSERT_TRUE(runCarved(SC::select_temp_bytes<int>(n), offset, [&](void *temp, std::size_t bytes) {
            switch (selection) {
            case Selection::If:
                SC::select_if(in_ptr, out_ptr, d_count.get(), n, IsOdd{}, temp, bytes, testEnv());
                break;
            case Selection::Flagged:
                SC::select_flagged(in_ptr, d_flags.get() + data_offset, out_ptr, d_count.get(), n, temp, bytes,
                                   testEnv());
                break;
            case Selection::StablePartition:
                SC::stable_partition(in_ptr, out_ptr, d_count.get(), n, IsOdd{}, temp, bytes, testEnv());
                break;
            case Selection::Partition:
                SC::partition(in_ptr, out_ptr, d_count.get(), n, IsOdd{}, temp, bytes, testEnv());
                break;
            }
        }));
        std::size_t kept = 0;
        const auto keep = [&](std::size_t i) {
            return selection == Selection::Flagged ? flags[i] != 0 : IsOdd{}(in[i]);
        };
        const std::vector<int> expected = selection == Selection::Partition ? referencePartition(in, keep, kept)
                                                                            : referenceStablePartition(in, keep, kept);
        const std::size_t count = download(d_count.get(), 1)[0];
        ASSERT_EQ(count, kept);
        if (writesEveryElement(selection)) ASSERT_TRUE(sameElements(download(out_ptr, n), expected));
        else ASSERT_TRUE(sameElements(download(out_ptr, kept), std::vector<int>(expected.begin(), expected.begin() + kept)));
    }
}

std::string offsetName(const ::testing::TestParamInfo<std::size_t> &info) {
    return "Offset" + std::to_string(info.param);
}

}  // namespace

TEST_P(GpuAlignment, ScanInt) { checkScans<int>(offset()); }
TEST_P(GpuAlignment, ScanDouble) { checkScans<double>(offset()); }
// Past the fixed-order look-back's first span (1024 tiles of 256 doubles at 32 threads a block).
TEST_P(GpuAlignment, ScanDoubleAcrossSpans) {
    checkScans<double>(offset(), {300007}, tuningWith(&SC::Tuning::single_pass, 32));
}

TEST_P(GpuAlignment, TransformInclusiveScan) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> in = randomInts(n, rng);
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(in.data(), n), d_out(n);
        d_out.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::scan_temp_bytes<int>(n), offset(), [&](void *temp, std::size_t bytes) {
            SC::transform_inclusive_scan<int>(n, NegateLoad{d_in.get()}, ArrayStore{d_out.get()}, SC::Sum{}, temp, bytes,
                                              testEnv());
        }));
        std::vector<int> negated(n);
        std::transform(in.begin(), in.end(), negated.begin(), [](int x) { return -x; });
        ASSERT_TRUE(sameElements(download(d_out.get(), n), referenceInclusiveScan(negated, SC::Sum{})));
    }
}

TEST_P(GpuAlignment, SelectIf) { checkSelection(Selection::If, offset(), 0); }
TEST_P(GpuAlignment, SelectFlagged) { checkSelection(Selection::Flagged, offset(), 0); }
TEST_P(GpuAlignment, StablePartition) { checkSelection(Selection::StablePartition, offset(), 0); }
TEST_P(GpuAlignment, Partition) { checkSelection(Selection::Partition, offset(), 0); }

namespace {

// Keys drawn by draw(rng), sorted with the caller's storage at `offset`.
template <class Key, class Draw>
void checkRadixKeys(std::size_t offset, Draw draw) {
    std::mt19937_64 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        std::vector<Key> keys(n);
        for (Key &k : keys) k = draw(rng);
        DeviceBuffer<Key> d_in = DeviceBuffer<Key>::from_host(keys.data(), n), d_out(n);
        d_out.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::radix_sort_temp_bytes<Key>(n), offset, [&](void *temp, std::size_t bytes) {
            SC::radix_sort_keys(d_in.get(), d_out.get(), n, temp, bytes);
        }));
        std::sort(keys.begin(), keys.end());
        ASSERT_TRUE(sameElements(download(d_out.get(), n), keys));
    }
}

// Pairs sorted as `order` says (the keys' compared bits: an int's with the sign bit flipped), with
// the caller's storage at `offset`.
void checkRadixPairs(const SC::RadixSortOrder &order, std::size_t offset) {
    const unsigned mask = SC::radix_compared_bits(order, "test");
    const auto compared = [mask](int key) { return (static_cast<unsigned>(key) ^ 0x80000000u) & mask; };
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        std::vector<int> keys(n);
        for (int &k : keys) k = static_cast<int>(rng() % 1000) - 500;  // many equal keys: stability shows
        std::vector<std::int64_t> values(n);
        std::iota(values.begin(), values.end(), std::int64_t(1) << 40);
        DeviceBuffer<int> d_keys = DeviceBuffer<int>::from_host(keys.data(), n), d_keys_out(n);
        DeviceBuffer<std::int64_t> d_values = DeviceBuffer<std::int64_t>::from_host(values.data(), n), d_values_out(n);
        d_keys_out.fill_bytes(kPoisonByte);
        d_values_out.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::radix_sort_temp_bytes<int, std::int64_t>(n), offset,
                              [&](void *temp, std::size_t bytes) {
                                  SC::radix_sort_pairs(d_keys.get(), d_keys_out.get(), d_values.get(),
                                                       d_values_out.get(), n, temp, bytes, order);
                              }));
        std::vector<std::size_t> sorted_order(n);
        std::iota(sorted_order.begin(), sorted_order.end(), std::size_t(0));
        std::stable_sort(sorted_order.begin(), sorted_order.end(), [&](std::size_t a, std::size_t b) {
            return order.descending ? compared(keys[a]) > compared(keys[b]) : compared(keys[a]) < compared(keys[b]);
        });
        std::vector<int> sorted_keys(n);
        std::vector<std::int64_t> sorted_values(n);
        for (std::size_t i = 0; i < n; ++i) {
            sorted_keys[i] = keys[sorted_order[i]];
            sorted_values[i] = values[sorted_order[i]];
        }
        ASSERT_TRUE(sameElements(download(d_keys_out.get(), n), sorted_keys, "keys"));
        ASSERT_TRUE(sameElements(download(d_values_out.get(), n), sorted_values, "values"));
    }
}

}  // namespace

TEST_P(GpuAlignment, RadixSortKeys) {
    checkRadixKeys<unsigned>(offset(), [](std::mt19937_64 &rng) { return static_cast<unsigned>(rng()); });
}

// 64-bit keys (eight digit passes, their own plan and layout): doubles of both signs, and 8-byte
// integers, whose tiles hold more keys a thread (kRadixItemsPerThread).
TEST_P(GpuAlignment, RadixSortSixtyFourBitKeys) {
    std::uniform_real_distribution<double> value(-1e6, 1e6);
    checkRadixKeys<double>(offset(), [&](std::mt19937_64 &rng) { return value(rng); });
    if (::testing::Test::HasFatalFailure()) return;
    checkRadixKeys<std::int64_t>(offset(), [](std::mt19937_64 &rng) { return static_cast<std::int64_t>(rng()); });
}

TEST_P(GpuAlignment, RadixSortPairs) { checkRadixPairs(SC::RadixSortOrder{}, offset()); }
TEST_P(GpuAlignment, RadixSortPairsDescendingOnABitRange) { checkRadixPairs(SC::RadixSortOrder{true, 2, 9}, offset()); }

// The course unit's classic sort (radix.h) takes caller storage too.
TEST_P(GpuAlignment, ClassicRadixSort) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        std::vector<int> keys(n);
        for (int &k : keys) k = static_cast<int>(rng());
        DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(keys.data(), n), d_out(n), d_alternate(n);
        d_out.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::Radix::classic_sort_temp_bytes(n), offset(), [&](void *temp, std::size_t bytes) {
            SC::Radix::classic_sort_keys(d_in.get(), d_out.get(), d_alternate.get(), n, temp, bytes);
        }));
        std::sort(keys.begin(), keys.end());
        ASSERT_TRUE(sameElements(download(d_out.get(), n), keys));
    }
}

namespace {

// Segmented scans by flags and by offsets, inclusive and exclusive, of int (status packed with its
// tag) and double (16-byte pairs: the head rides in the tag).
template <class T>
void checkSegmentedScans(std::size_t offset, bool by_offsets) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        const std::vector<int> offsets = randomOffsets(n, std::max<std::size_t>(1, n / 10), rng);
        const std::vector<std::uint8_t> flags = flagsFromOffsets(offsets);
        const std::vector<T> in = randomOf<T>(n, rng);
        DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(n);
        DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(flags.data(), n);
        DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
        const std::size_t segments = offsets.size() - 1;
        for (const bool exclusive : {false, true}) {
            SCOPED_TRACE("n = " + std::to_string(n) + (exclusive ? ", exclusive" : ", inclusive"));
            d_out.fill_bytes(kPoisonByte);
            ASSERT_TRUE(runCarved(SC::segmented_scan_temp_bytes<T>(n), offset, [&](void *temp, std::size_t bytes) {
                if (by_offsets && exclusive)
                    SC::segmented_exclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments, d_out.get(),
                                                            SC::Sum{}, T(2), temp, bytes);
                else if (by_offsets)
                    SC::segmented_inclusive_scan_by_offsets(d_in.get(), n, d_offsets.get(), segments, d_out.get(),
                                                            SC::Sum{}, temp, bytes);
                else if (exclusive)
                    SC::segmented_exclusive_scan(d_in.get(), d_flags.get(), d_out.get(), n, SC::Sum{}, T(2), temp,
                                                 bytes);
                else SC::segmented_inclusive_scan(d_in.get(), d_flags.get(), d_out.get(), n, SC::Sum{}, temp, bytes);
            }));
            ASSERT_TRUE(sameElements(download(d_out.get(), n),
                                     referenceSegmentedScan(in, flags, SC::Sum{}, exclusive, exclusive ? T(2) : T(0))));
        }
    }
}

template <class T>
void checkSegmentedReduce(std::size_t offset) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> offsets = randomOffsets(n, std::max<std::size_t>(1, n / 10), rng);
        const std::size_t segments = offsets.size() - 1;
        const std::vector<T> in = randomOf<T>(n, rng);
        DeviceBuffer<T> d_in = DeviceBuffer<T>::from_host(in.data(), n), d_out(segments);
        DeviceBuffer<int> d_offsets = DeviceBuffer<int>::from_host(offsets.data(), offsets.size());
        for (const auto engine : {SC::SegmentedReduceAlgorithm::MergePath, SC::SegmentedReduceAlgorithm::ItemTiles}) {
            SCOPED_TRACE(SC::segmented_reduce_algorithm_name(engine));
            d_out.fill_bytes(kPoisonByte);
            ASSERT_TRUE(runCarved(SC::segmented_reduce_temp_bytes<T>(n, segments), offset, [&](void *temp, std::size_t bytes) {
                SC::segmented_reduce(d_in.get(), n, d_offsets.get(), segments, d_out.get(), SC::Sum{}, T(0), temp, bytes,
                                     0, engine);
            }));
            ASSERT_TRUE(sameElements(download(d_out.get(), segments), referenceSegmentedReduce(in, offsets, SC::Sum{}, T(0))));
        }
    }
}

}  // namespace

TEST_P(GpuAlignment, SegmentedScansByFlagsInt) { checkSegmentedScans<int>(offset(), false); }
TEST_P(GpuAlignment, SegmentedScansByFlagsDouble) { checkSegmentedScans<double>(offset(), false); }
TEST_P(GpuAlignment, SegmentedScansByOffsetsInt) { checkSegmentedScans<int>(offset(), true); }
TEST_P(GpuAlignment, SegmentedScansByOffsetsDouble) { checkSegmentedScans<double>(offset(), true); }
TEST_P(GpuAlignment, SegmentedReduceInt) { checkSegmentedReduce<int>(offset()); }
TEST_P(GpuAlignment, SegmentedReduceDouble) { checkSegmentedReduce<double>(offset()); }

TEST_P(GpuAlignment, MakeFlags) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<int> offsets = randomOffsets(n, std::max<std::size_t>(1, n / 7), rng);
        const std::size_t segments = offsets.size() - 1;
        std::vector<int> shape(segments);
        for (std::size_t k = 0; k < segments; ++k) shape[k] = offsets[k + 1] - offsets[k];
        DeviceBuffer<int> d_shape = DeviceBuffer<int>::from_host(shape.data(), segments);
        DeviceBuffer<std::uint8_t> d_flags(n);
        d_flags.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::make_flags_temp_bytes(segments), offset(), [&](void *temp, std::size_t bytes) {
            SC::make_flags(d_shape.get(), segments, d_flags.get(), n, temp, bytes);
        }));
        ASSERT_TRUE(sameElements(download(d_flags.get(), n), flagsFromOffsets(offsets)));
    }
}

TEST_P(GpuAlignment, FlagsToOffsets) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<std::uint8_t> flags = randomFlags(n, rng, 5);
        std::vector<int> expected;
        for (std::size_t i = 0; i < n; ++i)
            if (i == 0 || flags[i]) expected.push_back(static_cast<int>(i));
        expected.push_back(static_cast<int>(n));
        DeviceBuffer<std::uint8_t> d_flags = DeviceBuffer<std::uint8_t>::from_host(flags.data(), n);
        DeviceBuffer<int> d_offsets(n + 1);
        DeviceBuffer<std::size_t> d_segments(1);
        d_offsets.fill_bytes(kPoisonByte);
        ASSERT_TRUE(runCarved(SC::flags_to_offsets_temp_bytes(n), offset(), [&](void *temp, std::size_t bytes) {
            SC::flags_to_offsets(d_flags.get(), n, d_offsets.get(), d_segments.get(), temp, bytes);
        }));
        const std::size_t segments = download(d_segments.get(), 1)[0];
        ASSERT_EQ(segments + 1, expected.size());
        ASSERT_TRUE(sameElements(download(d_offsets.get(), segments + 1), expected));
    }
}

namespace {

// y = A x with the caller's temporary storage, float, on a matrix of many tiles.
void checkSpmv(SC::SpmvAlgorithm algorithm, std::size_t offset) {
    SCOPED_TRACE(SC::spmv_algorithm_name(algorithm));
    const SC::CsrMatrix<float> host = SC::convert_values<float>(SC::power_law(30011, 30011, 1.3, 2, freshSeed()));
    const SC::DeviceCsr<float> matrix(host);
    const SC::Spmv<float> multiply(matrix, algorithm);
    std::mt19937 rng(freshSeed());
    const std::vector<float> x = randomFloats(host.cols, rng);
    DeviceBuffer<float> d_x = DeviceBuffer<float>::from_host(x.data(), x.size()), d_y(host.rows);
    d_y.fill_bytes(0xFF);  // NaN: beta = 0 must not read it
    ASSERT_TRUE(runCarved(multiply.temp_bytes(), offset, [&](void *temp, std::size_t bytes) {
        multiply(1.0f, d_x.get(), 0.0f, d_y.get(), temp, bytes);
    }));
    std::vector<double> expected(host.rows), magnitude(host.rows);
    for (int r = 0; r < host.rows; ++r)
        for (int k = host.row_offsets[r]; k < host.row_offsets[r + 1]; ++k) {
            const double product = double(host.values[k]) * x[host.column_indices[k]];
            expected[r] += product;
            magnitude[r] += std::fabs(product);
        }
    ASSERT_TRUE(closeTo(download(d_y.get(), host.rows), expected, magnitude, 1e-5, "y"));
}

}  // namespace

TEST_P(GpuAlignment, SpmvFlatCallerStorage) { checkSpmv(SC::SpmvAlgorithm::Flat, offset()); }
TEST_P(GpuAlignment, SpmvMergePathCallerStorage) { checkSpmv(SC::SpmvAlgorithm::MergePath, offset()); }
TEST_P(GpuAlignment, SpmvVectorCsrCallerStorage) { checkSpmv(SC::SpmvAlgorithm::VectorCsr, offset()); }
TEST_P(GpuAlignment, SpmvAutoCallerStorage) { checkSpmv(SC::SpmvAlgorithm::Auto, offset()); }

// ---- user data one int past its allocation (4-byte, not 16-byte aligned) ----

TEST_P(GpuAlignment, ScanOfUnalignedData) {
    std::mt19937 rng(freshSeed());
    for (const std::size_t n : kSizes) {
        for (const bool exclusive : {true, false}) {
            SCOPED_TRACE("n = " + std::to_string(n) + (exclusive ? ", exclusive" : ", inclusive"));
            const std::vector<int> in = randomInts(n, rng);
            std::vector<int> padded{0};
            padded.insert(padded.end(), in.begin(), in.end());
            DeviceBuffer<int> d_in = DeviceBuffer<int>::from_host(padded.data(), n + 1), d_out(n + 1);
            d_out.fill_bytes(kPoisonByte);
            ASSERT_TRUE(runCarved(SC::scan_temp_bytes<int>(n), offset(), [&](void *temp, std::size_t bytes) {
                if (exclusive)
                    SC::exclusive_scan(d_in.get() + 1, d_out.get() + 1, n, SC::Sum{}, -4, temp, bytes, testEnv());
                else SC::inclusive_scan(d_in.get() + 1, d_out.get() + 1, n, SC::Sum{}, temp, bytes, testEnv());
            }));
            ASSERT_TRUE(sameElements(download(d_out.get() + 1, n), exclusive ? referenceExclusiveScan(in, SC::Sum{}, -4)
                                                                             : referenceInclusiveScan(in, SC::Sum{})));
            ASSERT_TRUE(stillPoisoned(d_out.get(), sizeof(int))) << "wrote before the output";
        }
    }
}

TEST_P(GpuAlignment, SelectIfOfUnalignedData) { checkSelection(Selection::If, offset(), 1); }
TEST_P(GpuAlignment, SelectFlaggedOfUnalignedData) { checkSelection(Selection::Flagged, offset(), 1); }
TEST_P(GpuAlignment, StablePartitionOfUnalignedData) { checkSelection(Selection::StablePartition, offset(), 1); }
TEST_P(GpuAlignment, PartitionOfUnalignedData) { checkSelection(Selection::Partition, offset(), 1); }

INSTANTIATE_TEST_SUITE_P(TemporaryStorage, GpuAlignment, ::testing::Values(std::size_t(0), std::size_t(1), std::size_t(4), std::size_t(8)),
                         offsetName);

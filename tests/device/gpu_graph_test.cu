// CUDA graph capture and replay of every primitive on the single-pass (decoupled look-back)
// machinery, and of the sorts: one call is captured on a non-default stream (in the default,
// global capture mode, with its buffers and temporary storage allocated before), instantiated,
// and replayed several times; before each replay new random inputs are written into the same
// device buffers and the outputs are poisoned (stream-ordered, outside the graph), after it the
// results are compared with the CPU. A replay repeats the captured launch parameters exactly, so
// whatever a call decides on the host per launch (a look-back epoch, say) is frozen in the graph:
// the contract is that replays are still right. Sizes span many tiles.
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
#include <climits>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

constexpr std::size_t kN = 1000003;      // about 250 tiles of the default scan, 16 of 32 threads' more
constexpr std::size_t kSegments = 50021;  // mean length 20, some empty

struct IsEven {
    __host__ __device__ bool operator()(int x) const { return (x & 1) == 0; }
};

// Device functors of the transform scan: items 3 * in[i], results stored plus one.
struct TripleLoad {
    const int *in;
    __device__ int operator()(std::size_t i) const { return 3 * in[i]; }
};
struct PlusOneStore {
    int *out;
    __device__ void operator()(std::size_t i, const int &scanned) const { out[i] = scanned + 1; }
};

class GpuGraph : public RobustGpuTest {};

template <class T>
std::vector<T> randomValues(std::size_t n, std::mt19937 &rng) {
    if constexpr (std::is_same_v<T, double>) return randomIntegralDoubles(n, rng);
    else return randomInts(n, rng);
}

template <class T>
void checkScanReplays(bool exclusive, std::size_t n = kN, const SC::Tuning &tuning = {}) {
    DeviceArena arena;
    T *d_in = arena.make<T>(n);
    T *d_out = arena.make<T>(n);
    const std::size_t bytes = SC::scan_temp_bytes<T>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<T> in;
    const T init = T(7);
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            if (exclusive) SC::exclusive_scan(d_in, d_out, n, SC::Sum{}, init, d_temp, bytes, testEnv(s, tuning));
            else SC::inclusive_scan(d_in, d_out, n, SC::Sum{}, d_temp, bytes, testEnv(s, tuning));
        },
        [&](cudaStream_t s) {
            in = randomValues<T>(n, rng);
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(T));
        },
        [&] {
            return sameElements(download(d_out, n), exclusive ? referenceExclusiveScan(in, SC::Sum{}, init)
                                                              : referenceInclusiveScan(in, SC::Sum{}));
        });
}

}  // namespace

TEST_F(GpuGraph, ExclusiveScanInt) { checkScanReplays<int>(true); }
TEST_F(GpuGraph, InclusiveScanInt) { checkScanReplays<int>(false); }
TEST_F(GpuGraph, ExclusiveScanDouble) { checkScanReplays<double>(true); }
TEST_F(GpuGraph, InclusiveScanDouble) { checkScanReplays<double>(false); }
// One tile: the launch takes no ticket from the call state (call_state.cuh).
TEST_F(GpuGraph, OneTileScans) {
    checkScanReplays<int>(true, 1000);
    checkScanReplays<double>(false, 1000);
}
// The fixed-order look-back's span prefixes (one per 1024 tiles) replayed: 32-thread blocks cut
// kN doubles into about 3900 tiles, four spans.
TEST_F(GpuGraph, ExclusiveScanDoubleAcrossSpans) {
    checkScanReplays<double>(true, kN, tuningWith(&SC::Tuning::single_pass, 32));
}

// Replays and ordinary calls mixed on the same buffers and temporary storage: replay, replay,
// ordinary call, replay, ordinary call, replay.
TEST_F(GpuGraph, ReplaysInterleavedWithOrdinaryCalls) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    const std::size_t bytes = SC::scan_temp_bytes<int>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    Stream stream;
    GraphExec graph = captureGraph(stream, [&](cudaStream_t s) {
        SC::exclusive_scan(d_in, d_out, n, SC::Sum{}, 0, d_temp, bytes, testEnv(s));
    });
    const bool replays[] = {true, true, false, true, false, true};
    for (int round = 0; round < 6; ++round) {
        const bool replay = replays[round];
        SCOPED_TRACE(std::string(replay ? "replay" : "ordinary call") + ", round " + std::to_string(round));
        const std::vector<int> in = randomInts(n, rng);
        upload(stream.get(), d_in, in);
        poison(stream, d_out, n * sizeof(int));
        if (replay) graph.launch(stream);
        else SC::exclusive_scan(d_in, d_out, n, SC::Sum{}, 0, d_temp, bytes, testEnv(stream));
        const ::testing::AssertionResult finished = finishesWithin(stream, kReplaySeconds, "scan");
        if (deviceWedged()) {
            arena.abandon();
            graph.release();
            stream.release();
        }
        ASSERT_TRUE(finished);
        ASSERT_TRUE(sameElements(download(d_out, n), referenceExclusiveScan(in, SC::Sum{}, 0)));
    }
}

TEST_F(GpuGraph, TransformInclusiveScan) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    const std::size_t bytes = SC::scan_temp_bytes<int>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::transform_inclusive_scan<int>(n, TripleLoad{d_in}, PlusOneStore{d_out}, SC::Sum{}, d_temp, bytes,
                                              testEnv(s));
        },
        [&](cudaStream_t s) {
            in = randomInts(n, rng, -300, 300);
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(int));
        },
        [&] {
            std::vector<int> expected(n);
            int acc = 0;
            for (std::size_t i = 0; i < n; ++i) {
                acc += 3 * in[i];
                expected[i] = acc + 1;
            }
            return sameElements(download(d_out, n), expected);
        });
}

namespace {

void checkSelectReplays(Selection selection) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    std::uint8_t *d_flags = arena.make<std::uint8_t>(n);
    std::size_t *d_count = arena.make<std::size_t>(1);
    const std::size_t bytes = SC::select_temp_bytes<int>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    std::vector<std::uint8_t> flags;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            switch (selection) {
            case Selection::If: SC::select_if(d_in, d_out, d_count, n, IsEven{}, d_temp, bytes, testEnv(s)); break;
            case Selection::Flagged:
                SC::select_flagged(d_in, d_flags, d_out, d_count, n, d_temp, bytes, testEnv(s));
                break;
            case Selection::StablePartition:
                SC::stable_partition(d_in, d_out, d_count, n, IsEven{}, d_temp, bytes, testEnv(s));
                break;
            case Selection::Partition:
                SC::partition(d_in, d_out, d_count, n, IsEven{}, d_temp, bytes, testEnv(s));
                break;
            }
        },
        [&](cudaStream_t s) {
            in = randomInts(n, rng);
            flags = randomFlags(n, rng, 2 + rng() % 5);  // a different share kept each replay
            upload(s, d_in, in);
            upload(s, d_flags, flags);
            poison(s, d_out, n * sizeof(int));
            poison(s, d_count, sizeof(std::size_t));
        },
        [&]() -> ::testing::AssertionResult {
            std::size_t kept = 0;
            const auto keep = [&](std::size_t i) {
                return selection == Selection::Flagged ? flags[i] != 0 : IsEven{}(in[i]);
            };
            const std::vector<int> expected = selection == Selection::Partition
                                                  ? referencePartition(in, keep, kept)
                                                  : referenceStablePartition(in, keep, kept);
            const std::size_t count = download(d_count, 1)[0];
            if (count != kept) return ::testing::AssertionFailure() << "count " << count << ", expected " << kept;
            if (selection == Selection::StablePartition || selection == Selection::Partition)
                return sameElements(download(d_out, n), expected);
            return sameElements(download(d_out, kept), std::vector<int>(expected.begin(), expected.begin() + kept));
        });
}

}  // namespace

TEST_F(GpuGraph, SelectIf) { checkSelectReplays(Selection::If); }
TEST_F(GpuGraph, SelectFlagged) { checkSelectReplays(Selection::Flagged); }
TEST_F(GpuGraph, StablePartition) { checkSelectReplays(Selection::StablePartition); }
TEST_F(GpuGraph, Partition) { checkSelectReplays(Selection::Partition); }

// stable_partition chooses its order on the device from a sample of the keep flags: replays keep
// about 90% of the items and about 10% in turn, so the captured launches run each order.
TEST_F(GpuGraph, StablePartitionWhoseOrderChangesBetweenReplays) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    std::size_t *d_count = arena.make<std::size_t>(1);
    const std::size_t bytes = SC::select_temp_bytes<int>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in(n);
    const SC::LessThan<int> kept{50};
    int replay = 0;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::stable_partition(d_in, d_out, d_count, n, kept, d_temp, bytes, testEnv(s)); },
        [&](cudaStream_t s) {
            const int low = replay++ % 2 == 0 ? 0 : 45;  // [0, 56): 89% below 50; [45, 100): 9%
            for (int &x : in) x = low + static_cast<int>(rng() % 55);
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(int));
            poison(s, d_count, sizeof(std::size_t));
        },
        [&]() -> ::testing::AssertionResult {
            std::size_t trues = 0;
            const std::vector<int> expected = referenceStablePartition(in, [&](std::size_t i) { return kept(in[i]); },
                                                                       trues);
            const std::size_t count = download(d_count, 1)[0];
            if (count != trues) return ::testing::AssertionFailure() << "count " << count << ", expected " << trues;
            return sameElements(download(d_out, n), expected);
        });
}

TEST_F(GpuGraph, SegmentedInclusiveScanByFlags) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    std::uint8_t *d_flags = arena.make<std::uint8_t>(n);
    const std::size_t bytes = SC::segmented_scan_temp_bytes<int>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    std::vector<std::uint8_t> flags;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) { SC::segmented_inclusive_scan(d_in, d_flags, d_out, n, SC::Sum{}, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            in = randomInts(n, rng);
            flags = randomFlags(n, rng, 20);
            upload(s, d_in, in);
            upload(s, d_flags, flags);
            poison(s, d_out, n * sizeof(int));
        },
        [&] { return sameElements(download(d_out, n), referenceSegmentedScan(in, flags, SC::Sum{}, false, 0)); });
}

namespace {

// Cuts over the whole array on even replays; on odd ones every cut falls in the last 1000 items, so
// the first segment spans hundreds of tiles without a head. Floating-point values take the
// fixed-order look-back: the first shape waits on restarts, the second on its groups.
std::vector<int> replayOffsets(std::size_t n, std::size_t segments, std::mt19937 &rng, int replay) {
    return randomOffsets(n, segments, rng, replay % 2 == 0 ? 0 : n - 1000);
}

template <class T>
void checkSegmentedScanByOffsetsReplays() {
    const std::size_t n = kN, segments = kSegments;
    DeviceArena arena;
    T *d_in = arena.make<T>(n);
    T *d_out = arena.make<T>(n);
    int *d_offsets = arena.make<int>(segments + 1);
    const std::size_t bytes = SC::segmented_scan_temp_bytes<T>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<T> in;
    std::vector<int> offsets;
    int replay = 0;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::segmented_exclusive_scan_by_offsets(d_in, n, d_offsets, segments, d_out, SC::Sum{}, T(5), d_temp,
                                                    bytes, s);
        },
        [&](cudaStream_t s) {
            in = randomValues<T>(n, rng);
            offsets = replayOffsets(n, segments, rng, replay++);  // the same count, other places
            upload(s, d_in, in);
            upload(s, d_offsets, offsets);
            poison(s, d_out, n * sizeof(T));
        },
        [&] {
            return sameElements(download(d_out, n),
                                referenceSegmentedScan(in, flagsFromOffsets(offsets), SC::Sum{}, true, T(5)));
        });
}

// Every engine; ints take the maximum, doubles (integral, so exact in any order) the sum.
template <class T>
void checkSegmentedReduceReplays() {
    const std::size_t n = kN, segments = kSegments;
    DeviceArena arena;
    T *d_in = arena.make<T>(n);
    int *d_offsets = arena.make<int>(segments + 1);
    T *d_out = arena.make<T>(segments);
    const std::size_t bytes = SC::segmented_reduce_temp_bytes<T>(n, segments);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<T> in;
    std::vector<int> offsets;
    const auto reduce = [&](auto op, T identity, cudaStream_t s, SC::SegmentedReduceAlgorithm engine) {
        SC::segmented_reduce(d_in, n, d_offsets, segments, d_out, op, identity, d_temp, bytes, s, engine);
    };
    for (const auto engine : {SC::SegmentedReduceAlgorithm::MergePath, SC::SegmentedReduceAlgorithm::ItemTiles}) {
        SCOPED_TRACE(SC::segmented_reduce_algorithm_name(engine));
        int replay = 0;
        captureAndReplay(
            arena,
            [&](cudaStream_t s) {
                if constexpr (std::is_same_v<T, int>) reduce(SC::Max{}, INT_MIN, s, engine);
                else reduce(SC::Sum{}, T(0), s, engine);
            },
            [&](cudaStream_t s) {
                in = randomValues<T>(n, rng);
                offsets = replayOffsets(n, segments, rng, replay++);
                upload(s, d_in, in);
                upload(s, d_offsets, offsets);
                poison(s, d_out, segments * sizeof(T));
            },
            [&] {
                if constexpr (std::is_same_v<T, int>)
                    return sameElements(download(d_out, segments), referenceSegmentedReduce(in, offsets, SC::Max{}, INT_MIN));
                else
                    return sameElements(download(d_out, segments), referenceSegmentedReduce(in, offsets, SC::Sum{}, T(0)));
            });
        if (::testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace

TEST_F(GpuGraph, SegmentedExclusiveScanByOffsets) { checkSegmentedScanByOffsetsReplays<int>(); }
TEST_F(GpuGraph, SegmentedExclusiveScanByOffsetsDouble) { checkSegmentedScanByOffsetsReplays<double>(); }
TEST_F(GpuGraph, SegmentedReduce) { checkSegmentedReduceReplays<int>(); }
TEST_F(GpuGraph, SegmentedReduceDouble) { checkSegmentedReduceReplays<double>(); }

TEST_F(GpuGraph, MakeFlags) {
    const std::size_t n = kN, segments = kSegments;
    DeviceArena arena;
    int *d_shape = arena.make<int>(segments);
    int *d_flags = arena.make<int>(n);
    const std::size_t bytes = SC::make_flags_temp_bytes(segments);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> offsets;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::make_flags(d_shape, segments, d_flags, n, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            offsets = randomOffsets(n, segments, rng);
            std::vector<int> shape(segments);
            for (std::size_t k = 0; k < segments; ++k) shape[k] = offsets[k + 1] - offsets[k];
            upload(s, d_shape, shape);
            poison(s, d_flags, n * sizeof(int));
        },
        [&] {
            const std::vector<std::uint8_t> heads = flagsFromOffsets(offsets);
            return sameElements(download(d_flags, n), std::vector<int>(heads.begin(), heads.end()));
        });
}

TEST_F(GpuGraph, FlagsToOffsets) {
    const std::size_t n = kN;
    DeviceArena arena;
    std::uint8_t *d_flags = arena.make<std::uint8_t>(n);
    long long *d_offsets = arena.make<long long>(n + 1);
    std::size_t *d_segments = arena.make<std::size_t>(1);
    const std::size_t bytes = SC::flags_to_offsets_temp_bytes(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<std::uint8_t> flags;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::flags_to_offsets(d_flags, n, d_offsets, d_segments, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            flags = randomFlags(n, rng, 3 + rng() % 30);  // another segment count each replay
            upload(s, d_flags, flags);
            poison(s, d_offsets, (n + 1) * sizeof(long long));
            poison(s, d_segments, sizeof(std::size_t));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<long long> expected;
            for (std::size_t i = 0; i < n; ++i)
                if (i == 0 || flags[i]) expected.push_back(static_cast<long long>(i));
            expected.push_back(static_cast<long long>(n));
            const std::size_t count = download(d_segments, 1)[0];
            if (count + 1 != expected.size())
                return ::testing::AssertionFailure() << count << " segments, expected " << expected.size() - 1;
            return sameElements(download(d_offsets, count + 1), expected);
        });
}

namespace {

// caller_storage: the overload with the caller's temporary storage; else the one that allocates
// its own per call (stream-ordered, so the graph holds the allocation).
void checkSpmvReplays(SC::SpmvAlgorithm algorithm, bool caller_storage) {
    SCOPED_TRACE(std::string(SC::spmv_algorithm_name(algorithm)) +
                 (caller_storage ? ", caller's storage" : ", storage allocated per call"));
    const SC::CsrMatrix<float> host = SC::convert_values<float>(SC::power_law(200003, 200003, 1.3, 2, freshSeed()));
    DeviceArena arena;
    const auto &matrix = arena.own(std::make_unique<SC::DeviceCsr<float>>(host));
    auto &multiply = arena.own(std::make_unique<SC::Spmv<float>>(matrix, algorithm));
    float *d_x = arena.make<float>(host.cols);
    float *d_y = arena.make<float>(host.rows);
    const std::size_t bytes = multiply.temp_bytes();
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    for (const bool axpby : {false, true}) {
        SCOPED_TRACE(axpby ? "y = 1.5 A x - 0.5 y" : "y = A x over NaN");
        const float alpha = axpby ? 1.5f : 1.0f, beta = axpby ? -0.5f : 0.0f;
        std::vector<float> x, y_old;
        captureAndReplay(
            arena,
            [&](cudaStream_t s) {
                if (caller_storage) multiply(alpha, d_x, beta, d_y, d_temp, bytes, s);
                else multiply(alpha, d_x, beta, d_y, s);
            },
            [&](cudaStream_t s) {
                x = randomFloats(host.cols, rng);
                y_old = randomFloats(host.rows, rng);
                upload(s, d_x, x);
                if (axpby) upload(s, d_y, y_old);
                else SC_CUDA_CHECK(cudaMemsetAsync(d_y, 0xFF, host.rows * sizeof(float), s));  // NaN
            },
            [&] {
                std::vector<double> expected(host.rows), magnitude(host.rows);
                for (int r = 0; r < host.rows; ++r) {
                    double sum = 0, size = 0;
                    for (int k = host.row_offsets[r]; k < host.row_offsets[r + 1]; ++k) {
                        const double product = double(host.values[k]) * x[host.column_indices[k]];
                        sum += product;
                        size += std::fabs(product);
                    }
                    const double old = axpby ? double(beta) * y_old[r] : 0.0;
                    expected[r] = alpha * sum + old;
                    magnitude[r] = std::fabs(alpha) * size + std::fabs(old);
                }
                return closeTo(download(d_y, host.rows), expected, magnitude, 1e-5, "y");
            });
        if (::testing::Test::HasFatalFailure()) return;
    }
}

}  // namespace

TEST_F(GpuGraph, SpmvFlatFloat) { checkSpmvReplays(SC::SpmvAlgorithm::Flat, false); }
TEST_F(GpuGraph, SpmvMergePathFloat) { checkSpmvReplays(SC::SpmvAlgorithm::MergePath, false); }
TEST_F(GpuGraph, SpmvFlatFloatCallerStorage) { checkSpmvReplays(SC::SpmvAlgorithm::Flat, true); }
TEST_F(GpuGraph, SpmvMergePathFloatCallerStorage) { checkSpmvReplays(SC::SpmvAlgorithm::MergePath, true); }
TEST_F(GpuGraph, SpmvVectorCsrFloat) { checkSpmvReplays(SC::SpmvAlgorithm::VectorCsr, false); }
TEST_F(GpuGraph, SpmvAutoFloatCallerStorage) { checkSpmvReplays(SC::SpmvAlgorithm::Auto, true); }

// The course unit's classic sort (radix.h): 32 stable_partitions, each a count, a copy and a
// single-pass partition pass, all in one graph.
TEST_F(GpuGraph, ClassicRadixSort) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    int *d_alternate = arena.make<int>(n);
    const std::size_t bytes = SC::Radix::classic_sort_temp_bytes(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) { SC::Radix::classic_sort_keys(d_in, d_out, d_alternate, n, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            in.resize(n);
            for (int &x : in) x = static_cast<int>(rng());
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(int));
            poison(s, d_alternate, n * sizeof(int));
        },
        [&] {
            std::vector<int> expected = in;
            std::sort(expected.begin(), expected.end());
            return sameElements(download(d_out, n), expected);
        });
}

TEST_F(GpuGraph, RadixSortKeys) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    const std::size_t bytes = SC::radix_sort_temp_bytes<int>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    int replay = 0;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::radix_sort_keys(d_in, d_out, n, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            // Full-range keys, then keys whose upper digits are all equal (the sort skips those
            // passes on the device: a replay must decide again, not reuse the last decision).
            in.resize(n);
            const unsigned mask = replay++ % 2 == 0 ? 0xffffffffu : 0xffffu;
            for (int &x : in) x = static_cast<int>(rng() & mask);
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(int));
        },
        [&] {
            std::vector<int> expected = in;
            std::sort(expected.begin(), expected.end());
            return sameElements(download(d_out, n), expected);
        });
}

// 64-bit keys: full-range ones, then ones whose upper six digits are all equal (six of the eight
// passes skipped on the device), replayed alternately.
TEST_F(GpuGraph, RadixSortSixtyFourBitKeys) {
    const std::size_t n = kN;
    DeviceArena arena;
    std::int64_t *d_in = arena.make<std::int64_t>(n);
    std::int64_t *d_out = arena.make<std::int64_t>(n);
    const std::size_t bytes = SC::radix_sort_temp_bytes<std::int64_t>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937_64 rng(freshSeed());
    std::vector<std::int64_t> in;
    int replay = 0;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::radix_sort_keys(d_in, d_out, n, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            in.resize(n);
            const std::uint64_t mask = replay++ % 2 == 0 ? ~std::uint64_t{0} : 0xffffu;
            for (std::int64_t &x : in) x = static_cast<std::int64_t>(rng() & mask);
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(std::int64_t));
        },
        [&] {
            std::vector<std::int64_t> expected = in;
            std::sort(expected.begin(), expected.end());
            return sameElements(download(d_out, n), expected);
        });
}

// A descending sort on bits [8, 24) of the keys, captured once: each replay sorts new keys the
// same way, stably (keys equal on those bits keep their input order).
TEST_F(GpuGraph, RadixSortKeysDescendingOnABitRange) {
    const std::size_t n = kN;
    const SC::RadixSortOrder order{true, 8, 24};
    DeviceArena arena;
    unsigned *d_in = arena.make<unsigned>(n);
    unsigned *d_out = arena.make<unsigned>(n);
    const std::size_t bytes = SC::radix_sort_temp_bytes<unsigned>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<unsigned> in;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::radix_sort_keys(d_in, d_out, n, d_temp, bytes, order, s); },
        [&](cudaStream_t s) {
            in.resize(n);
            for (unsigned &x : in) x = static_cast<unsigned>(rng());
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(unsigned));
        },
        [&] {
            std::vector<unsigned> expected = in;
            std::stable_sort(expected.begin(), expected.end(),
                             [](unsigned a, unsigned b) { return (a & 0xffff00u) > (b & 0xffff00u); });
            return sameElements(download(d_out, n), expected);
        });
}

TEST_F(GpuGraph, RadixSortPairsIsStable) {
    const std::size_t n = kN;
    DeviceArena arena;
    float *d_keys = arena.make<float>(n);
    float *d_keys_out = arena.make<float>(n);
    unsigned *d_values = arena.make<unsigned>(n);
    unsigned *d_values_out = arena.make<unsigned>(n);
    const std::size_t bytes = SC::radix_sort_temp_bytes<float, unsigned>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<float> keys;
    std::vector<unsigned> values(n);
    std::iota(values.begin(), values.end(), 0u);
    captureAndReplay(
        arena,
        [&](cudaStream_t s) { SC::radix_sort_pairs(d_keys, d_keys_out, d_values, d_values_out, n, d_temp, bytes, s); },
        [&](cudaStream_t s) {
            keys.resize(n);
            for (float &k : keys) k = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 8;  // many equal
            upload(s, d_keys, keys);
            upload(s, d_values, values);
            poison(s, d_keys_out, n * sizeof(float));
            poison(s, d_values_out, n * sizeof(unsigned));
        },
        [&]() -> ::testing::AssertionResult {
            std::vector<unsigned> order = values;
            std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
            std::vector<float> sorted(n);
            for (std::size_t i = 0; i < n; ++i) sorted[i] = keys[order[i]];
            ::testing::AssertionResult same = sameElements(download(d_keys_out, n), sorted, "keys");
            if (!same) return same;
            return sameElements(download(d_values_out, n), order, "values");
        });
}

// Two primitives in one graph, one after the other on one temporary buffer sized for both.
TEST_F(GpuGraph, ScanThenSelectShareTemporaryStorage) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_scanned = arena.make<int>(n);
    int *d_selected = arena.make<int>(n);
    std::size_t *d_count = arena.make<std::size_t>(1);
    const std::size_t bytes = std::max(SC::scan_temp_bytes<int>(n), SC::select_temp_bytes<int>(n));
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::exclusive_scan(d_in, d_scanned, n, SC::Sum{}, 0, d_temp, bytes, testEnv(s));
            SC::select_if(d_in, d_selected, d_count, n, IsEven{}, d_temp, bytes, testEnv(s));
        },
        [&](cudaStream_t s) {
            in = randomInts(n, rng);
            upload(s, d_in, in);
            poison(s, d_scanned, n * sizeof(int));
            poison(s, d_selected, n * sizeof(int));
            poison(s, d_count, sizeof(std::size_t));
        },
        [&]() -> ::testing::AssertionResult {
            ::testing::AssertionResult scanned =
                sameElements(download(d_scanned, n), referenceExclusiveScan(in, SC::Sum{}, 0), "scan");
            if (!scanned) return scanned;
            std::vector<int> expected;
            for (int x : in)
                if (IsEven{}(x)) expected.push_back(x);
            const std::size_t count = download(d_count, 1)[0];
            if (count != expected.size())
                return ::testing::AssertionFailure() << "select count " << count << ", expected " << expected.size();
            return sameElements(download(d_selected, count), expected, "select");
        });
}

// A segmented reduction, then the scan of its per-segment results (which reads what the
// reduction wrote), on one temporary buffer.
TEST_F(GpuGraph, SegmentedReduceThenScanShareTemporaryStorage) {
    const std::size_t n = kN, segments = kSegments;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_offsets = arena.make<int>(segments + 1);
    int *d_sums = arena.make<int>(segments);
    int *d_prefix = arena.make<int>(segments);
    const std::size_t bytes =
        std::max(SC::segmented_reduce_temp_bytes<int>(n, segments), SC::scan_temp_bytes<int>(segments));
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in, offsets;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::segmented_reduce(d_in, n, d_offsets, segments, d_sums, SC::Sum{}, 0, d_temp, bytes, s);
            SC::inclusive_scan(d_sums, d_prefix, segments, SC::Sum{}, d_temp, bytes, testEnv(s));
        },
        [&](cudaStream_t s) {
            in = randomInts(n, rng);
            offsets = randomOffsets(n, segments, rng);
            upload(s, d_in, in);
            upload(s, d_offsets, offsets);
            poison(s, d_sums, segments * sizeof(int));
            poison(s, d_prefix, segments * sizeof(int));
        },
        [&]() -> ::testing::AssertionResult {
            const std::vector<int> sums = referenceSegmentedReduce(in, offsets, SC::Sum{}, 0);
            ::testing::AssertionResult reduced = sameElements(download(d_sums, segments), sums, "segmented reduce");
            if (!reduced) return reduced;
            return sameElements(download(d_prefix, segments), referenceInclusiveScan(sums, SC::Sum{}), "scan");
        });
}

// The same capture in thread-local mode (what a caller uses when other threads keep working
// during its capture).
TEST_F(GpuGraph, ThreadLocalCaptureMode) {
    const std::size_t n = kN;
    DeviceArena arena;
    int *d_in = arena.make<int>(n);
    int *d_out = arena.make<int>(n);
    const std::size_t bytes = SC::scan_temp_bytes<int>(n);
    void *d_temp = arena.make<char>(bytes);
    std::mt19937 rng(freshSeed());
    std::vector<int> in;
    captureAndReplay(
        arena, [&](cudaStream_t s) { SC::inclusive_scan(d_in, d_out, n, SC::Max{}, d_temp, bytes, testEnv(s)); },
        [&](cudaStream_t s) {
            in = randomInts(n, rng);
            upload(s, d_in, in);
            poison(s, d_out, n * sizeof(int));
        },
        [&] { return sameElements(download(d_out, n), referenceInclusiveScan(in, SC::Max{})); },
        NothingBetween{}, cudaStreamCaptureModeThreadLocal);
}

// Load-balancing search and its transforms (device/load_balance.cuh) against CPU references, on
// uniform, power-law and degenerate segment sizes; graph replay, two streams, and bad offsets.
#include <stream_compaction/device/load_balance.cuh>
#include <stream_compaction/device/segmented_reduce.cuh>
#include <stream_compaction/load_balance.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

class GpuLoadBalance : public GpuTest {};

// Segment lengths: mean `mean` (uniform in [0, 2 mean]), or Pareto-distributed (a few huge
// segments among many small ones), or with runs of empty segments.
enum class Shape { Uniform, PowerLaw, EmptyRuns };

std::vector<int> makeLengths(std::size_t segments, int mean, Shape shape, std::mt19937 &rng) {
    std::vector<int> lengths(segments);
    std::uniform_int_distribution<int> uniform(0, 2 * mean);
    std::uniform_real_distribution<double> unit(1e-9, 1.0);
    for (std::size_t s = 0; s < segments; ++s) {
        switch (shape) {
        case Shape::Uniform: lengths[s] = uniform(rng); break;
        case Shape::PowerLaw: lengths[s] = static_cast<int>(std::min(1e6, std::floor(0.5 * mean * std::pow(unit(rng), -1.0 / 1.5)))); break;
        case Shape::EmptyRuns: lengths[s] = (s / 50) % 3 == 0 ? 0 : uniform(rng); break;
        }
    }
    return lengths;
}

// interval_move's destinations: the segments laid out back to back in a shuffled order, so that
// every output item is written once (scatter[s] = where segment s starts).
std::vector<long long> shuffledDestinations(const std::vector<int> &offsets, std::mt19937 &rng) {
    const std::size_t segments = offsets.size() - 1;
    std::vector<int> order(segments);
    for (std::size_t s = 0; s < segments; ++s) order[s] = static_cast<int>(s);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<long long> scatter(segments);
    long long place = 0;
    for (int s : order) {
        scatter[s] = place;
        place += offsets[s + 1] - offsets[s];
    }
    return scatter;
}

// The CPU references: the segment of every item, and each item's rank in it.
struct Expected {
    std::vector<long long> segment, rank;
};

template <class Offset>
Expected reference(const std::vector<Offset> &offsets) {
    Expected e;
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
        for (Offset i = offsets[s]; i < offsets[s + 1]; ++i) {
            e.segment.push_back(static_cast<long long>(s));
            e.rank.push_back(static_cast<long long>(i - offsets[s]));
        }
    return e;
}

// What transform_lbs gives f, written out: segment and rank of every item, and how often each
// item was visited (exactly once).
struct RecordItem {
    long long *segment, *rank;
    unsigned *visits;
    __device__ void operator()(long long index, long long segment_of, long long rank_of) const {
        segment[index] = segment_of;
        rank[index] = rank_of;
        atomicAdd(visits + index, 1u);
    }
};

// The cached form: the value passed is the segment's (here 3 s + 1).
struct SegmentTag {
    __device__ long long operator()(long long segment) const { return 3 * segment + 1; }
};
struct RecordWithValue {
    long long *segment, *value;
    __device__ void operator()(long long index, long long segment_of, long long, long long tag) const {
        segment[index] = segment_of;
        value[index] = tag;
    }
};

template <class Offset>
void checkTransforms(const std::vector<Offset> &offsets, cudaStream_t stream = 0) {
    const std::size_t segments = offsets.size() - 1, n = static_cast<std::size_t>(offsets.back());
    SCOPED_TRACE(std::to_string(segments) + " segments, " + std::to_string(n) + " items");
    const Expected expected = reference(offsets);
    DeviceArena arena;
    Offset *d_offsets = arena.make<Offset>(offsets.size());
    upload(stream, d_offsets, offsets);
    long long *d_segment = arena.make<long long>(n), *d_rank = arena.make<long long>(n);
    unsigned *d_visits = arena.make<unsigned>(n);
    if (n > 0) SC_CUDA_CHECK(cudaMemsetAsync(d_visits, 0, n * sizeof(unsigned), stream));
    SC::transform_lbs(RecordItem{d_segment, d_rank, d_visits}, n, d_offsets, segments, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_EQ(download(d_segment, n), expected.segment);
    EXPECT_EQ(download(d_rank, n), expected.rank);
    EXPECT_EQ(download(d_visits, n), std::vector<unsigned>(n, 1u));

    long long *d_value = arena.make<long long>(n);
    SC::transform_lbs(RecordWithValue{d_segment, d_value}, n, d_offsets, segments, SegmentTag{}, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<long long> tags(n);
    for (std::size_t i = 0; i < n; ++i) tags[i] = 3 * expected.segment[i] + 1;
    EXPECT_EQ(download(d_segment, n), expected.segment);
    EXPECT_EQ(download(d_value, n), tags);

    int *d_segment_of = arena.make<int>(n);
    SC::load_balancing_search(n, d_offsets, segments, d_segment_of, stream);
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_EQ(download(d_segment_of, n), std::vector<int>(expected.segment.begin(), expected.segment.end()));
}

TEST_F(GpuLoadBalance, EverySegmentShapeAndSize) {
    std::mt19937 rng(freshSeed());
    for (Shape shape : {Shape::Uniform, Shape::PowerLaw, Shape::EmptyRuns})
        for (std::size_t segments : {1u, 2u, 7u, 1000u, 4096u, 100003u})
            for (int mean : {0, 1, 3, 17, 300}) {
                if (segments * mean > 20000000u) continue;
                SCOPED_TRACE("shape " + std::to_string(static_cast<int>(shape)) + ", mean " + std::to_string(mean));
                checkTransforms(offsetsFromLengths(makeLengths(segments, mean, shape, rng)));
            }
}

TEST_F(GpuLoadBalance, DegenerateSegments) {
    checkTransforms(std::vector<int>{0});                                      // no segment, no item
    checkTransforms(std::vector<int>{0, 0, 0, 0});                             // empty segments only
    checkTransforms(std::vector<int>{0, 1});                                   // one item
    checkTransforms(std::vector<int>{0, 0, 0, 1, 1, 1});                       // one item among empties
    checkTransforms(std::vector<int>{0, 3000001});                             // one huge segment
    std::vector<int> lengths(20000, 0);                                        // one huge among many empty
    lengths[12345] = 1 << 21;
    checkTransforms(offsetsFromLengths(lengths));
    std::vector<int> ones(1 << 20, 1);                                         // as many segments as items
    checkTransforms(offsetsFromLengths(ones));
}

TEST_F(GpuLoadBalance, SixtyFourBitOffsets) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> small = offsetsFromLengths(makeLengths(5000, 40, Shape::PowerLaw, rng));
    checkTransforms(std::vector<long long>(small.begin(), small.end()));
    checkTransforms(std::vector<unsigned>(small.begin(), small.end()));
}

// transform_lbs_append's f: items whose index is a multiple of `every` make one new item, their
// segment and rank packed (and, with a segment value, its tag added).
struct MakeEvery {
    long long every;
    __device__ bool operator()(long long index, long long segment, long long rank, long long &made) const {
        made = segment * 1000000 + rank;
        return index % every == 0;
    }
    __device__ bool operator()(long long index, long long segment, long long rank, long long tag, long long &made) const {
        made = segment * 1000000 + rank + tag * 1000000000000;
        return index % every == 0;
    }
};

// Dynamic work creation: what transform_lbs_append makes, sorted, against the CPU's list; the count
// grows from where it was.
TEST_F(GpuLoadBalance, AppendMakesWhatFSays) {
    std::mt19937 rng(freshSeed());
    for (Shape shape : {Shape::Uniform, Shape::PowerLaw, Shape::EmptyRuns})
        for (long long every : {1LL, 3LL, 1LL << 40}) {  // all, a third, only item 0
            const std::vector<int> offsets = offsetsFromLengths(makeLengths(20000, 37, shape, rng));
            const std::size_t segments = offsets.size() - 1, n = static_cast<std::size_t>(offsets.back());
            SCOPED_TRACE("shape " + std::to_string(static_cast<int>(shape)) + ", every " + std::to_string(every));
            const Expected e = reference(offsets);
            for (bool tagged : {false, true}) {
                std::vector<long long> expected;
                for (std::size_t i = 0; i < n; i += every)
                    expected.push_back(e.segment[i] * 1000000 + e.rank[i] + (tagged ? (3 * e.segment[i] + 1) * 1000000000000 : 0));
                DeviceArena arena;
                int *d_offsets = arena.make<int>(offsets.size());
                upload(0, d_offsets, offsets);
                long long *d_made = arena.make<long long>(n + 5);
                unsigned *d_count = arena.make<unsigned>(1);
                const unsigned before = 5;  // the count is not reset: items go after what is there
                upload(0, d_count, std::vector<unsigned>{before});
                if (tagged) SC::transform_lbs_append(MakeEvery{every}, n, d_offsets, segments, SegmentTag{}, d_made, d_count);
                else SC::transform_lbs_append(MakeEvery{every}, n, d_offsets, segments, d_made, d_count);
                SC_CUDA_CHECK(cudaDeviceSynchronize());
                ASSERT_EQ(download(d_count, 1)[0], before + expected.size());
                std::vector<long long> made = download(d_made, n + 5);
                made.erase(made.begin(), made.begin() + before);
                made.resize(expected.size());
                std::sort(made.begin(), made.end());
                EXPECT_EQ(made, expected);
            }
        }
}

// transform_segmented_reduce's values: one that reads every argument (index, segment, rank), and
// the first and last item of a segment under a non-commutative operator (order kept), and an array's
// values (the same as segmented_reduce's).
struct IndexSegmentRank {
    __device__ long long operator()(long long index, long long segment, long long rank) const {
        return 3 * index + 1000 * segment - rank;
    }
};
struct FirstLast {
    long long first, last;
};
struct ItemFirstLast {
    __device__ FirstLast operator()(long long index, long long, long long) const { return {index, index}; }
};
struct KeepOuter {  // associative, not commutative
    __host__ __device__ FirstLast operator()(const FirstLast &a, const FirstLast &b) const { return {a.first, b.last}; }
};
struct ArrayValue {
    const int *values;
    __device__ int operator()(long long index, long long, long long) const { return values[index]; }
};

void checkSegmentedReduce(const std::vector<int> &offsets, std::mt19937 &rng) {
    const std::size_t segments = offsets.size() - 1, n = static_cast<std::size_t>(offsets.back());
    SCOPED_TRACE(std::to_string(segments) + " segments, " + std::to_string(n) + " items");
    const Expected e = reference(offsets);
    std::vector<long long> sums(segments, -7);  // -7: the identity, for empty segments
    std::vector<FirstLast> outer(segments, FirstLast{-1, -1});
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t s = static_cast<std::size_t>(e.segment[i]);
        const long long value = 3 * static_cast<long long>(i) + 1000 * e.segment[i] - e.rank[i];
        sums[s] = e.rank[i] == 0 ? value : sums[s] + value;
        outer[s] = {e.rank[i] == 0 ? static_cast<long long>(i) : outer[s].first, static_cast<long long>(i)};
    }
    DeviceArena arena;
    int *d_offsets = arena.make<int>(offsets.size());
    upload(0, d_offsets, offsets);
    const std::size_t bytes = std::max(SC::transform_segmented_reduce_temp_bytes<FirstLast>(n, segments),
                                       SC::segmented_reduce_temp_bytes<int>(n, segments));
    char *d_temp = arena.make<char>(bytes + 3) + 3;  // storage at an odd address
    long long *d_sums = arena.make<long long>(segments);
    FirstLast *d_outer = arena.make<FirstLast>(segments);
    if (segments > 0) SC_CUDA_CHECK(cudaMemset(d_sums, 0x5A, segments * sizeof(long long)));  // poison
    SC::transform_segmented_reduce(IndexSegmentRank{}, n, d_offsets, segments, d_sums, SC::Sum{}, -7LL, d_temp, bytes);
    SC::transform_segmented_reduce(ItemFirstLast{}, n, d_offsets, segments, d_outer, KeepOuter{}, FirstLast{-1, -1},
                                   d_temp, bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(download(d_sums, segments), sums);
    const std::vector<FirstLast> got = download(d_outer, segments);
    for (std::size_t s = 0; s < segments; ++s)
        ASSERT_TRUE(got[s].first == outer[s].first && got[s].last == outer[s].last)
            << "segment " << s << ": (" << got[s].first << ", " << got[s].last << "), expected (" << outer[s].first
            << ", " << outer[s].last << ")";

    // The cross-check: the same values through segmented_reduce's merge path.
    std::vector<int> values(n);
    for (int &v : values) v = static_cast<int>(rng() % 2001) - 1000;
    int *d_values = arena.make<int>(n), *d_lbs = arena.make<int>(segments), *d_merge_path = arena.make<int>(segments);
    upload(0, d_values, values);
    SC::transform_segmented_reduce(ArrayValue{d_values}, n, d_offsets, segments, d_lbs, SC::Max{}, INT_MIN, d_temp, bytes);
    SC::segmented_reduce(d_values, n, d_offsets, segments, d_merge_path, SC::Max{}, INT_MIN, d_temp, bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(download(d_lbs, segments), download(d_merge_path, segments));
}

TEST_F(GpuLoadBalance, TransformSegmentedReduceMatchesTheCpuAndSegmentedReduce) {
    std::mt19937 rng(freshSeed());
    for (Shape shape : {Shape::Uniform, Shape::PowerLaw, Shape::EmptyRuns})
        for (std::size_t segments : {1u, 7u, 4096u, 100003u})
            for (int mean : {0, 1, 17, 300}) {
                if (segments * mean > 20000000u) continue;
                SCOPED_TRACE("shape " + std::to_string(static_cast<int>(shape)) + ", mean " + std::to_string(mean));
                checkSegmentedReduce(offsetsFromLengths(makeLengths(segments, mean, shape, rng)), rng);
            }
    checkSegmentedReduce(std::vector<int>{0}, rng);             // no segment
    checkSegmentedReduce(std::vector<int>{0, 0, 0}, rng);       // empty segments only
    checkSegmentedReduce(std::vector<int>{0, 3000001}, rng);    // one segment over hundreds of blocks
    std::vector<int> lengths(300000, 0);                        // huge ones among runs of empty ones
    lengths[5] = 1 << 20;
    lengths[150000] = 777777;
    lengths[299999] = 5;
    checkSegmentedReduce(offsetsFromLengths(lengths), rng);
    const int tile = SC::detail::kLbsReduceTileSteps;  // segments ending at tile and block edges
    const int block = SC::kLbsTilesPerBlock * tile;
    std::vector<int> edges;
    for (int k : {tile - 1, tile, tile + 1, block - 1, block, block + 1, 1, 0, 0, 2 * block}) edges.push_back(k);
    checkSegmentedReduce(offsetsFromLengths(edges), rng);
}

// interval_expand, interval_gather and interval_move against their CPU references.
TEST_F(GpuLoadBalance, ExpandGatherAndMove) {
    std::mt19937 rng(freshSeed());
    for (Shape shape : {Shape::Uniform, Shape::PowerLaw, Shape::EmptyRuns})
        for (std::size_t segments : {1u, 33u, 5000u, 70001u}) {
            const std::vector<int> offsets = offsetsFromLengths(makeLengths(segments, 9, shape, rng));
            const std::size_t n = offsets.back();
            SCOPED_TRACE(std::to_string(segments) + " segments, " + std::to_string(n) + " items");
            const Expected e = reference(offsets);
            const std::vector<double> values = randomIntegralDoubles(segments, rng);
            // Gather from a shuffled source: segment s reads its items at gather[s] in an input of n + 7.
            const std::vector<long long> scatter = shuffledDestinations(offsets, rng);
            std::vector<long long> gather(segments);
            for (std::size_t s = 0; s < segments; ++s) gather[s] = rng() % 8;  // sources may overlap
            const std::vector<int> in = randomInts(n + 7, rng);

            DeviceArena arena;
            int *d_offsets = arena.make<int>(offsets.size());
            double *d_values = arena.make<double>(segments), *d_expanded = arena.make<double>(n);
            long long *d_gather = arena.make<long long>(segments), *d_scatter = arena.make<long long>(segments);
            int *d_in = arena.make<int>(n + 7), *d_gathered = arena.make<int>(n), *d_moved = arena.make<int>(n);
            upload(0, d_offsets, offsets);
            upload(0, d_values, values);
            upload(0, d_gather, gather);
            upload(0, d_scatter, scatter);
            upload(0, d_in, in);
            SC::interval_expand(n, d_offsets, segments, d_values, d_expanded);
            SC::interval_gather(n, d_offsets, segments, d_gather, d_in, d_gathered);
            SC::interval_move(n, d_offsets, segments, d_gather, d_scatter, d_in, d_moved);
            SC_CUDA_CHECK(cudaDeviceSynchronize());
            std::vector<double> expanded(n);
            std::vector<int> gathered(n), moved(n);
            for (std::size_t i = 0; i < n; ++i) {
                const long long s = e.segment[i], r = e.rank[i];
                expanded[i] = values[s];
                gathered[i] = in[gather[s] + r];
                moved[scatter[s] + r] = in[gather[s] + r];
            }
            EXPECT_EQ(download(d_expanded, n), expanded);
            EXPECT_EQ(download(d_gathered, n), gathered);
            EXPECT_EQ(download(d_moved, n), moved);
        }
}

// A 16-byte segment value, the widest interval_expand takes.
struct Wide {
    long long a, b;
};

// Expand into outputs at offsets 0 .. 3 items into a poisoned buffer, for values of 1 to 16 bytes:
// every item written, nothing outside the output (poisoned guards around it).
template <class T>
void checkExpandOfWidth(const std::vector<int> &offsets, std::mt19937 &rng) {
    const std::size_t segments = offsets.size() - 1, n = static_cast<std::size_t>(offsets.back());
    const Expected e = reference(offsets);
    std::vector<unsigned char> bytes(segments * sizeof(T));  // compared as bytes: a double may be a NaN
    for (unsigned char &b : bytes) b = static_cast<unsigned char>(rng());
    std::vector<T> values(segments);
    std::memcpy(values.data(), bytes.data(), bytes.size());
    constexpr std::size_t kPlaces = 4, kGuard = kPlaces + 1;
    DeviceArena arena;
    int *d_offsets = arena.make<int>(offsets.size());
    T *d_values = arena.make<T>(segments), *d_out = arena.make<T>(n + 2 * kGuard);
    upload(0, d_offsets, offsets);
    upload(0, d_values, values);
    const std::vector<T> poisoned = download(d_out, n + 2 * kGuard);
    for (std::size_t place = 0; place < kPlaces; ++place) {
        SCOPED_TRACE(std::to_string(sizeof(T)) + "-byte values, output at item " + std::to_string(place));
        SC::interval_expand(n, d_offsets, segments, d_values, d_out + kGuard + place);
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<T> expected = poisoned;
        for (std::size_t i = 0; i < n; ++i) expected[kGuard + place + i] = values[e.segment[i]];
        const std::vector<T> got = download(d_out, n + 2 * kGuard);
        EXPECT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(T)), 0);
        upload(0, d_out, poisoned);
    }
}

TEST_F(GpuLoadBalance, ExpandOfEveryValueWidth) {
    std::mt19937 rng(freshSeed());
    // The tiles of values up to 8 bytes and of wider ones.
    const int tile = SC::kLbsThreads * SC::kLbsItemsPerThread, wide_tile = SC::kLbsThreads * SC::kLbsItemsPerThreadStaged;
    for (const std::vector<int> &offsets :
         {offsetsFromLengths(makeLengths(3000, 9, Shape::PowerLaw, rng)),
          offsetsFromLengths(makeLengths(2000, 30, Shape::EmptyRuns, rng)), offsetsFromLengths({1}),
          offsetsFromLengths({0, 0, 3 * tile + 5, 0}), offsetsFromLengths({tile - 1, 1, tile, 2, 5}),
          offsetsFromLengths({wide_tile - 1, 1, wide_tile, 0, 2, 5})}) {
        checkExpandOfWidth<unsigned char>(offsets, rng);
        checkExpandOfWidth<short>(offsets, rng);
        checkExpandOfWidth<int>(offsets, rng);
        checkExpandOfWidth<double>(offsets, rng);
        checkExpandOfWidth<Wide>(offsets, rng);
    }
}

// The search into outputs at offsets 0 .. 7 items of a poisoned buffer: its items are stored 16
// bytes a thread from the output's first 16-byte boundary, one a thread before it and after the
// last whole 16 bytes; every item written, nothing outside the output.
template <class Index>
void checkSearchAtEveryPlace(const std::vector<int> &offsets) {
    const std::size_t segments = offsets.size() - 1, n = static_cast<std::size_t>(offsets.back());
    const Expected e = reference(offsets);
    constexpr std::size_t kPlaces = 8, kGuard = kPlaces + 1;
    DeviceArena arena;
    int *d_offsets = arena.make<int>(offsets.size());
    Index *d_out = arena.make<Index>(n + 2 * kGuard);
    upload(0, d_offsets, offsets);
    const std::vector<Index> poisoned = download(d_out, n + 2 * kGuard);
    for (std::size_t place = 0; place < kPlaces; ++place) {
        SCOPED_TRACE(std::to_string(sizeof(Index)) + "-byte segments, output at item " + std::to_string(place));
        SC::load_balancing_search(n, d_offsets, segments, d_out + kGuard + place);
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<Index> expected = poisoned;
        for (std::size_t i = 0; i < n; ++i) expected[kGuard + place + i] = static_cast<Index>(e.segment[i]);
        EXPECT_EQ(download(d_out, n + 2 * kGuard), expected);
        upload(0, d_out, poisoned);
    }
}

TEST_F(GpuLoadBalance, SearchIntoEveryAlignment) {
    std::mt19937 rng(freshSeed());
    const int tile = SC::kLbsThreads * SC::kLbsItemsPerThread;
    for (const std::vector<int> &offsets :
         {offsetsFromLengths(makeLengths(3000, 9, Shape::PowerLaw, rng)),
          offsetsFromLengths(makeLengths(2000, 30, Shape::EmptyRuns, rng)), offsetsFromLengths({1}),
          offsetsFromLengths({0, 0, 3 * tile + 5, 0}), offsetsFromLengths({tile - 1, 1, tile, 2, 5}),
          offsetsFromLengths({3, 0, 1, 2, 7, 4})}) {
        checkSearchAtEveryPlace<unsigned short>(offsets);
        checkSearchAtEveryPlace<int>(offsets);
        checkSearchAtEveryPlace<long long>(offsets);
    }
}

// Captured once, replayed with new segment sizes (same counts) and values between replays.
TEST_F(GpuLoadBalance, GraphReplayWithNewOffsets) {
    std::mt19937 rng(freshSeed());
    const std::size_t segments = 30000, n = 400000;
    DeviceArena arena;
    int *d_offsets = arena.make<int>(segments + 1), *d_values = arena.make<int>(segments);
    int *d_expanded = arena.make<int>(n), *d_segment_of = arena.make<int>(n);
    std::vector<int> offsets, values;
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::interval_expand(n, d_offsets, segments, d_values, d_expanded, s);
            SC::load_balancing_search(n, d_offsets, segments, d_segment_of, s);
        },
        [&](cudaStream_t s) {
            offsets = randomOffsets(n, segments, rng);
            values = randomInts(segments, rng);
            upload(s, d_offsets, offsets);
            upload(s, d_values, values);
            poison(s, d_expanded, n * sizeof(int));
            poison(s, d_segment_of, n * sizeof(int));
        },
        [&]() -> ::testing::AssertionResult {
            const Expected e = reference(offsets);
            std::vector<int> expanded(n), segment_of(n);
            for (std::size_t i = 0; i < n; ++i) {
                expanded[i] = values[e.segment[i]];
                segment_of[i] = static_cast<int>(e.segment[i]);
            }
            ::testing::AssertionResult same = sameElements(download(d_expanded, n), expanded, "expanded");
            if (same) same = sameElements(download(d_segment_of, n), segment_of, "segments");
            return same;
        });
}

// The tiles of 7 steps a thread, captured once and replayed with new segment sizes, sources and
// destinations: interval_move (16-byte gather and scatter starts staged per segment) and
// transform_segmented_reduce (item values staged per step, its records and reduce_by_key's storage
// at an odd address). Several tiles a block, so each replay's marks go over earlier tiles' rows.
TEST_F(GpuLoadBalance, GraphReplayOfTheWideTiles) {
    std::mt19937 rng(freshSeed());
    const std::size_t segments = 30000, n = 400000;
    DeviceArena arena;
    int *d_offsets = arena.make<int>(segments + 1), *d_in = arena.make<int>(n + 7), *d_moved = arena.make<int>(n);
    long long *d_gather = arena.make<long long>(segments), *d_scatter = arena.make<long long>(segments);
    long long *d_sums = arena.make<long long>(segments);
    const std::size_t bytes = SC::transform_segmented_reduce_temp_bytes<long long>(n, segments);
    char *d_temp = arena.make<char>(bytes + 3) + 3;
    std::vector<int> offsets, in;
    std::vector<long long> gather(segments), scatter(segments);
    captureAndReplay(
        arena,
        [&](cudaStream_t s) {
            SC::interval_move(n, d_offsets, segments, d_gather, d_scatter, d_in, d_moved, s);
            SC::transform_segmented_reduce(IndexSegmentRank{}, n, d_offsets, segments, d_sums, SC::Sum{}, -7LL, d_temp,
                                           bytes, s);
        },
        [&](cudaStream_t s) {
            offsets = randomOffsets(n, segments, rng);
            scatter = shuffledDestinations(offsets, rng);
            for (std::size_t k = 0; k < segments; ++k) gather[k] = static_cast<long long>(rng() % 8);
            in = randomInts(n + 7, rng);
            upload(s, d_offsets, offsets);
            upload(s, d_gather, gather);
            upload(s, d_scatter, scatter);
            upload(s, d_in, in);
            poison(s, d_moved, n * sizeof(int));
            poison(s, d_sums, segments * sizeof(long long));
        },
        [&]() -> ::testing::AssertionResult {
            const Expected e = reference(offsets);
            std::vector<int> moved(n);
            std::vector<long long> sums(segments, -7);
            for (std::size_t i = 0; i < n; ++i) {
                const long long k = e.segment[i], r = e.rank[i];
                moved[scatter[k] + r] = in[gather[k] + r];
                const long long value = 3 * static_cast<long long>(i) + 1000 * k - r;
                sums[k] = r == 0 ? value : sums[k] + value;
            }
            ::testing::AssertionResult same = sameElements(download(d_moved, n), moved, "moved");
            if (same) same = sameElements(download(d_sums, segments), sums, "segment sums");
            return same;
        });
}

// Two streams at once on different offsets: neither disturbs the other.
TEST_F(GpuLoadBalance, TwoStreamsAtOnce) {
    std::mt19937 rng(freshSeed());
    Stream a, b;
    const std::size_t n = 1 << 22;
    const std::vector<int> offsets_a = randomOffsets(n, 1000, rng), offsets_b = randomOffsets(n, 300000, rng);
    DeviceArena arena;
    int *d_oa = arena.make<int>(1001), *d_ob = arena.make<int>(300001);
    int *d_sa = arena.make<int>(n), *d_sb = arena.make<int>(n);
    upload(a, d_oa, offsets_a);
    upload(b, d_ob, offsets_b);
    delayStream(a, 2000);
    delayStream(b, 2000);
    for (int round = 0; round < 4; ++round) {
        SC::load_balancing_search(n, d_oa, 1000, d_sa, a.get());
        SC::load_balancing_search(n, d_ob, 300000, d_sb, b.get());
    }
    SC_CUDA_CHECK(cudaStreamSynchronize(a));
    SC_CUDA_CHECK(cudaStreamSynchronize(b));
    const Expected ea = reference(offsets_a), eb = reference(offsets_b);
    EXPECT_EQ(download(d_sa, n), std::vector<int>(ea.segment.begin(), ea.segment.end()));
    EXPECT_EQ(download(d_sb, n), std::vector<int>(eb.segment.begin(), eb.segment.end()));
}

TEST_F(GpuLoadBalance, BadOffsetsAreNamed) {
    DeviceArena arena;
    const auto message = [&](const std::vector<int> &offsets, std::size_t n) -> std::string {
        int *d = arena.make<int>(offsets.size());
        upload(0, d, offsets);
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        try {
            SC::check_segment_offsets(d, offsets.size() - 1, n);
        } catch (const std::invalid_argument &e) {
            return e.what();
        }
        return "accepted";
    };
    EXPECT_EQ(message({0, 2, 2, 5}, 5), "accepted");
    EXPECT_EQ(message({0}, 0), "accepted");
    EXPECT_NE(message({1, 2, 5}, 5).find("offsets[0] = 1, not 0"), std::string::npos);
    EXPECT_NE(message({0, 4, 3, 5}, 5).find("not monotone: offsets[1] = 4 > offsets[2] = 3"), std::string::npos);
    EXPECT_NE(message({0, 2, 6}, 5).find("offsets[2] = 6, not the item count 5"), std::string::npos);
    // The course unit checks before it runs.
    std::vector<int> out(5);
    const std::vector<int> bad = {0, 4, 3, 5}, values = {1, 2, 3};
    EXPECT_THROW(SC::LoadBalance::intervalExpand(5, bad.data(), 3, values.data(), out.data()), std::invalid_argument);
    // Items without segments, null pointers: refused before anything is enqueued.
    EXPECT_THROW(SC::load_balancing_search(5, static_cast<const int *>(nullptr), 3, out.data()), std::invalid_argument);
    int *d_offsets = arena.make<int>(1);
    EXPECT_THROW(SC::interval_expand(5, d_offsets, 0, out.data(), out.data()), std::invalid_argument);
}

// The course unit's intervalExpand against the CPU.
TEST_F(GpuLoadBalance, CourseUnitExpand) {
    std::mt19937 rng(freshSeed());
    const std::vector<int> offsets = offsetsFromLengths(makeLengths(3001, 5, Shape::PowerLaw, rng));
    const std::vector<int> values = randomInts(3001, rng);
    const int n = offsets.back();
    std::vector<int> out(n, -7), expected;
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) expected.insert(expected.end(), offsets[s + 1] - offsets[s], values[s]);
    SC::LoadBalance::intervalExpand(n, offsets.data(), 3001, values.data(), out.data());
    EXPECT_EQ(out, expected);
}

}  // namespace

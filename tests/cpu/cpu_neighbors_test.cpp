// The CPU grouped-nearest-neighbours reference (reference/neighbors.h) on hand-made groups and against a
// one-thread brute force on generated towns; the comparison of a GPU result with it.
#include <stream_compaction/reference/neighbors.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace CPU = StreamCompaction::CPU;

namespace {

TEST(CpuNeighbors, HandMadeGroups) {
    // Group 0 on a line (0, 1, 3, 7); group 1 a single point; group 2 two points at equal distance
    // from a third (the tie goes to the lower index).
    const std::vector<CPU::GroupedPoint> points = {{0, 0, 0}, {1, 0, 0}, {3, 0, 0}, {7, 0, 0}, {5, 5, 1},
                                                   {0, 9, 2}, {2, 9, 2},  {1, 9, 2}};
    const std::vector<int> k2 = CPU::groupedNearest(points, 2, 3);
    const std::vector<int> expected = {1, 2, /*1*/ 0, 2, /*3*/ 1, 0, /*7*/ 2, 1, /*alone*/ -1, -1,
                                       /*(0,9)*/ 7, 6, /*(2,9)*/ 7, 5, /*(1,9): tie*/ 5, 6};
    EXPECT_EQ(k2, expected);
    // k larger than every group: the rest is -1.
    const std::vector<int> k5 = CPU::groupedNearest(points, 5);
    EXPECT_EQ(std::vector<int>(k5.begin(), k5.begin() + 5), (std::vector<int>{1, 2, 3, -1, -1}));
    EXPECT_EQ(std::vector<int>(k5.begin() + 20, k5.begin() + 25), std::vector<int>(5, -1));
}

TEST(CpuNeighbors, GeneratedTownsAgreeOnEveryThreadCount) {
    const std::vector<CPU::GroupedPoint> towns = CPU::generateTowns(3000, 7, 42);
    ASSERT_EQ(towns.size(), 3000u);
    std::vector<int> perState(7, 0);
    for (const auto &t : towns) ++perState.at(t.group);
    for (int size : perState) EXPECT_GE(size, 1);
    EXPECT_EQ(CPU::generateTowns(3000, 7, 42).front().x, towns.front().x);  // seeded
    const std::vector<int> one = CPU::groupedNearest(towns, 4, 1);
    EXPECT_EQ(CPU::groupedNearest(towns, 4, 5), one);
    for (std::size_t i = 0; i < towns.size(); ++i)  // same group, never itself
        for (int j = 0; j < 4; ++j) {
            const int n = one[i * 4 + j];
            if (n < 0) continue;
            EXPECT_NE(static_cast<std::size_t>(n), i);
            EXPECT_EQ(towns[n].group, towns[i].group);
        }
}

TEST(CpuNeighbors, FewerTownsThanStatesAndBadArguments) {
    const auto towns = CPU::generateTowns(3, 10, 1);
    EXPECT_EQ(towns.size(), 3u);
    EXPECT_TRUE(CPU::generateTowns(0, 4, 1).empty());
    EXPECT_THROW(CPU::generateTowns(-1, 4, 1), std::invalid_argument);
    EXPECT_THROW(CPU::generateTowns(5, 0, 1), std::invalid_argument);
    EXPECT_THROW(CPU::groupedNearest(towns, 0), std::invalid_argument);
    EXPECT_THROW(CPU::groupedNearest({{0, 0, -1}}, 1), std::invalid_argument);
}

}  // namespace

// The comparison the GPU tests and the harness use: near-ties may swap, nothing else may differ.
TEST(CpuNeighbors, MismatchesBeyondNearTiesAreFound) {
    const std::vector<CPU::GroupedPoint> points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 1}, {9, 9, 0}};
    const std::vector<int> expected = CPU::groupedNearest(points, 2);  // point 0: 1 and 2 at the same distance
    EXPECT_EQ(CPU::firstNeighborMismatch(points, 2, expected, expected), -1);
    std::vector<int> swapped = expected;
    std::swap(swapped[0], swapped[1]);
    EXPECT_EQ(CPU::firstNeighborMismatch(points, 2, expected, swapped), -1);
    std::vector<int> farther = expected;
    farther[2 * 1 + 1] = 4;  // point 1's second nearest: point 4 is farther than the true one
    EXPECT_EQ(CPU::firstNeighborMismatch(points, 2, expected, farther), 1);
    std::vector<int> other_group = expected;
    other_group[2 * 2] = 3;
    EXPECT_EQ(CPU::firstNeighborMismatch(points, 2, expected, other_group), 2);
    std::vector<int> repeated = expected;
    repeated[1] = repeated[0];
    EXPECT_EQ(CPU::firstNeighborMismatch(points, 2, expected, repeated), 0);
    std::vector<int> missing = expected;
    missing[2 * 3] = 0;  // point 3 is alone: -1 expected
    EXPECT_EQ(CPU::firstNeighborMismatch(points, 2, expected, missing), 3);
    EXPECT_THROW(CPU::firstNeighborMismatch(points, 2, expected, std::vector<int>(3)), std::invalid_argument);
}

// Grouped nearest neighbours (device/grouped_neighbors.cuh) against CPU::groupedNearest: generated
// towns by state, groups of one point, k larger than a group, one group for all, ids outside the
// groups; bad arguments and a capturing stream refused.
#include <stream_compaction/reference/neighbors.h>
#include <stream_compaction/device/grouped_neighbors.cuh>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using SC::CPU::GroupedPoint;
using namespace robustness;

namespace {

class GpuGroupedNeighbors : public GpuTest {};

std::vector<int> gpuNearest(const std::vector<GroupedPoint> &points, int groups, int k) {
    const int n = static_cast<int>(points.size());
    std::vector<float> x(n), y(n);
    std::vector<int> group(n);
    for (int i = 0; i < n; ++i) x[i] = points[i].x, y[i] = points[i].y, group[i] = points[i].group;
    DeviceArena arena;
    float *d_x = arena.make<float>(n), *d_y = arena.make<float>(n);
    int *d_group = arena.make<int>(n), *d_out = arena.make<int>(static_cast<std::size_t>(n) * k);
    upload(0, d_x, x);
    upload(0, d_y, y);
    upload(0, d_group, group);
    if (n > 0) poison(0, d_out, static_cast<std::size_t>(n) * k * sizeof(int));
    const std::size_t bytes = SC::grouped_nearest_temp_bytes(n, groups, k);
    char *d_temp = arena.make<char>(bytes + 7) + 7;  // storage at an odd address
    SC::grouped_nearest(d_x, d_y, d_group, n, groups, k, d_out, d_temp, bytes);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    return download(d_out, static_cast<std::size_t>(n) * k);
}

// The GPU's neighbours against the CPU's, up to near-ties (CPU::firstNeighborMismatch).
void expectSameAsCpu(const std::vector<GroupedPoint> &points, int groups, int k) {
    SCOPED_TRACE(std::to_string(points.size()) + " points, " + std::to_string(groups) + " groups, k = " +
                 std::to_string(k));
    const std::vector<int> expected = SC::CPU::groupedNearest(points, k);
    const std::vector<int> got = gpuNearest(points, groups, k);
    const long long bad = SC::CPU::firstNeighborMismatch(points, k, expected, got);
    if (bad < 0) return;
    std::string row;
    for (int j = 0; j < k; ++j) row += " " + std::to_string(got[bad * k + j]) + "/" + std::to_string(expected[bad * k + j]);
    ADD_FAILURE() << "point " << bad << ": got/expected" << row;
}

}  // namespace

TEST_F(GpuGroupedNeighbors, GeneratedTownsAgainstTheCpu) {
    std::mt19937 rng(freshSeed());
    expectSameAsCpu(SC::CPU::generateTowns(20000, 64, rng()), 64, 3);
    expectSameAsCpu(SC::CPU::generateTowns(3000, 7, rng()), 7, 8);
    expectSameAsCpu(SC::CPU::generateTowns(50000, 500, rng()), 500, 32);
}

TEST_F(GpuGroupedNeighbors, SmallAndDegenerateGroups) {
    std::mt19937 rng(freshSeed());
    expectSameAsCpu({}, 1, 3);                                       // no point
    expectSameAsCpu({{1, 2, 0}}, 1, 1);                              // one point: -1
    expectSameAsCpu({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}, 3, 2);        // groups of one point
    expectSameAsCpu(SC::CPU::generateTowns(40, 10, rng()), 10, 12);  // k larger than every group
    std::vector<GroupedPoint> one_group = SC::CPU::generateTowns(3000, 1, rng());
    expectSameAsCpu(one_group, 1, 5);                                // a single group of 3,000
    std::vector<GroupedPoint> same_place(100, GroupedPoint{3, 4, 0});
    expectSameAsCpu(same_place, 1, 4);                               // all at one place: ties to lower indices
    expectSameAsCpu(SC::CPU::generateTowns(500, 3, rng()), 40, 2);   // groups with no point
}

// A point whose id is outside [0, groups) gets -1s and is nobody's neighbour.
TEST_F(GpuGroupedNeighbors, IdsOutsideTheGroupsFindNothing) {
    std::vector<GroupedPoint> points = {{0, 0, 0}, {1, 0, 0}, {0.5f, 0, 5}, {0.25f, 0, -1}, {2, 0, 0}};
    const std::vector<int> got = gpuNearest(points, 2, 2);
    EXPECT_EQ(got, (std::vector<int>{1, 4, 0, 4, -1, -1, -1, -1, 1, 0}));
}

TEST_F(GpuGroupedNeighbors, BadArgumentsAndCaptureAreRefused) {
    DeviceArena arena;
    float *d_x = arena.make<float>(4), *d_y = arena.make<float>(4);
    int *d_group = arena.make<int>(4), *d_out = arena.make<int>(4 * 32);
    const std::size_t bytes = SC::grouped_nearest_temp_bytes(4, 2, 3);
    char *d_temp = arena.make<char>(bytes);
    SC_CUDA_CHECK(cudaMemset(d_group, 0, 4 * sizeof(int)));
    for (int k : {0, 33}) EXPECT_THROW(SC::grouped_nearest(d_x, d_y, d_group, 4, 2, k, d_out, d_temp, bytes), std::invalid_argument);
    EXPECT_THROW(SC::grouped_nearest(d_x, d_y, d_group, 4, 0, 3, d_out, d_temp, bytes), std::invalid_argument);
    EXPECT_THROW(SC::grouped_nearest(d_x, d_y, d_group, -1, 2, 3, d_out, d_temp, bytes), std::invalid_argument);
    EXPECT_THROW(SC::grouped_nearest(d_x, nullptr, d_group, 4, 2, 3, d_out, d_temp, bytes), std::invalid_argument);
    EXPECT_THROW(SC::grouped_nearest(d_x, d_y, d_group, 4, 2, 3, d_out, d_temp, bytes - 1), std::invalid_argument);
    Stream stream;
    SC_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
    EXPECT_THROW(SC::grouped_nearest(d_x, d_y, d_group, 4, 2, 3, d_out, d_temp, bytes, stream.get()), std::invalid_argument);
    cudaGraph_t graph = nullptr;
    SC_CUDA_CHECK(cudaStreamEndCapture(stream.get(), &graph));
    SC_CUDA_CHECK(cudaGraphDestroy(graph));
}

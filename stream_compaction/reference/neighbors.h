#pragma once
// CPU grouped nearest neighbours, the reference of the GPU version (issue #15): for every point,
// the k nearest points of its own group.
#include <cstdint>
#include <vector>

namespace StreamCompaction {
namespace CPU {

struct GroupedPoint {
    float x, y;
    int group;
};

// A generated country: `points` towns in `groups` states, each state a cluster around its capital
// (capitals uniform in [0, 1000)^2, towns normal around them with a spread of 5 to 50), state sizes
// Pareto-distributed (a few populous states, every state at least one town when points >=
// groups). The same seed gives the same towns. Throws std::invalid_argument for points < 0 or
// groups < 1.
std::vector<GroupedPoint> generateTowns(int points, int groups, std::uint64_t seed);

// For point i, out[i * k + j] is the index of its (j + 1)-th nearest other point in the same group:
// by squared Euclidean distance (computed in double), ties to the lower index; -1 past the
// group's size (a point alone in its group gets k times -1). Brute force within each group, over
// `threads` threads (0: every core). Throws std::invalid_argument for k < 1, threads < 0, or a
// negative group id.
std::vector<int> groupedNearest(const std::vector<GroupedPoint> &points, int k, int threads = 0);

// The first point whose neighbours in `got` (k per point, as groupedNearest's) are not those of
// `expected` up to near-ties: -1 in the same places, and elsewhere other points of the same
// group, each once, whose j-th distance (in double) is expected's j-th within `relative` (a GPU's
// float distances may order near-ties otherwise). -1 when every point agrees. Throws
// std::invalid_argument for arrays not of points.size() * k entries.
long long firstNeighborMismatch(const std::vector<GroupedPoint> &points, int k, const std::vector<int> &expected,
                                const std::vector<int> &got, double relative = 1e-5);

}  // namespace CPU
}  // namespace StreamCompaction

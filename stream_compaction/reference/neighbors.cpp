#include <stream_compaction/reference/neighbors.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

namespace StreamCompaction {
namespace CPU {

std::vector<GroupedPoint> generateTowns(int points, int groups, std::uint64_t seed) {
    if (points < 0 || groups < 1)
        throw std::invalid_argument("CPU::generateTowns: " + std::to_string(points) + " towns in " +
                                    std::to_string(groups) + " states");
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(1e-9, 1.0), place(0.0, 1000.0), spread(5.0, 50.0);
    struct State {
        double x, y, spread, weight;
    };
    std::vector<State> states(groups);
    double total = 0;
    for (State &s : states) {
        s = {place(rng), place(rng), spread(rng), std::pow(unit(rng), -1.0 / 1.2)};
        total += s.weight;
    }
    // Each state's share of the towns by its weight, at least one while towns remain; the rounding
    // remainder goes to the first states.
    std::vector<int> sizes(groups);
    int given = 0;
    for (int g = 0; g < groups; ++g) {
        sizes[g] = points >= groups ? std::max(1, static_cast<int>(points * (states[g].weight / total) * 0.9)) : (g < points);
        given += sizes[g];
    }
    for (int g = 0; given < points; g = (g + 1) % groups, ++given) ++sizes[g];
    for (int g = groups - 1; given > points; g = (g + groups - 1) % groups)
        if (sizes[g] > 1) --sizes[g], --given;
    std::vector<GroupedPoint> towns;
    towns.reserve(points);
    for (int g = 0; g < groups; ++g) {
        std::normal_distribution<double> x(states[g].x, states[g].spread), y(states[g].y, states[g].spread);
        for (int t = 0; t < sizes[g]; ++t) towns.push_back({static_cast<float>(x(rng)), static_cast<float>(y(rng)), g});
    }
    std::shuffle(towns.begin(), towns.end(), rng);  // states interleaved, as real input would be
    return towns;
}

std::vector<int> groupedNearest(const std::vector<GroupedPoint> &points, int k, int threads) {
    if (k < 1) throw std::invalid_argument("CPU::groupedNearest: k = " + std::to_string(k));
    if (threads < 0) throw std::invalid_argument("CPU::groupedNearest: threads = " + std::to_string(threads));
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    int groups = 0;
    for (const GroupedPoint &p : points) {
        if (p.group < 0) throw std::invalid_argument("CPU::groupedNearest: negative group id " + std::to_string(p.group));
        groups = std::max(groups, p.group + 1);
    }
    std::vector<std::vector<int>> members(groups);
    for (std::size_t i = 0; i < points.size(); ++i) members[points[i].group].push_back(static_cast<int>(i));

    std::vector<int> out(points.size() * static_cast<std::size_t>(k), -1);
    const auto nearest_of = [&](std::size_t i, std::vector<std::pair<double, int>> &candidates) {
        const GroupedPoint &p = points[i];
        candidates.clear();
        for (int j : members[p.group]) {
            if (static_cast<std::size_t>(j) == i) continue;
            const double dx = static_cast<double>(points[j].x) - p.x, dy = static_cast<double>(points[j].y) - p.y;
            candidates.push_back({dx * dx + dy * dy, j});  // (distance, index): ties to the lower index
        }
        const std::size_t keep = std::min(candidates.size(), static_cast<std::size_t>(k));
        std::partial_sort(candidates.begin(), candidates.begin() + keep, candidates.end());
        for (std::size_t j = 0; j < keep; ++j) out[i * k + j] = candidates[j].second;
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::vector<std::pair<double, int>> candidates;
            for (std::size_t i = t; i < points.size(); i += threads) nearest_of(i, candidates);
        });
    for (std::thread &thread : pool) thread.join();
    return out;
}

long long firstNeighborMismatch(const std::vector<GroupedPoint> &points, int k, const std::vector<int> &expected,
                                const std::vector<int> &got, double relative) {
    const std::size_t size = points.size() * static_cast<std::size_t>(k);
    if (k < 1 || expected.size() != size || got.size() != size)
        throw std::invalid_argument("CPU::firstNeighborMismatch: " + std::to_string(points.size()) + " points, k = " +
                                    std::to_string(k) + ", " + std::to_string(expected.size()) + " and " +
                                    std::to_string(got.size()) + " neighbours");
    const auto distance = [&](std::size_t i, int j) {
        const double dx = static_cast<double>(points[j].x) - points[i].x, dy = static_cast<double>(points[j].y) - points[i].y;
        return dx * dx + dy * dy;
    };
    const int n = static_cast<int>(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (int j = 0; j < k; ++j) {
            const int g = got[i * k + j], e = expected[i * k + j];
            if ((g < 0) != (e < 0)) return static_cast<long long>(i);
            if (e < 0) continue;
            bool repeated = false;
            for (int earlier = 0; earlier < j; ++earlier) repeated = repeated || got[i * k + earlier] == g;
            if (g >= n || g == static_cast<int>(i) || repeated || points[g].group != points[i].group)
                return static_cast<long long>(i);
            const double dg = distance(i, g), de = distance(i, e);
            if (std::fabs(dg - de) > relative * de + 1e-6) return static_cast<long long>(i);
        }
    }
    return -1;
}

}  // namespace CPU
}  // namespace StreamCompaction

#pragma once
// Grouped nearest neighbours (device/grouped_neighbors.cuh): the groups' members in group order,
// each point's pairs with its group, and the k-slot insertion that keeps each point's k nearest.
#include <cstddef>

namespace StreamCompaction {
namespace detail {

constexpr unsigned long long kNoNeighbor = ~0ull;

// positions[i] = i: the values the sort by group carries. (A template, as every kernel defined in a
// header: one definition per program.)
template <class Index>
__global__ void fill_positions(Index *positions, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        positions[i] = static_cast<Index>(i);
}

// begin[g] and end[g]: where group g's members lie in the group-sorted order (both 0 for a group
// with no point; ids outside [0, groups) are skipped, their points find no neighbour).
template <class Unused = void>
__global__ void group_bounds(const int *sorted_groups, long long n, int groups, int *begin, int *end) {
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int g = sorted_groups[i];
        if (g < 0 || g >= groups) continue;
        if (i == 0 || sorted_groups[i - 1] != g) begin[g] = static_cast<int>(i);
        if (i == n - 1 || sorted_groups[i + 1] != g) end[g] = static_cast<int>(i + 1);
    }
}

// Point p's pairs: one per member of its group (itself included, skipped when paired).
struct GroupSizeOf {
    const int *groups_of_points, *begin, *end;
    int groups;
    __device__ long long operator()(std::size_t p) const {
        const int g = groups_of_points[p];
        return g < 0 || g >= groups ? 0 : end[g] - begin[g];
    }
};

// pair_offsets[p + 1] = the pairs of points 0..p (the scan's store; pair_offsets[0] = 0).
struct StorePairOffset {
    long long *pair_offsets;
    __device__ void operator()(std::size_t p, const long long &scanned) const { pair_offsets[p + 1] = scanned; }
};

// member_places[i] = the place of the i-th point in group order: a point's pairs read their other
// ends' places from consecutive addresses.
template <class Unused = void>
__global__ void gather_member_places(const int *members, const float *x, const float *y, long long n,
                                     float2 *member_places) {
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int m = members[i];
        member_places[i] = make_float2(x[m], y[m]);
    }
}

// What a tile loads once per point it touches: its place, its group's first member, and the
// distance bits of its k-th slot when the tile starts (a bound that only tightens later: pairs
// farther than it are dropped without touching the slots or the member's index).
struct PointAndGroup {
    float x, y;
    int first_member;
    unsigned farthest_kept;
};

struct LoadPointAndGroup {
    const float *x, *y;
    const int *groups_of_points, *begin;
    const unsigned long long *slots;
    int groups, k;
    __device__ PointAndGroup operator()(long long p) const {
        const int g = groups_of_points[p];  // a tile loads every point it touches, those without pairs too
        return {x[p], y[p], g < 0 || g >= groups ? 0 : begin[g],
                static_cast<unsigned>(__ldcg(slots + p * k + k - 1) >> 32)};
    }
};

// Pair (p, rank-th member j of p's group): the squared distance, packed above j so that keys order
// by distance, then by index (non-negative floats order as their bits), offered to p's k slots.
// The slots hold the k smallest keys offered so far as a set: a key at least the k-th is dropped
// (most of them, once the slots fill: by the tile's bound, then by a plain read); otherwise it goes
// down the slots by atomicMin, each slot keeping the smaller key and passing the larger on, until
// one takes the place of an empty slot or the largest falls off the end. Every key is in a slot,
// on its way down, or has fallen off behind k smaller ones, so the slots end with the k smallest.
// (A key reaches slot k - 1 only through every slot before it, each then left holding a smaller
// key: so a key at least slot k - 1's has k smaller ones, and dropping it early is right.)
struct OfferPair {
    const float2 *member_places;
    const int *members;
    unsigned long long *slots;
    int k;
    __device__ void operator()(long long, long long p, long long rank, const PointAndGroup &point) const {
        const float2 other = member_places[point.first_member + rank];
        const float dx = other.x - point.x, dy = other.y - point.y;
        const unsigned distance = __float_as_uint(dx * dx + dy * dy);
        if (distance > point.farthest_kept) return;  // equal distances may still win on the index
        const int j = members[point.first_member + rank];
        if (j == p) return;
        unsigned long long key = static_cast<unsigned long long>(distance) << 32 | static_cast<unsigned>(j);
        unsigned long long *mine = slots + p * k;
        if (key >= __ldcg(mine + k - 1)) return;  // a stale read only drops less
        for (int s = 0; s < k && key != kNoNeighbor; ++s) {
            const unsigned long long old = atomicMin(mine + s, key);
            key = old > key ? old : key;
        }
    }
};

// out[p * k + j] = the index in point p's (j + 1)-th slot after sorting them, -1 for an empty one.
template <class Unused = void>
__global__ void write_neighbors(const unsigned long long *slots, long long n, int k, int *out) {
    for (long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; p < n;
         p += static_cast<long long>(gridDim.x) * blockDim.x) {
        unsigned long long sorted[32];
        for (int s = 0; s < k; ++s) {  // insertion sort: k is at most 32
            const unsigned long long key = slots[p * k + s];
            int at = s;
            for (; at > 0 && sorted[at - 1] > key; --at) sorted[at] = sorted[at - 1];
            sorted[at] = key;
        }
        for (int s = 0; s < k; ++s)
            out[p * k + s] = sorted[s] == kNoNeighbor ? -1 : static_cast<int>(sorted[s] & 0xffffffffu);
    }
}

}  // namespace detail
}  // namespace StreamCompaction

#pragma once
// Which tile a block works on, and its launch's epoch: what the grid's call state hands out
// (grid/call_state.cuh) and a block keeps in its shared tile storage (block/tile_scan.cuh).

namespace StreamCompaction {
namespace detail {

using u64 = unsigned long long;

struct TileAssignment {
    unsigned tile;
    u64 epoch;  // 62 bits: a status tag is epoch << 1 | is_prefix, and its top bit stays free
};

}  // namespace detail
}  // namespace StreamCompaction

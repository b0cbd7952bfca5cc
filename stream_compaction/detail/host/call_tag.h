#pragma once

namespace StreamCompaction {
namespace detail {

// A process-wide sequence of launch epochs (62 bits, starting at a random point; a status tag
// holds one shifted left by one, and segmented_pair.cuh uses the top bit): each single-pass
// launch gets its own, which is what lets tile status words go uncleared between launches.
unsigned long long next_scan_epoch();

}  // namespace detail
}  // namespace StreamCompaction

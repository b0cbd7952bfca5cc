#pragma once

namespace StreamCompaction {
namespace detail {

// A process-wide sequence of launch epochs (63 bits, starting at a random point): each single-pass
// launch gets its own, which is what lets tile status words go uncleared between launches.
unsigned long long next_scan_epoch();

}  // namespace detail
}  // namespace StreamCompaction

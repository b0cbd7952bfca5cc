#pragma once

namespace StreamCompaction {
namespace detail {

// The tag of each enqueued single-pass call (see detail/grid/call_state.cuh): a process-wide
// sequence from a random start, so that a call's state is told apart from any other call's left in
// reused memory. A graph replays the tag it was captured with.
unsigned long long next_call_tag();

}  // namespace detail
}  // namespace StreamCompaction

#include <stream_compaction/detail/host/call_tag.h>

#include <atomic>
#include <random>

namespace StreamCompaction {
namespace detail {

unsigned long long next_call_tag() {
    // A random start makes a match with stale state in reused memory as unlikely as guessing it.
    static std::atomic<unsigned long long> tag{std::random_device{}() * 0x9E3779B97F4A7C15ull};
    return tag.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace detail
}  // namespace StreamCompaction

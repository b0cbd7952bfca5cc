#include <stream_compaction/detail/grid/scan_epoch.h>

#include <atomic>
#include <random>

namespace StreamCompaction {
namespace detail {

unsigned long long next_scan_epoch() {
    // A random start makes a match with stale words in reused memory as unlikely as guessing it.
    static std::atomic<unsigned long long> epoch{std::random_device{}() * 0x9E3779B97F4A7C15ull};
    return epoch.fetch_add(1, std::memory_order_relaxed) & 0x3fffffffffffffffull;
}

}  // namespace detail
}  // namespace StreamCompaction

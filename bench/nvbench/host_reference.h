#pragma once
// The CPU's side of the NVBench parts' full-output checks, made cheap enough for a quick profile:
// at 2^28 items a serial CPU reference and comparison took longer than NVBench's measurement of
// the state (about 6 s a state against 1-2 s on an H200, 2026-12-02), so the reference loops run
// on every hardware thread (parallel_for), and each reference is computed once per process and
// kept for the other implementations of its point (cached_reference): NVBench runs every state of
// one benchmark before the next benchmark's, and ours and the anchors' states of one point are
// checked against one result. Host code alone: no CUDA here.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <typeinfo>
#include <utility>
#include <vector>

namespace bench {

// The pieces [begin, end) that the loops below cut [0, n) into: one per hardware thread, or one
// alone below 2^16 items (where a thread costs more than it saves).
inline std::vector<std::pair<std::size_t, std::size_t>> pieces_of(std::size_t n) {
    constexpr std::size_t kSerialBelow = std::size_t(1) << 16;
    const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
    const std::size_t count = n < kSerialBelow ? 1 : threads;
    const std::size_t step = (n + count - 1) / count;
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    for (std::size_t begin = 0; begin < n || pieces.empty(); begin += step)
        pieces.emplace_back(begin, std::min(n, begin + step));
    return pieces;
}

// Calls body(piece, begin, end) for every piece at once, each on a thread of its own (the first
// on the caller's). body must write only what belongs to its own piece, and must not throw.
template <class Body>
void for_each_piece(const std::vector<std::pair<std::size_t, std::size_t>> &pieces, Body body) {
    std::vector<std::thread> workers;
    for (std::size_t p = 1; p < pieces.size(); ++p) workers.emplace_back(body, p, pieces[p].first, pieces[p].second);
    body(std::size_t(0), pieces[0].first, pieces[0].second);
    for (std::thread &worker : workers) worker.join();
}

// body(begin, end) over the pieces of [0, n), at once.
template <class Body>
void parallel_for(std::size_t n, Body body) {
    for_each_piece(pieces_of(n), [&](std::size_t, std::size_t begin, std::size_t end) { body(begin, end); });
}

// A vector of n items, item i = make(i), made on every hardware thread (make must be pure).
template <class T, class Make>
std::vector<T> generated(std::size_t n, Make make) {
    std::vector<T> out(n);
    parallel_for(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) out[i] = make(i);
    });
    return out;
}

// The first index i < n where fails(i), or n: each piece's first, the least of them kept (a piece
// stops once another has found one before it).
template <class Fails>
std::size_t first_failing(std::size_t n, Fails fails) {
    std::atomic<std::size_t> first{n};
    parallel_for(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end && i < first.load(std::memory_order_relaxed); ++i)
            if (fails(i)) {
                std::size_t seen = first.load();
                while (i < seen && !first.compare_exchange_weak(seen, i)) {
                }
                return;
            }
    });
    return first.load();
}

// The first index where got and expected differ (both of n items), or n.
template <class T>
std::size_t first_unequal(const T *got, const T *expected, std::size_t n) {
    return first_failing(n, [&](std::size_t i) { return !(got[i] == expected[i]); });
}

// Bytes of host memory a reference holds, for the cache's budget: a vector's items, or a struct's
// own footprint() (the sum of its vectors').
template <class T>
std::size_t footprint(const std::vector<T> &v) {
    return v.size() * sizeof(T);
}
template <class T>
auto footprint(const T &reference) -> decltype(reference.footprint()) {
    return reference.footprint();
}

// The CPU references of this process by key: at most kReferenceCacheBytes of them kept, the least
// recently used given up first (4 GiB: one family's references at 2^28 and every param of a
// benchmark; a GPU machine with less host memory than that would page, not fail).
constexpr std::size_t kReferenceCacheBytes = std::size_t(4) << 30;

class ReferenceCache {
  public:
    static ReferenceCache &instance() {
        static ReferenceCache cache;
        return cache;
    }
    std::shared_ptr<const void> find(const std::string &key) {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (auto entry = entries_.begin(); entry != entries_.end(); ++entry)
            if (entry->key == key) {
                entries_.splice(entries_.begin(), entries_, entry);  // now the most recently used
                return entries_.front().value;
            }
        return nullptr;
    }
    void keep(const std::string &key, std::shared_ptr<const void> value, std::size_t bytes) {
        if (bytes > kReferenceCacheBytes) return;  // larger than the budget: computed each time
        const std::lock_guard<std::mutex> lock(mutex_);
        while (held_ + bytes > kReferenceCacheBytes && !entries_.empty()) {
            held_ -= entries_.back().bytes;
            entries_.pop_back();
        }
        entries_.push_front({key, std::move(value), bytes});
        held_ += bytes;
    }

  private:
    struct Entry {
        std::string key;
        std::shared_ptr<const void> value;
        std::size_t bytes;
    };
    std::mutex mutex_;
    std::list<Entry> entries_;
    std::size_t held_ = 0;
};

// compute()'s result (a T), computed the first time `key` is asked for and kept while the cache
// holds it. The key must name everything the result depends on (the computation, n, the param);
// T's name is added to it, so that two types never share an entry.
template <class T, class Compute>
std::shared_ptr<const T> cached_reference(const std::string &key, Compute compute) {
    const std::string typed_key = std::string(typeid(T).name()) + ":" + key;
    ReferenceCache &cache = ReferenceCache::instance();
    if (std::shared_ptr<const void> found = cache.find(typed_key)) return std::static_pointer_cast<const T>(found);
    auto made = std::make_shared<const T>(compute());
    cache.keep(typed_key, made, footprint(*made));
    return made;
}

}  // namespace bench

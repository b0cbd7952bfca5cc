#include <stream_compaction/reference/bfs.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace StreamCompaction {
namespace CPU {
namespace {

void checkBfsArgs(const char *name, int vertices, const int *row_offsets, const int *neighbors, int source) {
    if (vertices < 0) throw std::invalid_argument(std::string(name) + ": vertices = " + std::to_string(vertices));
    if (source < 0 || source >= vertices)
        throw std::invalid_argument(std::string(name) + ": source " + std::to_string(source) +
                                    " is not a vertex (the graph has " + std::to_string(vertices) + ")");
    if (row_offsets == nullptr || (row_offsets[vertices] > 0 && neighbors == nullptr))
        throw std::invalid_argument(std::string(name) + ": null adjacency array");
}

// Threads meet here at the end of each level; the last to arrive runs `last` before releasing the
// others, so that it alone moves on to the next frontier.
class LevelBarrier {
public:
    explicit LevelBarrier(int threads) : threads_(threads) {}
    template <class F>
    void arrive_and_wait(F last) {
        std::unique_lock<std::mutex> lock(mutex_);
        const unsigned long long generation = generation_;
        if (++arrived_ == threads_) {
            last();
            arrived_ = 0;
            ++generation_;
            released_.notify_all();
        } else {
            released_.wait(lock, [&] { return generation_ != generation; });
        }
    }

private:
    const int threads_;
    int arrived_ = 0;
    unsigned long long generation_ = 0;
    std::mutex mutex_;
    std::condition_variable released_;
};

}  // namespace

std::vector<int> bfsLevels(int vertices, const int *row_offsets, const int *neighbors, int source) {
    checkBfsArgs("CPU::bfsLevels", vertices, row_offsets, neighbors, source);
    std::vector<int> levels(vertices, -1), frontier{source};
    levels[source] = 0;
    for (std::size_t head = 0; head < frontier.size(); ++head) {  // the queue: levels come in order
        const int v = frontier[head];
        for (int e = row_offsets[v]; e < row_offsets[v + 1]; ++e) {
            const int w = neighbors[e];
            if (levels[w] < 0) {
                levels[w] = levels[v] + 1;
                frontier.push_back(w);
            }
        }
    }
    return levels;
}

std::vector<int> bfsLevelsParallel(int vertices, const int *row_offsets, const int *neighbors, int source,
                                   int threads) {
    checkBfsArgs("CPU::bfsLevelsParallel", vertices, row_offsets, neighbors, source);
    if (threads < 0) throw std::invalid_argument("CPU::bfsLevelsParallel: threads = " + std::to_string(threads));
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::atomic<int>> levels(vertices);
    for (std::atomic<int> &level : levels) level.store(-1, std::memory_order_relaxed);
    levels[source].store(0, std::memory_order_relaxed);

    // Invariant at each barrier: `frontier` holds every vertex of level `depth`, each once, and
    // `next[t]` what thread t claimed for level depth + 1. `serial` and `done`, which every thread
    // reads after a barrier, change only inside the next one (its last thread's step).
    std::vector<int> frontier{source};
    std::vector<std::vector<int>> next(threads);
    int depth = 0;
    bool serial = true, done = false;
    LevelBarrier barrier(threads);
    const auto claim = [&](int v, std::vector<int> &claimed) {
        for (int e = row_offsets[v]; e < row_offsets[v + 1]; ++e) {
            const int w = neighbors[e];
            int unseen = -1;
            if (levels[w].load(std::memory_order_relaxed) < 0 &&
                levels[w].compare_exchange_strong(unseen, depth + 1, std::memory_order_relaxed))
                claimed.push_back(w);
        }
    };
    const auto expand = [&](int t) {
        while (!done) {
            if (serial) {
                // Thin levels: thread 0 alone, level after level, while the others wait at one
                // barrier (a barrier per level would cost more than a thin level's work).
                if (t == 0)
                    while (!frontier.empty() && frontier.size() < static_cast<std::size_t>(kSerialFrontier)) {
                        for (int v : frontier) claim(v, next[0]);
                        frontier.swap(next[0]);
                        next[0].clear();
                        ++depth;
                    }
            } else {
                const std::size_t size = frontier.size(), chunk = (size + threads - 1) / threads;
                const std::size_t begin = std::min(size, chunk * t), end = std::min(size, begin + chunk);
                for (std::size_t i = begin; i < end; ++i) claim(frontier[i], next[t]);
            }
            barrier.arrive_and_wait([&] {
                if (!serial) {
                    frontier.clear();
                    for (std::vector<int> &claimed : next) {
                        frontier.insert(frontier.end(), claimed.begin(), claimed.end());
                        claimed.clear();
                    }
                    ++depth;
                }
                serial = frontier.size() < static_cast<std::size_t>(kSerialFrontier);
                done = frontier.empty();
            });
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(expand, t);
    expand(0);
    for (std::thread &thread : pool) thread.join();

    std::vector<int> result(vertices);
    for (int v = 0; v < vertices; ++v) result[v] = levels[v].load(std::memory_order_relaxed);
    return result;
}

}  // namespace CPU
}  // namespace StreamCompaction

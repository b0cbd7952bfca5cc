#pragma once
// The course's knob: threads per block of every GPU implementation, process-wide, which the
// harness's --block-size changes at run time. The course units read it at each launch, and pass
// it to the library calls they make through an environment (course_environment()); the library's
// dispatch never reads it (its block sizes come from each call's CallEnvironment,
// tuning/call_tuning.h). The defaults are the library's tuned ones.
//
// Threads: each field is read and written atomically, so a change made while other host threads
// enqueue work is never torn; set block sizes before starting work.
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <atomic>
#include <string>

namespace StreamCompaction {

// A setting read and written atomically (relaxed), copyable like the value it holds.
template <class T>
class Relaxed {
public:
    explicit Relaxed(T value = T{}) noexcept : value_(value) {}
    Relaxed(const Relaxed &other) noexcept : value_(other.get()) {}
    Relaxed &operator=(const Relaxed &other) noexcept { return *this = other.get(); }
    Relaxed &operator=(T value) noexcept {
        value_.store(value, std::memory_order_relaxed);
        return *this;
    }
    T get() const noexcept { return value_.load(std::memory_order_relaxed); }
    operator T() const noexcept { return get(); }

private:
    std::atomic<T> value_;
};
using BlockSize = Relaxed<int>;

struct BlockSizes {
    BlockSize naive{128};        // Naive: one thread per element and level
    BlockSize efficient{128};    // Efficient: up-/down-sweep levels, and the map and scatter kernels
    BlockSize shared{256};       // Shared: the hierarchical shared-memory scan
    // The course wrappers of the library's families (Tuning's fields, support/call_environment.h).
    BlockSize single_pass{kDefaultSinglePassThreads};  // single-pass scan, compaction and partition
    BlockSize radix{kDefaultRadixThreads};             // onesweep radix sort: a multiple of 32 up to 512
    BlockSize segmented{kDefaultSegmentedThreads};     // merge-path segmented reduce and SpMV
    BlockSize reduce{kDefaultReduceThreads};           // reductions, every strategy
    // Not a block size: the scans' staging (ScanStaging), passed beside single_pass.
    Relaxed<ScanStaging> scan_staging{ScanStaging::Auto};
};

// The process-wide course settings (block sizes and the scan's staging).
BlockSizes &block_sizes();

// The library's tuning as the course settings have it now: what the course units (and the harness
// groups that call the library) pass down.
Tuning course_tuning();
CallEnvironment course_environment(cudaStream_t stream = nullptr);

// Sets every implementation's block size. Throws std::invalid_argument unless `threads` is a
// power of two in [32, 1024].
void set_block_size(int threads);

// One line on which compiled tile policy (tuning/policies.h) the single-pass kernels run at
// `threads` threads a block: the tuned ones, or the kernels compiled for any block size; and when
// the scan is staged under `staging`.
std::string single_pass_policy_summary(int threads, ScanStaging staging);

}  // namespace StreamCompaction

// Course helpers, the timer's contract, error messages and block-size settings.
#include <gtest/gtest.h>

#include <stream_compaction/common.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/radix_sort_order.h>
#include <stream_compaction/tuning/block_sizes.h>
#include <stream_compaction/tuning/policies.h>

#include <string>
#include <type_traits>

namespace SC = StreamCompaction;

TEST(Ilog2, FloorAndCeil) {
    EXPECT_EQ(ilog2(1), 0);
    EXPECT_EQ(ilog2(2), 1);
    EXPECT_EQ(ilog2(3), 1);
    EXPECT_EQ(ilog2(1 << 30), 30);
    EXPECT_EQ(ilog2(INT_MAX), 30);
    EXPECT_EQ(ilog2ceil(1), 0);
    EXPECT_EQ(ilog2ceil(2), 1);
    EXPECT_EQ(ilog2ceil(3), 2);
    EXPECT_EQ(ilog2ceil(1 << 20), 20);
    EXPECT_EQ(ilog2ceil((1 << 20) + 1), 21);
    EXPECT_EQ(ilog2ceil(INT_MAX), 31);
    EXPECT_EQ(ilog2(0), 0);  // defined, and no endless loop on non-positive input
    EXPECT_EQ(ilog2(-8), 0);
}

TEST(PerformanceTimer, CpuTimerContract) {
    SC::Common::PerformanceTimer timer;
    EXPECT_THROW(timer.endCpuTimer(), std::runtime_error);
    timer.startCpuTimer();
    EXPECT_THROW(timer.startCpuTimer(), std::runtime_error);
    timer.endCpuTimer();
    EXPECT_EQ(timer.completedCpuTimings(), 1u);
    EXPECT_THROW(timer.endCpuTimer(), std::runtime_error);
    EXPECT_THROW(timer.endGpuTimer(), std::runtime_error);
    EXPECT_EQ(timer.completedCpuTimings(), 1u);  // a refused end is no timing
    EXPECT_EQ(timer.completedGpuTimings(), 0u);
    static_assert(!std::is_copy_constructible_v<SC::Common::PerformanceTimer>);
    static_assert(!std::is_copy_assignable_v<SC::Common::PerformanceTimer>);
}

// Whether an operation was timed is read from the counts: a timer never started, or started and not
// ended, has timed nothing, whatever time it reads (0 ms at first, the last timing's after).
TEST(PerformanceTimer, CountsOnlyCompletedTimings) {
    SC::Common::PerformanceTimer timer;
    EXPECT_EQ(timer.completedCpuTimings(), 0u);  // never started
    EXPECT_EQ(timer.completedGpuTimings(), 0u);
    timer.startCpuTimer();
    EXPECT_EQ(timer.completedCpuTimings(), 0u);  // started, never stopped
    timer.endCpuTimer();
    timer.startCpuTimer();
    EXPECT_EQ(timer.completedCpuTimings(), 1u);  // the second, still running, is not counted
    timer.endCpuTimer();
    EXPECT_EQ(timer.completedCpuTimings(), 2u);
    EXPECT_EQ(timer.completedGpuTimings(), 0u);  // the CPU timer's timings are not the GPU timer's
}

TEST(PerformanceTimer, UsableAgainAfterTimedWorkThrows) {
    SC::Common::PerformanceTimer timer;
    timer.startCpuTimer();  // the GPU timer's events need a device; abandon needs none
    timer.endCpuTimer();
    timer.abandonGpuTimer();
    EXPECT_THROW(timer.endGpuTimer(), std::runtime_error);
    EXPECT_EQ(timer.completedGpuTimings(), 0u);  // an abandoned timing is no timing
}

TEST(CudaError, MessageNamesErrorCallAndPlace) {
    try {
        SC::throw_cuda_error(cudaErrorInvalidValue, "cudaMemcpy(a, b, n, kind)", "naive.cu", 42);
        FAIL() << "no exception";
    } catch (const SC::cuda_error &e) {
        EXPECT_EQ(e.code(), cudaErrorInvalidValue);
        const std::string what = e.what();
        EXPECT_NE(what.find("naive.cu:42"), std::string::npos) << what;
        EXPECT_NE(what.find("cudaMemcpy(a, b, n, kind)"), std::string::npos) << what;
        EXPECT_NE(what.find("cudaErrorInvalidValue"), std::string::npos) << what;
    }
}

TEST(BlockSizes, ValidatedAndSettable) {
    const SC::BlockSizes saved = SC::block_sizes();
    EXPECT_THROW(SC::set_block_size(48), std::invalid_argument);
    EXPECT_THROW(SC::set_block_size(16), std::invalid_argument);
    EXPECT_THROW(SC::set_block_size(2048), std::invalid_argument);
    SC::set_block_size(256);
    EXPECT_EQ(SC::block_sizes().naive, 256);
    EXPECT_EQ(SC::block_sizes().efficient, 256);
    SC::block_sizes() = saved;
}

// The harness prints which compiled tile policy the single-pass kernels run at the block size set.
TEST(BlockSizes, SinglePassPolicySummaryNamesTheKernelsThatRun) {
    constexpr int tuned_threads = SC::kTunedTileThreads;
    static_assert(SC::kSelectPolicy.threads == tuned_threads, "one tuned block size for every tile kernel");
    static_assert(SC::scan_policy<int>().threads == tuned_threads, "one tuned block size for every tile kernel");
    static_assert(SC::by_key_policy(true).threads == tuned_threads, "one tuned block size for every tile kernel");
    EXPECT_EQ(SC::BlockSizes{}.single_pass, SC::kTunedTileThreads);  // the default runs the tuned kernels
    const std::string tuned = SC::single_pass_policy_summary(SC::kTunedTileThreads);
    EXPECT_NE(tuned.find("tuned for 256 threads"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("select and partition 5"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("(8-byte)"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("staged in shared memory by bulk copies"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("select_if, select_flagged and unique 7 and 7"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("reduce_by_key 5 and 5, run_length_encode 7 and 5)"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("from 0.5 / 1.0 / 0.4 of a wave of tiles"), std::string::npos) << tuned;  // ScanStaging::Auto
    const std::string generic = SC::single_pass_policy_summary(128);
    EXPECT_NE(generic.find("compiled for any block size"), std::string::npos) << generic;
}

// The scan's staging is a setting beside the block sizes: Auto by default, copied and restored with
// them (the GPU tests' fixture relies on it).
TEST(BlockSizes, ScanStagingDefaultsToAutoAndTravelsWithTheBlockSizes) {
    EXPECT_EQ(SC::BlockSizes{}.scan_staging, SC::ScanStaging::Auto);
    const SC::BlockSizes saved = SC::block_sizes();
    SC::block_sizes().scan_staging = SC::ScanStaging::Portable;
    EXPECT_NE(SC::single_pass_policy_summary(SC::kTunedTileThreads).find("portable kernel forced"), std::string::npos);
    SC::block_sizes() = saved;
    EXPECT_EQ(SC::block_sizes().scan_staging, saved.scan_staging);
}

// The look-back sleeps only in launches of several waves of resident blocks: a launch that fits
// the GPU about at once looks back without pause.
TEST(LookBackDelay, SleepsOnlyFromThreeWavesOfResidentBlocksOn) {
    constexpr SC::LookBackDelay tuned{2500, 650};
    constexpr std::size_t resident = 792;  // 6 blocks an SM, 132 SMs
    static_assert(SC::kLookBackDelayMinWaves == 3, "the tests below assume 3 waves");
    for (const std::size_t tiles : {std::size_t{0}, std::size_t{1}, resident, 3 * resident - 1}) {
        const SC::LookBackDelay delay = SC::look_back_delay(tuned, tiles, resident);
        EXPECT_EQ(delay.first_ns, 0u) << tiles << " tiles";
        EXPECT_EQ(delay.poll_ns, 0u) << tiles << " tiles";
    }
    for (const std::size_t tiles : {3 * resident, std::size_t{65536}}) {
        const SC::LookBackDelay delay = SC::look_back_delay(tuned, tiles, resident);
        EXPECT_EQ(delay.first_ns, tuned.first_ns) << tiles << " tiles";
        EXPECT_EQ(delay.poll_ns, tuned.poll_ns) << tiles << " tiles";
    }
}

// A radix sort's compared bits: [begin_bit, end_bit) of the key's image; a bad range is refused.
TEST(RadixSortOrder, ComparedBitsAndBadRanges) {
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{}, "sort"), 0xffffffffu);
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{true, 0, 8}, "sort"), 0xffu);
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{false, 4, 20}, "sort"), 0x000ffff0u);
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{false, 31, 32}, "sort"), 0x80000000u);
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{false, 1, 32}, "sort"), 0xfffffffeu);
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{false, 5, 5}, "sort"), 0u);  // nothing compared
    // 64-bit keys: the default range is all 64 bits.
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{}, "sort", 64), ~std::uint64_t{0});
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{true, 40}, "sort", 64), 0xffffff0000000000ull);
    EXPECT_EQ(SC::radix_compared_bits(SC::RadixSortOrder{false, 0, 33}, "sort", 64), 0x1ffffffffull);
    EXPECT_THROW(SC::radix_compared_bits(SC::RadixSortOrder{false, 0, 65}, "sort", 64), std::invalid_argument);
    for (const SC::RadixSortOrder &bad : {SC::RadixSortOrder{false, -1, 8}, SC::RadixSortOrder{false, 9, 8},
                                          SC::RadixSortOrder{false, 0, 33}}) {
        try {
            SC::radix_compared_bits(bad, "radix_sort_keys");
            ADD_FAILURE() << "accepted [" << bad.begin_bit << ", " << bad.end_bit << ")";
        } catch (const std::invalid_argument &e) {
            EXPECT_NE(std::string(e.what()).find("radix_sort_keys: bit range"), std::string::npos) << e.what();
        }
    }
}

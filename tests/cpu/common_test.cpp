// Course helpers, the timer's contract, error messages, block-size settings, and the call
// environment (its tuning, its memory resource) as far as it goes without a device.
#include <gtest/gtest.h>

#include <stream_compaction/common.h>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/memory_resource.h>
#include <stream_compaction/support/radix_sort_order.h>
#include <stream_compaction/tuning/block_sizes.h>
#include <stream_compaction/tuning/call_tuning.h>
#include <stream_compaction/tuning/policies.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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
    EXPECT_EQ(SC::kDefaultSinglePassThreads, SC::kTunedTileThreads);   // and so does a call's default
    const std::string tuned = SC::single_pass_policy_summary(SC::kTunedTileThreads, SC::ScanStaging::Auto);
    EXPECT_NE(tuned.find("tuned for 256 threads"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("select and partition 5"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("(8-byte)"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("staged in shared memory by bulk copies"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("select_if, select_flagged and unique 7 and 7"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("reduce_by_key 5 and 5, run_length_encode 7 and 5)"), std::string::npos) << tuned;
    EXPECT_NE(tuned.find("from 0.5 / 1.0 / 0.4 of a wave of tiles"), std::string::npos) << tuned;  // ScanStaging::Auto
    const std::string generic = SC::single_pass_policy_summary(128, SC::ScanStaging::Auto);
    EXPECT_NE(generic.find("compiled for any block size"), std::string::npos) << generic;
    // The staging named is the one given, at the tuned block size.
    const std::string staged = SC::single_pass_policy_summary(SC::kTunedTileThreads, SC::ScanStaging::Staged);
    EXPECT_NE(staged.find("): always"), std::string::npos) << staged;
    const std::string portable = SC::single_pass_policy_summary(SC::kTunedTileThreads, SC::ScanStaging::Portable);
    EXPECT_NE(portable.find("portable kernel forced"), std::string::npos) << portable;
}

// The scan's staging is a course setting beside the block sizes: Auto by default, copied and
// restored with them (the GPU tests' fixture relies on it), and passed down by course_tuning().
TEST(BlockSizes, ScanStagingDefaultsToAutoAndTravelsWithTheBlockSizes) {
    EXPECT_EQ(SC::BlockSizes{}.scan_staging, SC::ScanStaging::Auto);
    const SC::BlockSizes saved = SC::block_sizes();
    SC::block_sizes().scan_staging = SC::ScanStaging::Portable;
    EXPECT_EQ(SC::course_tuning().scan_staging, SC::ScanStaging::Portable);
    EXPECT_NE(SC::single_pass_policy_summary(SC::kTunedTileThreads, SC::course_tuning().scan_staging)
                  .find("portable kernel forced"),
              std::string::npos);
    SC::block_sizes() = saved;
    EXPECT_EQ(SC::block_sizes().scan_staging, saved.scan_staging);
}

// ---- a call's tuning (support/call_environment.h, tuning/call_tuning.h) ----

// Every field 0 (the family's tuned block size) and the staging Auto: a default environment
// changes nothing.
TEST(Tuning, DefaultsAreTheFamiliesOwn) {
    const SC::Tuning tuning;
    EXPECT_EQ(tuning.single_pass, 0);
    EXPECT_EQ(tuning.radix, 0);
    EXPECT_EQ(tuning.segmented, 0);
    EXPECT_EQ(tuning.reduce, 0);
    EXPECT_EQ(tuning.scan_staging, SC::ScanStaging::Auto);
    // The course's defaults are the library's.
    const SC::BlockSizes course{};
    EXPECT_EQ(course.single_pass, SC::kDefaultSinglePassThreads);
    EXPECT_EQ(course.radix, SC::kDefaultRadixThreads);
    EXPECT_EQ(course.segmented, SC::kDefaultSegmentedThreads);
    EXPECT_EQ(course.reduce, SC::kDefaultReduceThreads);
}

TEST(Tuning, AFieldLeftZeroTakesTheFamilysDefault) {
    const SC::Tuning defaults;
    EXPECT_EQ(SC::single_pass_threads(defaults), SC::kDefaultSinglePassThreads);
    EXPECT_EQ(SC::segmented_threads(defaults), SC::kDefaultSegmentedThreads);
    EXPECT_EQ(SC::reduce_threads(defaults), SC::kDefaultReduceThreads);
    EXPECT_EQ(SC::radix_threads_asked(defaults), SC::kDefaultRadixThreads);
}

// A field set wins over the default, and only in its own family.
TEST(Tuning, AFieldSetWinsInItsFamilyOnly) {
    SC::Tuning tuning;
    tuning.single_pass = 512;
    EXPECT_EQ(SC::single_pass_threads(tuning), 512);
    EXPECT_EQ(SC::segmented_threads(tuning), SC::kDefaultSegmentedThreads);
    EXPECT_EQ(SC::reduce_threads(tuning), SC::kDefaultReduceThreads);
    EXPECT_EQ(SC::radix_threads_asked(tuning), SC::kDefaultRadixThreads);
    tuning.segmented = 32;
    tuning.reduce = 1024;
    tuning.radix = 96;  // a multiple of 32: the radix family checks its own (its register budget)
    EXPECT_EQ(SC::segmented_threads(tuning), 32);
    EXPECT_EQ(SC::reduce_threads(tuning), 1024);
    EXPECT_EQ(SC::radix_threads_asked(tuning), 96);
    EXPECT_EQ(SC::single_pass_threads(tuning), 512);
}

// A block size the kernels cannot take is refused, with the number in the message.
TEST(Tuning, AnInvalidBlockSizeIsRefused) {
    for (const int threads : {48, 16, 2048, -32, 1000}) {
        SCOPED_TRACE("block size " + std::to_string(threads));
        SC::Tuning single_pass, segmented, reduce;
        single_pass.single_pass = threads;
        segmented.segmented = threads;
        reduce.reduce = threads;
        EXPECT_THROW(SC::single_pass_threads(single_pass), std::invalid_argument);
        EXPECT_THROW(SC::segmented_threads(segmented), std::invalid_argument);
        EXPECT_THROW(SC::reduce_threads(reduce), std::invalid_argument);
        try {
            SC::single_pass_threads(single_pass);
        } catch (const std::invalid_argument &e) {
            EXPECT_NE(std::string(e.what()).find(std::to_string(threads)), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(SC::checked_block_size(32), 32);
    EXPECT_EQ(SC::checked_block_size(1024), 1024);
}

// The course units pass block_sizes() as it is at the call: course_tuning() follows each change.
TEST(Tuning, CourseTuningFollowsTheBlockSizes) {
    const SC::BlockSizes saved = SC::block_sizes();
    SC::block_sizes() = SC::BlockSizes{};
    SC::Tuning tuning = SC::course_tuning();
    EXPECT_EQ(tuning.single_pass, SC::kDefaultSinglePassThreads);
    EXPECT_EQ(tuning.radix, SC::kDefaultRadixThreads);
    EXPECT_EQ(tuning.segmented, SC::kDefaultSegmentedThreads);
    EXPECT_EQ(tuning.reduce, SC::kDefaultReduceThreads);
    EXPECT_EQ(tuning.scan_staging, SC::ScanStaging::Auto);

    SC::block_sizes().single_pass = 128;
    SC::block_sizes().radix = 64;
    SC::block_sizes().segmented = 512;
    SC::block_sizes().reduce = 32;
    SC::block_sizes().scan_staging = SC::ScanStaging::Staged;
    tuning = SC::course_tuning();
    EXPECT_EQ(tuning.single_pass, 128);
    EXPECT_EQ(tuning.radix, 64);
    EXPECT_EQ(tuning.segmented, 512);
    EXPECT_EQ(tuning.reduce, 32);
    EXPECT_EQ(tuning.scan_staging, SC::ScanStaging::Staged);

    SC::set_block_size(1024);
    tuning = SC::course_tuning();
    EXPECT_EQ(tuning.single_pass, 1024);
    EXPECT_EQ(tuning.radix, 512);  // set_block_size caps the radix sort's
    const SC::CallEnvironment course = SC::course_environment(nullptr);
    EXPECT_EQ(course.tuning.single_pass, 1024);
    EXPECT_EQ(course.memory, nullptr);
    SC::block_sizes() = saved;
}

// ---- the call environment and its memory (support/memory_resource.h), without a device ----

namespace {

// A stream handle never passed to CUDA: the tests only compare it.
cudaStream_t fakeStream(std::uintptr_t id) { return reinterpret_cast<cudaStream_t>(id); }

// Hands out host addresses that are never dereferenced, and records every call.
class CountingFakeResource final : public SC::MemoryResource {
public:
    struct Call {
        void *p;
        std::size_t bytes;
        cudaStream_t stream;
    };
    void *allocate(std::size_t bytes, cudaStream_t stream) override {
        void *p = reinterpret_cast<void *>(next_address_);
        next_address_ += 0x1000;
        allocations.push_back({p, bytes, stream});
        return p;
    }
    void deallocate(void *p, std::size_t bytes, cudaStream_t stream) noexcept override {
        deallocations.push_back({p, bytes, stream});
    }
    std::vector<Call> allocations, deallocations;

private:
    std::uintptr_t next_address_ = 0x10000;
};

SC::CallEnvironment passedThrough(const SC::CallEnvironment &env) { return env; }

}  // namespace

// `call(..., stream)` keeps compiling and changes nothing but the stream.
TEST(CallEnvironment, AStreamConvertsToAnEnvironmentOfDefaults) {
    static_assert(std::is_convertible_v<cudaStream_t, SC::CallEnvironment>, "a stream is an environment");
    const cudaStream_t stream = fakeStream(0x5000);
    const SC::CallEnvironment env = passedThrough(stream);
    EXPECT_EQ(env.stream, stream);
    EXPECT_EQ(env.tuning.single_pass, 0);
    EXPECT_EQ(env.tuning.radix, 0);
    EXPECT_EQ(env.tuning.segmented, 0);
    EXPECT_EQ(env.tuning.reduce, 0);
    EXPECT_EQ(env.tuning.scan_staging, SC::ScanStaging::Auto);
    EXPECT_EQ(env.memory, nullptr);

    const SC::CallEnvironment none;
    EXPECT_EQ(none.stream, nullptr);
    EXPECT_EQ(none.memory, nullptr);
}

TEST(CallEnvironment, MemoryResourceIsTheOneGivenElseStreamOrderedMemory) {
    const SC::CallEnvironment defaults(fakeStream(0x5000));
    EXPECT_EQ(&defaults.memory_resource(), &SC::stream_ordered_memory());
    EXPECT_EQ(&SC::stream_ordered_memory(), &SC::stream_ordered_memory());  // one resource for the process

    CountingFakeResource resource;
    SC::Tuning tuning;
    tuning.radix = 256;
    const SC::CallEnvironment tuned(fakeStream(0x6000), tuning, &resource);
    EXPECT_EQ(&tuned.memory_resource(), &resource);
    EXPECT_EQ(tuned.tuning.radix, 256);
    EXPECT_EQ(tuned.stream, fakeStream(0x6000));

    const SC::CallEnvironment pooled(fakeStream(0x7000), resource);
    EXPECT_EQ(&pooled.memory_resource(), &resource);
    EXPECT_EQ(pooled.tuning.radix, 0);
    EXPECT_EQ(pooled.stream, fakeStream(0x7000));
    EXPECT_TRUE(resource.allocations.empty()) << "naming a resource allocates nothing";
}

TEST(ResourceBuffer, AllocatesOnConstructionAndGivesBackOnceOnItsStream) {
    CountingFakeResource resource;
    const cudaStream_t stream = fakeStream(0x5000);
    void *p = nullptr;
    {
        const SC::ResourceBuffer buffer(resource, 1000, stream);
        ASSERT_EQ(resource.allocations.size(), 1u);
        EXPECT_EQ(resource.allocations[0].bytes, 1000u);
        EXPECT_EQ(resource.allocations[0].stream, stream);
        p = resource.allocations[0].p;
        EXPECT_EQ(buffer.get(), p);
        EXPECT_EQ(buffer.as<int>(), static_cast<int *>(p));
        EXPECT_EQ(buffer.bytes(), 1000u);
        EXPECT_TRUE(resource.deallocations.empty());
    }
    ASSERT_EQ(resource.deallocations.size(), 1u);
    EXPECT_EQ(resource.deallocations[0].p, p);
    EXPECT_EQ(resource.deallocations[0].bytes, 1000u);
    EXPECT_EQ(resource.deallocations[0].stream, stream);
    EXPECT_EQ(resource.allocations.size(), 1u);
}

TEST(ResourceBuffer, ZeroBytesAllocateNothing) {
    CountingFakeResource resource;
    {
        const SC::ResourceBuffer empty(resource, 0, fakeStream(0x5000));
        EXPECT_EQ(empty.get(), nullptr);
        EXPECT_EQ(empty.bytes(), 0u);
        const SC::ResourceBuffer unset;
        EXPECT_EQ(unset.get(), nullptr);
        EXPECT_EQ(unset.bytes(), 0u);
    }
    EXPECT_TRUE(resource.allocations.empty());
    EXPECT_TRUE(resource.deallocations.empty());
}

// A move hands the memory over: given back once, by the last owner, with the allocation's pointer,
// bytes and stream.
TEST(ResourceBuffer, MoveTransfersOwnership) {
    static_assert(!std::is_copy_constructible_v<SC::ResourceBuffer>, "one owner");
    static_assert(!std::is_copy_assignable_v<SC::ResourceBuffer>, "one owner");
    static_assert(std::is_nothrow_move_constructible_v<SC::ResourceBuffer>, "movable into containers");
    CountingFakeResource resource;
    const cudaStream_t stream = fakeStream(0x5000);
    {
        SC::ResourceBuffer first(resource, 256, stream);
        void *const p = first.get();
        SC::ResourceBuffer second(std::move(first));
        EXPECT_EQ(second.get(), p);
        EXPECT_EQ(second.bytes(), 256u);
        EXPECT_EQ(first.get(), nullptr);  // the moved-from buffer holds nothing
        {
            const SC::ResourceBuffer third(std::move(second));
            EXPECT_EQ(third.get(), p);
        }
        ASSERT_EQ(resource.deallocations.size(), 1u) << "the last owner gives it back as it goes";
        EXPECT_EQ(resource.deallocations[0].p, p);
        EXPECT_EQ(resource.deallocations[0].bytes, 256u);
        EXPECT_EQ(resource.deallocations[0].stream, stream);
    }
    EXPECT_EQ(resource.allocations.size(), 1u);
    EXPECT_EQ(resource.deallocations.size(), 1u) << "the moved-from owners give back nothing";
}

// Assigning over a buffer gives back what it held, then holds the other's.
TEST(ResourceBuffer, MoveAssignmentGivesBackWhatItHeld) {
    CountingFakeResource resource;
    const cudaStream_t first_stream = fakeStream(0x5000), second_stream = fakeStream(0x6000);
    {
        SC::ResourceBuffer target(resource, 100, first_stream);
        SC::ResourceBuffer source(resource, 200, second_stream);
        void *const held = target.get();
        void *const moved = source.get();
        target = std::move(source);
        ASSERT_EQ(resource.deallocations.size(), 1u);
        EXPECT_EQ(resource.deallocations[0].p, held);
        EXPECT_EQ(resource.deallocations[0].bytes, 100u);
        EXPECT_EQ(resource.deallocations[0].stream, first_stream);
        EXPECT_EQ(target.get(), moved);
        EXPECT_EQ(target.bytes(), 200u);
    }
    ASSERT_EQ(resource.deallocations.size(), 2u);
    EXPECT_EQ(resource.deallocations[1].bytes, 200u);
    EXPECT_EQ(resource.deallocations[1].stream, second_stream);
    EXPECT_EQ(resource.allocations.size(), 2u);
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

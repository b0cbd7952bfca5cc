// gpu_tests' main: GoogleTest's, but a run that skipped tests for want of a usable device, or whose
// every test skipped, exits 77, CTest's SKIP_RETURN_CODE, so that a command running many of them
// (gpu_tests.staged_scans) is reported Skipped, not Passed, on a machine without a GPU; and a binary
// that holds no code for the GPU says so in one line and exits 4 before any test, instead of
// failing every one of them.
#include <gtest/gtest.h>

#include "gpu_test_util.h"

#include <cstdio>

namespace {

constexpr int kExitSkipped = 77;

// RUN_ALL_TESTS's code, or 77 when it passed but skipped tests and no device is usable, or when
// every test it ran skipped (on a GPU too: CTest runs each discovered test alone, and one that
// skips for want of memory or of a second GPU did not run, so it must not be reported Passed). A
// run that skipped nothing keeps its 0: --gtest_list_tests (gtest_discover_tests) and a filter of
// tests that need no device pass. The device is probed only after a skip, so that listing makes no
// CUDA call.
int exitCodeForDevice(int gtestResult) {
    const ::testing::UnitTest &run = *::testing::UnitTest::GetInstance();
    const int skipped = run.skipped_test_count();
    if (gtestResult != 0 || skipped == 0) return gtestResult;
    if (skipped == run.test_to_run_count() || !device().usable) return kExitSkipped;
    return gtestResult;
}

}  // namespace

int main(int argc, char **argv) {
    ::testing::InitGoogleTest(&argc, argv);
    // Listing (gtest_discover_tests) makes no CUDA call.
    if (!::testing::GTEST_FLAG(list_tests) && device().usable && !device().no_code_for_device.empty()) {
        std::fprintf(stderr, "gpu_tests: %s\n", device().no_code_for_device.c_str());
        return StreamCompaction::kExitNoCodeForDevice;
    }
    return exitCodeForDevice(RUN_ALL_TESTS());
}

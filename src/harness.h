#pragma once
// Runs the harness's tests: selection by group, pass/fail/skip counts, and the rule that a GPU
// test without a usable device prints "skipped", never "passed", and makes the run exit with
// kExitGpuSkipped rather than kExitPassed.
#include <stream_compaction/support/device_probe.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>
#include <string>
#include <vector>

using StreamCompaction::DeviceStatus;

// The harness's exit codes (usage() in cli.cpp documents them).
enum HarnessExit : int {
    kExitPassed = 0,       // every selected test ran and passed
    kExitFailed = 1,       // a test failed (or the run stopped on an error)
    kExitUsage = 2,        // bad command line, or a --matrix file that cannot be used
    kExitGpuSkipped = 77,  // nothing failed, but GPU tests were skipped: no usable device. 77 is
                           // the "skipped" code of CTest's SKIP_RETURN_CODE and of Automake.
};

class Harness {
public:
    Harness(std::vector<std::string> only, DeviceStatus device) : only_(std::move(only)), device_(std::move(device)) {}

    bool selected(const std::string &group) const {
        return only_.empty() || std::find(only_.begin(), only_.end(), group) != only_.end();
    }

    // `body` prints its timing and comparison and returns whether the result was right.
    template <class Body>
    void cpuTest(const std::string &group, const char *desc, Body &&body) {
        if (selected(group)) run(desc, body);
    }

    template <class Body>
    void gpuTest(const std::string &group, const char *desc, Body &&body) {
        if (!selected(group)) return;
        if (!device_.usable) {
            std::printf("==== %s ====\n    skipped: %s\n", desc, device_.reason.c_str());
            ++skipped_;
            return;
        }
        run(desc, body);
    }

    bool deviceUsable() const { return device_.usable; }

    // A group this build left out (an optional dependency such as NCCL was missing). Asked for by
    // --only, it counts as skipped with `reason` (the run exits kExitGpuSkipped, not passed);
    // in a run of every group, one line says so and nothing is counted.
    void notBuilt(const std::string &group, const char *desc, const std::string &reason) {
        if (!selected(group)) return;
        if (only_.empty()) {
            std::printf("\n==== %s ====\n    not built: %s\n", desc, reason.c_str());
            return;
        }
        std::printf("\n==== %s ====\n    skipped: %s\n", desc, reason.c_str());
        ++skipped_;
        not_built_reason_ = reason;
    }

    // Prints "N passed, N failed, N skipped" and, when GPU tests were skipped, why; returns the
    // process exit code. A run whose GPU tests were skipped is not a pass: kExitGpuSkipped.
    int finish() const {
        std::printf("\n%d passed, %d failed, %d skipped\n", passed_, failed_, skipped_);
        if (failed_ > 0) return kExitFailed;
        if (skipped_ > 0) {
            std::printf("%d GPU tests did not run: %s (exit code %d)\n", skipped_,
                        device_.usable ? not_built_reason_.c_str() : device_.reason.c_str(), kExitGpuSkipped);
            return kExitGpuSkipped;
        }
        return kExitPassed;
    }

private:
    template <class Body>
    void run(const char *desc, Body &body) {
        std::printf("==== %s ====\n", desc);
        bool ok = false;
        try {
            ok = body();
        } catch (const std::exception &e) {
            std::printf("    FAIL: %s\n", e.what());
        }
        ++(ok ? passed_ : failed_);
        std::fflush(stdout);
    }

    std::vector<std::string> only_;
    DeviceStatus device_;
    std::string not_built_reason_;
    int passed_ = 0, failed_ = 0, skipped_ = 0;
};

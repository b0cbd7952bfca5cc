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
    // Every test of the selected groups in this build ran and passed. A run of every group (no
    // --only) passes without the groups this build left out, naming each on one line: leaving out
    // `distributed` where NCCL is missing is how the build is configured, not a failed test, and
    // a student's default run on a machine without NCCL must not read as a failure.
    kExitPassed = 0,
    kExitFailed = 1,    // a test failed (or the run stopped on an error)
    kExitUsage = 2,     // bad command line, or a --matrix file that cannot be used
    kExitNotBuilt = 3,  // --only asked for a group this build left out: refused before any test ran
    kExitNoCodeForDevice = StreamCompaction::kExitNoCodeForDevice,  // 4: built for other GPUs; no test ran
    kExitGpuSkipped = 77,  // nothing failed, but GPU tests were skipped: no usable device. 77 is
                           // the "skipped" code of CTest's SKIP_RETURN_CODE and of Automake.
};

// A group this build left out for want of an optional dependency (`distributed` without NCCL):
// its name, and one line saying why and how to build it.
struct GroupNotBuilt {
    std::string name;
    std::string reason;
};

// The groups this build left out. Each group's stand-in file (distributed_not_built.cpp) adds it
// by defining a LeftOutOfThisBuild at namespace scope, so the list is complete before main starts
// and main can refuse `--only distributed` before any test runs.
const std::vector<GroupNotBuilt> &groupsNotBuilt();

struct LeftOutOfThisBuild {
    LeftOutOfThisBuild(std::string name, std::string reason);
};

// The one-line error for the first group of `only` (--only's list) that `notBuilt` holds, naming
// the group, why it is left out and how to build it; empty when every group asked for is built.
std::string notBuiltError(const std::vector<std::string> &only, const std::vector<GroupNotBuilt> &notBuilt);

class Harness {
public:
    // `notBuilt`: the groups this build left out (groupsNotBuilt()); finish() names the selected ones.
    Harness(std::vector<std::string> only, DeviceStatus device, std::vector<GroupNotBuilt> notBuilt)
        : only_(std::move(only)), device_(std::move(device)), not_built_(std::move(notBuilt)) {}

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

    // Prints "N passed, N failed, N skipped", a line for each selected group this build left out,
    // and, when GPU tests were skipped, why; returns the process exit code. A run whose GPU tests
    // were skipped is not a pass: kExitGpuSkipped. The groups left out change no exit code
    // (kExitPassed says why); main refuses them before this when --only names them.
    int finish() const {
        std::printf("\n%d passed, %d failed, %d skipped\n", passed_, failed_, skipped_);
        for (const GroupNotBuilt &group : not_built_)
            if (selected(group.name))
                std::printf("%s: not in this build, not run: %s\n", group.name.c_str(), group.reason.c_str());
        if (failed_ > 0) return kExitFailed;
        if (skipped_ > 0) {
            std::printf("%d GPU tests did not run: %s (exit code %d)\n", skipped_, device_.reason.c_str(),
                        kExitGpuSkipped);
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
    std::vector<GroupNotBuilt> not_built_;
    int passed_ = 0, failed_ = 0, skipped_ = 0;
};

#pragma once
// Runs the harness's tests: selection by group, pass/fail/skip counts, and the rule that a GPU
// test without a usable device prints "skipped", never "passed".
#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>
#include <string>
#include <vector>

// Whether CUDA work can run here; when not, why.
struct DeviceStatus {
    bool usable = false;
    std::string reason;       // e.g. "no CUDA-capable device is detected"
    std::string description;  // e.g. "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.1 GiB"
};
DeviceStatus probeDevice();

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
            std::printf("==== %s ====\n    skipped: no CUDA device (%s)\n", desc, device_.reason.c_str());
            ++skipped_;
            return;
        }
        run(desc, body);
    }

    // Prints "N passed, N failed, N skipped"; returns the process exit code.
    int finish() const {
        std::printf("\n%d passed, %d failed, %d skipped\n", passed_, failed_, skipped_);
        return failed_ > 0 ? 1 : 0;
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
    int passed_ = 0, failed_ = 0, skipped_ = 0;
};

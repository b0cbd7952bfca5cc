#pragma once
// Shared by the GPU tests: skip without a device, fresh random inputs, the CPU reference.
#include <gtest/gtest.h>

#include "harness.h"

#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/tuning/block_sizes.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

inline const DeviceStatus &device() {
    static const DeviceStatus status = StreamCompaction::probe_device();
    return status;
}

#define SKIP_WITHOUT_GPU()                                                        \
    do {                                                                          \
        if (!device().usable) GTEST_SKIP() << device().reason;                   \
    } while (0)

// SC_SCAN_STAGING=staged or =portable forces the scans' staging in the tests: CTest's
// gpu_tests.staged_scans runs the graph, alignment, concurrency and shape suites (and others) with
// the staged scan on their small inputs. Unset: the default (Auto). The device-API calls of those
// suites get it through testEnv(), the course units through block_sizes() (set by the fixture
// below).
//
// The staging SC_SCAN_STAGING asks for; Auto where it is unset, or not one of the two (the
// fixture fails the test then).
inline StreamCompaction::ScanStaging scanStagingFromEnvironment() {
    const char *value = std::getenv("SC_SCAN_STAGING");
    const std::string staging = value != nullptr ? value : "";
    if (staging == "staged") return StreamCompaction::ScanStaging::Staged;
    if (staging == "portable") return StreamCompaction::ScanStaging::Portable;
    return StreamCompaction::ScanStaging::Auto;
}

// For the course units, which read the course's block_sizes().
inline void applyScanStagingFromEnvironment() {
    const char *value = std::getenv("SC_SCAN_STAGING");
    if (value == nullptr) return;
    const StreamCompaction::ScanStaging staging = scanStagingFromEnvironment();
    if (staging == StreamCompaction::ScanStaging::Auto)
        ADD_FAILURE() << "SC_SCAN_STAGING must be staged or portable, not '" << value << "'";
    else StreamCompaction::block_sizes().scan_staging = staging;
}

// The environment of a device-API call in a test: `stream` and `tuning`, with the staging that
// SC_SCAN_STAGING asks for where `tuning` leaves it Auto (a test that sets one keeps it).
inline StreamCompaction::CallEnvironment testEnv(cudaStream_t stream = nullptr, StreamCompaction::Tuning tuning = {}) {
    if (tuning.scan_staging == StreamCompaction::ScanStaging::Auto) tuning.scan_staging = scanStagingFromEnvironment();
    return StreamCompaction::CallEnvironment{stream, tuning};
}
inline StreamCompaction::CallEnvironment testEnv(const StreamCompaction::Tuning &tuning) {
    return testEnv(nullptr, tuning);
}

// A tuning that sets one family's block size (a field of Tuning) and leaves the rest to the defaults.
inline StreamCompaction::Tuning tuningWith(int StreamCompaction::Tuning::*blockSize, int threads) {
    StreamCompaction::Tuning tuning;
    tuning.*blockSize = threads;
    return tuning;
}

// A family's two kernels' block sizes, which every case of the iterator tests runs at: the tuned
// one (the defaults) and `generic` threads in the family's field, where the kernel compiled for any
// block size runs.
inline std::vector<StreamCompaction::Tuning> tunedAndGeneric(int StreamCompaction::Tuning::*blockSize,
                                                             int generic = 128) {
    return {StreamCompaction::Tuning{}, tuningWith(blockSize, generic)};
}

// The fixture of GPU test suites: skips without a device, and gives back the course's block sizes
// that a test changed, so that no test runs with another's.
class GpuTest : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = StreamCompaction::block_sizes();
        applyScanStagingFromEnvironment();
        SKIP_WITHOUT_GPU();
    }
    void TearDown() override { StreamCompaction::block_sizes() = saved_; }

private:
    StreamCompaction::BlockSizes saved_;
};

// The input shapes every implementation is checked on.
// HalfZeros: compaction keeps about half.
enum class Fill { Random, Zeros, NoZeros, Negatives, HalfZeros };

inline std::vector<int> makeInput(std::size_t n, Fill fill, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> small(-1000, 1000), positive(1, 1000), negative(-1000, -1);
    std::bernoulli_distribution coin(0.5);
    std::vector<int> v(n);
    for (int &x : v) {
        switch (fill) {
        case Fill::Random: x = small(rng); break;
        case Fill::Zeros: x = 0; break;
        case Fill::NoZeros: x = positive(rng); break;
        case Fill::Negatives: x = negative(rng); break;
        case Fill::HalfZeros: x = coin(rng) ? small(rng) : 0; break;
        }
    }
    return v;
}

// n = 0, 1, 2, 3, and powers of two with their neighbours up to 2^16.
inline std::vector<std::size_t> edgeSizes() {
    std::vector<std::size_t> sizes = {0, 1, 2, 3};
    for (std::size_t p = 4; p <= (1u << 16); p *= 4) {
        sizes.push_back(p - 1);
        sizes.push_back(p);
        sizes.push_back(p + 1);
    }
    return sizes;
}

inline std::uint32_t freshSeed() {
    static std::random_device device;
    return device();
}

#pragma once
// Shared by the GPU tests: skip without a device, fresh random inputs, the CPU reference.
#include <gtest/gtest.h>

#include "harness.h"

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

// SC_SCAN_STAGING=staged or =portable forces the scan's staging (block_sizes.h) in every test of a
// fixture below: CTest's gpu_tests.staged_scans runs the graph, alignment, concurrency and shape
// suites with the staged scan on their small inputs. Unset: the default (Auto).
inline void applyScanStagingFromEnvironment() {
    const char *value = std::getenv("SC_SCAN_STAGING");
    if (value == nullptr) return;
    const std::string staging = value;
    if (staging == "staged") StreamCompaction::block_sizes().scan_staging = StreamCompaction::ScanStaging::Staged;
    else if (staging == "portable") StreamCompaction::block_sizes().scan_staging = StreamCompaction::ScanStaging::Portable;
    else ADD_FAILURE() << "SC_SCAN_STAGING must be staged or portable, not '" << staging << "'";
}

// The fixture of GPU test suites: skips without a device, and gives back the block sizes that a
// test changed, so that no test runs with another's.
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

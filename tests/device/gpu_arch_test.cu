// The paths that need sm_90 -- tiles staged by bulk copies, one-cluster reductions, programmatic
// dependent launches -- are taken by what each kernel was compiled for (its PTX version), never by
// the device alone: a build for compute_75 or compute_80, JIT-compiled on an H100, has no body in
// those kernels. This suite runs in every build; tools/gpu_check.sh (phase arch) also runs the
// whole GPU suite from a compute_75 build on the H100, where these tests take their other branch.
#include <gtest/gtest.h>

#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/scan/kernels.cuh>
#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/support/device_buffer.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
using namespace robustness;

namespace {

__global__ void writeBlockNumbers(int *out) {
    if (threadIdx.x == 0) out[blockIdx.x] = static_cast<int>(blockIdx.x) + 1;
}

struct IsNegative {
    __host__ __device__ bool operator()(int x) const { return x < 0; }
};

int ptxVersion(const void *kernel) {
    cudaFuncAttributes attributes{};
    SC_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    return attributes.ptxVersion;
}

template <class T>
SC::DeviceBuffer<T> poisonedBuffer(std::size_t n) {
    SC::DeviceBuffer<T> buffer(n);
    poison(0, buffer.get(), n * sizeof(T));
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    return buffer;
}

// Runs of 1 to 4 equal keys.
std::vector<int> runsOfKeys(std::size_t n, std::mt19937 &rng) {
    std::vector<int> keys(n);
    std::uniform_int_distribution<int> length(1, 4), key(-1000, 1000);
    for (std::size_t i = 0; i < n;) {
        const int k = key(rng);
        for (int j = length(rng); j > 0 && i < n; --j) keys[i++] = k;
    }
    return keys;
}

class GpuArch : public GpuTest {};

}  // namespace

// The choice reads the kernel's PTX version: the library's staged scan and this file's own kernel
// agree with what CUDA reports for them (90 in an sm_90 build, 75 in a compute_75 one on any GPU).
TEST_F(GpuArch, CompiledForSm90IsTheKernelsPtxVersion) {
    const void *staged = reinterpret_cast<const void *>(SC::detail::staged_scan_kernel<int, SC::Sum, true>);
    const void *local = reinterpret_cast<const void *>(writeBlockNumbers);
    EXPECT_EQ(SC::detail::kernel_compiled_for_sm90(staged), ptxVersion(staged) >= 90);
    EXPECT_EQ(SC::detail::kernel_compiled_for_sm90(local), ptxVersion(local) >= 90);
    RecordProperty("ptx_version", ptxVersion(local));
}

// Staging asked for at sizes past every staging threshold: where the kernels were compiled without
// it, the portable kernels run, and every result is still right (before, an empty kernel ran and
// left the outputs as they were).
TEST_F(GpuArch, StagedScansAskedForAreRightWhereverCompiled) {
    SC::Tuning tuning;
    tuning.scan_staging = SC::ScanStaging::Staged;
    const SC::CallEnvironment staged = testEnv(tuning);
    std::mt19937 rng(freshSeed());
    const std::size_t n = (std::size_t{1} << 22) + 5;
    const std::vector<int> keys = runsOfKeys(n, rng);
    auto d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n);
    SC::DeviceBuffer<char> d_temp(std::max({SC::scan_temp_bytes<int>(n), SC::select_temp_bytes<int>(n),
                                            SC::unique_temp_bytes<int>(n), SC::reduce_by_key_temp_bytes<int, int>(n),
                                            SC::run_length_encode_temp_bytes<int>(n)}));
    const std::size_t bytes = d_temp.size();

    auto d_out = poisonedBuffer<int>(n);
    SC::exclusive_scan(d_keys.get(), d_out.get(), n, SC::Sum{}, 0, d_temp.get(), bytes, staged);
    EXPECT_EQ(download(d_out.get(), n), referenceExclusiveScan(keys, SC::Sum{}, 0)) << "exclusive_scan";

    d_out = poisonedBuffer<int>(n);
    auto d_count = poisonedBuffer<std::size_t>(1);
    SC::select_if(d_keys.get(), d_out.get(), d_count.get(), n, IsNegative{}, d_temp.get(), bytes, staged);
    std::vector<int> negatives;
    std::copy_if(keys.begin(), keys.end(), std::back_inserter(negatives), IsNegative{});
    ASSERT_EQ(download(d_count.get(), 1)[0], negatives.size()) << "select_if count";
    EXPECT_EQ(download(d_out.get(), negatives.size()), negatives) << "select_if";

    std::vector<int> firsts(keys);
    firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
    d_out = poisonedBuffer<int>(n);
    d_count = poisonedBuffer<std::size_t>(1);
    SC::unique(d_keys.get(), d_out.get(), d_count.get(), n, SC::EqualTo{}, d_temp.get(), bytes, staged);
    ASSERT_EQ(download(d_count.get(), 1)[0], firsts.size()) << "unique count";
    EXPECT_EQ(download(d_out.get(), firsts.size()), firsts) << "unique";

    std::vector<int> lengths;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) lengths.push_back(0);
        ++lengths.back();
    }
    d_out = poisonedBuffer<int>(n);
    auto d_lengths = poisonedBuffer<int>(n);
    d_count = poisonedBuffer<std::size_t>(1);
    SC::run_length_encode(d_keys.get(), d_out.get(), d_lengths.get(), d_count.get(), n, d_temp.get(), bytes, staged);
    ASSERT_EQ(download(d_count.get(), 1)[0], firsts.size()) << "run_length_encode count";
    EXPECT_EQ(download(d_out.get(), firsts.size()), firsts) << "run_length_encode keys";
    EXPECT_EQ(download(d_lengths.get(), firsts.size()), lengths) << "run_length_encode lengths";

    // Every value one: each run's sum is its length.
    const std::vector<int> ones(n, 1);
    auto d_ones = SC::DeviceBuffer<int>::from_host(ones.data(), n);
    d_out = poisonedBuffer<int>(n);
    auto d_sums = poisonedBuffer<int>(n);
    d_count = poisonedBuffer<std::size_t>(1);
    SC::reduce_by_key(d_keys.get(), d_ones.get(), d_out.get(), d_sums.get(), d_count.get(), n, SC::Sum{},
                      SC::EqualTo{}, d_temp.get(), bytes, staged);
    ASSERT_EQ(download(d_count.get(), 1)[0], firsts.size()) << "reduce_by_key count";
    EXPECT_EQ(download(d_out.get(), firsts.size()), firsts) << "reduce_by_key keys";
    EXPECT_EQ(download(d_sums.get(), firsts.size()), lengths) << "reduce_by_key sums";
}

// Sums of a few tiles: one thread block cluster where the kernel was compiled for sm_90, the
// striped kernel with the last block's combine otherwise; right either way.
TEST_F(GpuArch, ReductionsOfAFewTilesAreRightWhereverCompiled) {
    std::mt19937 rng(freshSeed());
    for (std::size_t n : {10000, 60000, 131072, 131073}) {
        const std::vector<int> in = randomInts(n, rng);
        auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
        auto d_out = poisonedBuffer<int>(1);
        const std::size_t bytes = SC::reduce_temp_bytes<int>(n);
        SC::DeviceBuffer<char> d_temp(bytes);
        SC::reduce(d_in.get(), d_out.get(), n, SC::Sum{}, 0, d_temp.get(), bytes);
        EXPECT_EQ(download(d_out.get(), 1)[0], std::accumulate(in.begin(), in.end(), 0)) << "n = " << n;
    }
}

// A one-cluster launch of a kernel compiled for an older GPU is refused before anything is
// enqueued, naming the kernel; compiled for sm_90, it runs.
TEST_F(GpuArch, OneClusterLaunchNeedsTheKernelCompiledForSm90) {
    constexpr unsigned kBlocks = 4;
    const void *kernel = reinterpret_cast<const void *>(writeBlockNumbers);
    auto d_out = poisonedBuffer<int>(kBlocks);
    const auto launch = [&] {
        SC::detail::launch_one_cluster(writeBlockNumbers, "writeBlockNumbers", kBlocks, 32, 0, 0, d_out.get());
    };
    if (SC::detail::kernel_compiled_for_sm90(kernel)) {
        launch();
        EXPECT_EQ(download(d_out.get(), kBlocks), (std::vector<int>{1, 2, 3, 4}));
        return;
    }
    try {
        launch();
        FAIL() << "launch_one_cluster launched a kernel compiled for compute_" << ptxVersion(kernel);
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find("writeBlockNumbers"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("sm_90"), std::string::npos) << e.what();
    }
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(stillPoisoned(d_out.get(), kBlocks * sizeof(int))) << "a refused launch wrote its output";
}

// A dependent launch checks its configuration like every launch (prepare_launch), on either path:
// a block size over the kernel's limit is refused with std::invalid_argument, nothing enqueued.
TEST_F(GpuArch, DependentLaunchRefusesABadBlockSizeFirst) {
    auto d_out = poisonedBuffer<int>(1);
    EXPECT_THROW(SC::detail::launch_dependent(writeBlockNumbers, "writeBlockNumbers", 1, 2048, 0, 0, d_out.get()),
                 std::invalid_argument);
    SC_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(stillPoisoned(d_out.get(), sizeof(int))) << "a refused launch wrote its output";
}

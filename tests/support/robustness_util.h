#pragma once
// Shared by the robustness GPU tests (graphs, concurrency, alignment, shapes, operators): streams
// and graphs that clean up after themselves, waits that give up instead of hanging, stream-ordered
// uploads and poisoning, random segmentations, CPU references, and the judgement of a call that
// may refuse its configuration. Include from .cu files only (it launches a kernel).
#include <gtest/gtest.h>

#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/call_tuning.h>

#include "gpu_test_util.h"
#include "reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace robustness {

namespace SC = StreamCompaction;

constexpr int kPoisonByte = 0xA5;

// ---- a device that a timed-out test left busy ----

// Set when a test gave up waiting on a kernel that never finished: the device is then still
// running it, so any later synchronizing call (cudaFree included) would hang. Tests of these
// files skip from then on; under ctest every test runs in its own process, so none is affected.
inline bool &deviceWedged() {
    static bool wedged = false;
    return wedged;
}

// GpuTest, and a skip when an earlier test of this process left the device busy.
class RobustGpuTest : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        if (IsSkipped()) return;
        if (deviceWedged()) GTEST_SKIP() << "an earlier test of this process left a kernel running (it timed out)";
    }
};

// ---- device memory a test can abandon ----

// Device allocations (poisoned when made) and objects that own device memory, freed in reverse
// order at the end of the test, unless abandon() was called: a test that gave up waiting on a
// kernel must not free, since cudaFree waits for the device.
class DeviceArena {
public:
    DeviceArena() = default;
    DeviceArena(const DeviceArena &) = delete;
    DeviceArena &operator=(const DeviceArena &) = delete;
    ~DeviceArena() {
        if (abandoned_) return;
        for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) (*it)();
    }

    template <class T>
    T *make(std::size_t count) {
        void *p = nullptr;
        const std::size_t bytes = std::max<std::size_t>(count * sizeof(T), 1);
        SC_CUDA_CHECK(cudaMalloc(&p, bytes));
        cleanups_.push_back([p] { cudaFree(p); });
        // cudaMemset may return before it is done, and the tests' streams do not wait for the
        // legacy stream it runs on: without the wait the poison could land after a test's upload.
        SC_CUDA_CHECK(cudaMemset(p, kPoisonByte, bytes));
        SC_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
        return static_cast<T *>(p);
    }

    // Takes an object that frees device memory when destroyed (a DeviceCsr, an Spmv).
    template <class T>
    T &own(std::unique_ptr<T> object) {
        T *raw = object.release();
        cleanups_.push_back([raw] { delete raw; });
        return *raw;
    }

    void abandon() noexcept { abandoned_ = true; }

private:
    std::vector<std::function<void()>> cleanups_;
    bool abandoned_ = false;
};

// ---- streams and graphs ----

// A non-blocking stream (no implicit order with the legacy default stream). release() leaves it
// undestroyed, for a test that gives up on work still running there.
class Stream {
public:
    Stream() { SC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~Stream() {
        if (stream_ != nullptr) cudaStreamDestroy(stream_);
    }
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    cudaStream_t get() const noexcept { return stream_; }
    operator cudaStream_t() const noexcept { return stream_; }
    void release() noexcept { stream_ = nullptr; }

private:
    cudaStream_t stream_ = nullptr;
};

// An instantiated graph.
class GraphExec {
public:
    GraphExec() = default;
    explicit GraphExec(cudaGraphExec_t exec) : exec_(exec) {}
    GraphExec(GraphExec &&other) noexcept : exec_(other.exec_) { other.exec_ = nullptr; }
    GraphExec &operator=(GraphExec &&other) noexcept {
        std::swap(exec_, other.exec_);
        return *this;
    }
    GraphExec(const GraphExec &) = delete;
    GraphExec &operator=(const GraphExec &) = delete;
    ~GraphExec() {
        if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    }
    void launch(cudaStream_t stream) const { SC_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }
    void release() noexcept { exec_ = nullptr; }

private:
    cudaGraphExec_t exec_ = nullptr;
};

// Records what `body(stream)` enqueues on `stream` into a graph and instantiates it: nothing runs.
// If body throws, the capture is ended (and its graph dropped) before the exception goes on, so
// the stream is usable again.
template <class Body>
GraphExec captureGraph(cudaStream_t stream, Body body, cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal) {
    SC_CUDA_CHECK(cudaStreamBeginCapture(stream, mode));
    try {
        body(stream);
    } catch (...) {
        cudaGraph_t partial = nullptr;
        cudaStreamEndCapture(stream, &partial);
        if (partial != nullptr) cudaGraphDestroy(partial);
        cudaGetLastError();  // the capture's failure is reported by the exception
        throw;
    }
    cudaGraph_t graph = nullptr;
    SC_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t status = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    SC_CUDA_CHECK(status);
    return GraphExec(exec);
}

// ---- bounded waits ----

// Waits for everything enqueued on `stream` by polling cudaStreamQuery, for at most `seconds`.
// Failure names `what`, and on a timeout says that a kernel is still running and sets
// deviceWedged(): the caller must then leave without freeing anything (a free would wait).
inline ::testing::AssertionResult finishesWithin(cudaStream_t stream, double seconds, const std::string &what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
        const cudaError_t status = cudaStreamQuery(stream);
        if (status == cudaSuccess) return ::testing::AssertionSuccess();
        if (status != cudaErrorNotReady)
            return ::testing::AssertionFailure() << what << ": " << cudaGetErrorName(status) << " ("
                                                 << cudaGetErrorString(status) << ")";
        if (std::chrono::steady_clock::now() > deadline) {
            deviceWedged() = true;
            return ::testing::AssertionFailure()
                   << what << ": still running after " << seconds
                   << " s. A hang here is the failure this test looks for (kernels waiting forever on look-back "
                      "status that a concurrent or replayed launch overwrote). The kernel is left running; later "
                      "tests of this process are skipped.";
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

// ---- graph replay ----

constexpr int kGraphReplays = 3;
constexpr double kReplaySeconds = 20;  // far above any replay's time: past it, a replay hangs

struct NothingBetween {
    void operator()(cudaStream_t) const {}
};

// Captures `launch(stream)` once on a fresh stream, then replays it kGraphReplays times: before each
// replay `refresh(stream)` writes new inputs and poisons the outputs (on the stream, outside the
// graph), after it `check()` compares with the CPU, then `between(stream)` may make ordinary calls
// on the same storage. A replay that does not finish marks the device wedged: nothing is freed.
template <class Launch, class Refresh, class Check, class Between = NothingBetween>
void captureAndReplay(DeviceArena &arena, Launch launch, Refresh refresh, Check check, Between between = {},
                      cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal) {
    Stream stream;
    GraphExec graph = captureGraph(stream, launch, mode);
    for (int replay = 0; replay < kGraphReplays; ++replay) {
        SCOPED_TRACE("replay " + std::to_string(replay + 1) + " of " + std::to_string(kGraphReplays));
        refresh(stream.get());
        graph.launch(stream);
        const ::testing::AssertionResult finished = finishesWithin(stream, kReplaySeconds, "graph replay");
        if (deviceWedged()) {
            arena.abandon();
            graph.release();
            stream.release();
        }
        ASSERT_TRUE(finished);
        ASSERT_TRUE(check());
        between(stream.get());
    }
}

// Holds `stream` for about `microseconds` with a one-thread kernel spinning on the global timer:
// work enqueued behind delays of equal length on two streams starts at nearly the same moment.
static __global__ void spin_kernel(unsigned long long nanoseconds) {
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < nanoseconds);
}

inline void delayStream(cudaStream_t stream, unsigned microseconds) {
    spin_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(microseconds) * 1000ull);
    SC_CUDA_CHECK(cudaGetLastError());
}

// ---- stream-ordered transfers ----

template <class T>
void upload(cudaStream_t stream, T *d_dst, const std::vector<T> &host) {
    if (!host.empty())
        SC_CUDA_CHECK(cudaMemcpyAsync(d_dst, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

inline void poison(cudaStream_t stream, void *d_dst, std::size_t bytes) {
    if (bytes > 0) SC_CUDA_CHECK(cudaMemsetAsync(d_dst, kPoisonByte, bytes, stream));
}

// Copies n elements back after everything before it on the legacy stream (call after the work's
// stream has finished).
template <class T>
std::vector<T> download(const T *d_src, std::size_t n) {
    std::vector<T> host(n);
    if (n > 0) SC_CUDA_CHECK(cudaMemcpy(host.data(), d_src, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

// The same for types without a default constructor: `filler` fills the vector first.
template <class T>
std::vector<T> download(const T *d_src, std::size_t n, const T &filler) {
    std::vector<T> host(n, filler);
    if (n > 0) SC_CUDA_CHECK(cudaMemcpy(static_cast<void *>(host.data()), d_src, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
}

// Whether the n bytes at d_src are all the poison byte.
inline bool stillPoisoned(const void *d_src, std::size_t bytes) {
    std::vector<unsigned char> host(bytes);
    if (bytes > 0) SC_CUDA_CHECK(cudaMemcpy(host.data(), d_src, bytes, cudaMemcpyDeviceToHost));
    return std::all_of(host.begin(), host.end(), [](unsigned char b) { return b == kPoisonByte; });
}

// ---- random inputs ----

inline std::vector<int> randomInts(std::size_t n, std::mt19937 &rng, int lo = -1000, int hi = 1000) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int> v(n);
    for (int &x : v) x = d(rng);
    return v;
}

// Integer-valued doubles: every sum the tests form is exact, so results compare with ==.
inline std::vector<double> randomIntegralDoubles(std::size_t n, std::mt19937 &rng) {
    std::uniform_int_distribution<int> d(-1000, 1000);
    std::vector<double> v(n);
    for (double &x : v) x = d(rng);
    return v;
}

inline std::vector<float> randomFloats(std::size_t n, std::mt19937 &rng) {
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float &x : v) x = d(rng);
    return v;
}

// Flags of 0 and 1, about one in `every` set.
inline std::vector<std::uint8_t> randomFlags(std::size_t n, std::mt19937 &rng, unsigned every = 7) {
    std::vector<std::uint8_t> flags(n);
    for (auto &f : flags) f = rng() % every == 0;
    return flags;
}

// CSR offsets of exactly `segments` segments over n elements: random cuts, so some segments are
// empty (the more, the more segments per element). offsets[0] = 0, offsets[segments] = n. With
// `lowest_cut`, every cut falls in [lowest_cut, n]: the first segment spans [0, lowest_cut) at least.
inline std::vector<int> randomOffsets(std::size_t n, std::size_t segments, std::mt19937 &rng,
                                      std::size_t lowest_cut = 0) {
    std::vector<int> offsets(segments + 1);
    std::uniform_int_distribution<std::size_t> cut(lowest_cut, n);
    offsets[0] = 0;
    for (std::size_t s = 1; s < segments; ++s) offsets[s] = static_cast<int>(cut(rng));
    offsets[segments] = static_cast<int>(n);
    std::sort(offsets.begin() + 1, offsets.end() - 1);
    return offsets;
}

// Offsets from segment lengths (zeros allowed).
inline std::vector<int> offsetsFromLengths(const std::vector<int> &lengths) {
    std::vector<int> offsets{0};
    for (int length : lengths) offsets.push_back(offsets.back() + length);
    return offsets;
}

// Head flags of the non-empty segments of `offsets` (what make_flags and offsets_to_flags give).
inline std::vector<std::uint8_t> flagsFromOffsets(const std::vector<int> &offsets) {
    std::vector<std::uint8_t> flags(offsets.back(), 0);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
        if (offsets[s] < offsets[s + 1]) flags[offsets[s]] = 1;
    return flags;
}

// ---- CPU references (sequential, op(earlier, later)) ----

template <class T, class Op>
std::vector<T> referenceExclusiveScan(const std::vector<T> &in, Op op, T init) {
    std::vector<T> out;
    out.reserve(in.size());
    T acc = init;
    for (const T &x : in) {
        out.push_back(acc);
        acc = op(acc, x);
    }
    return out;
}

template <class T, class Op>
std::vector<T> referenceInclusiveScan(const std::vector<T> &in, Op op) {
    std::vector<T> out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out.push_back(i == 0 ? in[0] : op(out.back(), in[i]));
    return out;
}

// Stable partition (stable_partition; select_if and select_flagged keep its first `kept`): the
// kept elements (keep(i) on the index) in order, then the others in order; `kept` their count.
template <class T, class Keep>
std::vector<T> referenceStablePartition(const std::vector<T> &in, Keep keep, std::size_t &kept) {
    return partitionByIndex(in, keep, FalsesOrder::InOrder, kept);
}

// Partition in CUB's order (partition): the kept elements in order, then the others in reverse
// order (the i-th of them at out[n - 1 - i]); `kept` their count.
template <class T, class Keep>
std::vector<T> referencePartition(const std::vector<T> &in, Keep keep, std::size_t &kept) {
    return partitionByIndex(in, keep, FalsesOrder::Reversed, kept);
}

// Segmented scans by head flags (element 0 always starts a segment).
template <class T, class Flag, class Op>
std::vector<T> referenceSegmentedScan(const std::vector<T> &in, const std::vector<Flag> &flags, Op op, bool exclusive,
                                      T init) {
    std::vector<T> out;
    out.reserve(in.size());
    T acc = init;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const bool head = i == 0 || flags[i] != 0;
        if (exclusive) {
            if (head) acc = init;
            out.push_back(acc);
            acc = op(acc, in[i]);
        } else {
            acc = head ? in[i] : op(acc, in[i]);
            out.push_back(acc);
        }
    }
    return out;
}

template <class T, class Op>
std::vector<T> referenceSegmentedReduce(const std::vector<T> &in, const std::vector<int> &offsets, Op op, T identity) {
    std::vector<T> out;
    out.reserve(offsets.size() - 1);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
        T acc = identity;
        for (int i = offsets[s]; i < offsets[s + 1]; ++i) acc = op(acc, in[i]);
        out.push_back(acc);
    }
    return out;
}

// The first index where got and expected differ, in a failure message; success when equal.
template <class T>
::testing::AssertionResult sameElements(const std::vector<T> &got, const std::vector<T> &expected,
                                        const std::string &what = "result") {
    if (got.size() != expected.size())
        return ::testing::AssertionFailure() << what << ": " << got.size() << " elements, expected " << expected.size();
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == expected[i])) {
            ::testing::AssertionResult failure = ::testing::AssertionFailure();
            failure << what << ": element " << i << " of " << got.size() << " differs";
            if constexpr (std::is_arithmetic_v<T>) failure << " (got " << +got[i] << ", expected " << +expected[i] << ")";
            return failure;
        }
    return ::testing::AssertionSuccess();
}

// Floating-point results within `tolerance` of each expected value's magnitude (or equal).
template <class V>
::testing::AssertionResult closeTo(const std::vector<V> &got, const std::vector<double> &expected,
                                   const std::vector<double> &magnitude, double tolerance, const std::string &what) {
    if (got.size() != expected.size())
        return ::testing::AssertionFailure() << what << ": " << got.size() << " elements, expected " << expected.size();
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double error = std::fabs(double(got[i]) - expected[i]) / (magnitude[i] + 1e-30);
        if (!(double(got[i]) == expected[i] || error <= tolerance))
            return ::testing::AssertionFailure() << what << ": element " << i << " is " << got[i] << ", expected "
                                                 << expected[i] << " (relative error " << error << ")";
    }
    return ::testing::AssertionSuccess();
}

// ---- the selections (select.cuh), for tests that run each ----

enum class Selection { If, Flagged, StablePartition, Partition };

inline const char *selectionName(Selection s) {
    switch (s) {
    case Selection::If: return "select_if";
    case Selection::Flagged: return "select_flagged";
    case Selection::StablePartition: return "stable_partition";
    case Selection::Partition: return "partition";
    }
    return "?";
}

// ---- calls that may refuse their configuration ----

// One configuration a call is judged at: what runs, the size of its elements, and the block size it
// runs at with that block size's default.
struct Configuration {
    std::string what;          // e.g. "int (4 bytes), exclusive_scan"
    std::size_t elementBytes;  // the largest element type it moves
    int threads;               // the block size in force (a field of the call's Tuning)
    int defaultThreads;        // that family's default (tuning/call_tuning.h)
};

// The tuned default of the family whose block size `blockSize`, a field of Tuning, sets.
inline int defaultThreadsOf(int SC::Tuning::*blockSize) {
    if (blockSize == &SC::Tuning::single_pass) return SC::kDefaultSinglePassThreads;
    if (blockSize == &SC::Tuning::radix) return SC::kDefaultRadixThreads;
    if (blockSize == &SC::Tuning::segmented) return SC::kDefaultSegmentedThreads;
    return SC::kDefaultReduceThreads;  // Tuning::reduce, the last
}

// The configuration of a call that runs at `blockSize` of `tuning` (0 there: the family's default).
inline Configuration configurationAt(std::string what, std::size_t elementBytes, const SC::Tuning &tuning,
                                     int SC::Tuning::*blockSize) {
    const int defaultThreads = defaultThreadsOf(blockSize);
    const int asked = tuning.*blockSize;
    return {std::move(what), elementBytes, asked != 0 ? asked : defaultThreads, defaultThreads};
}

// The current device's shared memory per block with the kernel's opt-in: the limit a refusal for
// shared memory must state.
inline long long sharedMemoryPerBlockOptin() {
    int device = 0, bytes = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return bytes;
}

// Whether a documented limit excuses refusing `c` with `message`. A launch is refused for two limits
// of its configuration (detail/host/launch.h), each stated with its numbers, which must hold:
//  - "block size T is over this kernel's limit of M threads" (its registers per thread): M < T;
//  - "S bytes of shared memory per block (T threads) are over the device's limit of L bytes":
//    L is this device's opt-in limit (`deviceSharedLimit`) and S > L.
// Neither is reached at the default block size, which every caller runs, nor by elements of 4
// bytes or fewer (int and its kin): what a kernel needs of both grows with the element's size. A
// refusal there fails whatever its message says.
inline ::testing::AssertionResult documentedRefusal(const Configuration &c, const std::string &message,
                                                    long long deviceSharedLimit) {
    const auto unexpected = [&](const std::string &why) {
        return ::testing::AssertionFailure() << c.what << " at block size " << c.threads << " was refused, but " << why
                                             << ": " << message;
    };
    if (c.threads == c.defaultThreads) return unexpected("its default block size must run");
    if (c.elementBytes <= sizeof(int)) return unexpected("elements of 4 bytes or fewer must run at every block size");
    static const std::regex threadsLimit(R"(block size (\d+) is over this kernel's limit of (\d+) threads)");
    static const std::regex sharedLimit(
        R"((\d+) bytes of shared memory per block \(\d+ threads\) are over the device's limit of (\d+) bytes)");
    std::smatch numbers;
    if (std::regex_search(message, numbers, threadsLimit)) {
        if (std::stoll(numbers[2].str()) < std::stoll(numbers[1].str()))
            return ::testing::AssertionSuccess() << "refused: " << message;
        return unexpected("the block size is within the kernel's stated limit");
    }
    if (std::regex_search(message, numbers, sharedLimit)) {
        if (std::stoll(numbers[2].str()) != deviceSharedLimit)
            return unexpected("the stated limit is not this device's " + std::to_string(deviceSharedLimit) + " bytes");
        if (std::stoll(numbers[1].str()) > deviceSharedLimit)
            return ::testing::AssertionSuccess() << "refused: " << message;
        return unexpected("the shared memory is within the device's limit");
    }
    return unexpected("the message states neither documented limit (a kernel's threads per block, the device's "
                      "shared memory per block)");
}

// A small scan at the library's defaults (a default environment) on fresh buffers, synchronized:
// whether the CUDA context still works (after a refusal or a failed launch).
inline ::testing::AssertionResult contextHealthy() {
    ::testing::AssertionResult result = ::testing::AssertionSuccess();
    try {
        const cudaError_t pending = cudaGetLastError();
        const std::size_t n = 1001;
        std::vector<int> in(n);
        for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i % 17) - 8;
        SC::DeviceBuffer<int> d_in = SC::DeviceBuffer<int>::from_host(in.data(), n), d_out(n);
        SC::DeviceBuffer<char> temp(SC::scan_temp_bytes<int>(n));
        SC::inclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, temp.get(), temp.bytes());
        SC_CUDA_CHECK(cudaDeviceSynchronize());
        result = sameElements(download(d_out.get(), n), referenceInclusiveScan(in, SC::Sum{}), "health-check scan");
        if (pending != cudaSuccess) result << " (a launch had left " << cudaGetErrorName(pending) << " pending)";
    } catch (const std::exception &e) {
        result = ::testing::AssertionFailure() << "the CUDA context is broken: a small scan fails: " << e.what();
    }
    return result;
}

// Judges one call at configuration `c` under the rule "it runs correctly, or it throws
// std::invalid_argument before any work where a documented limit excuses it (documentedRefusal),
// and the context stays healthy". `run` launches, waits and returns the comparison with the CPU;
// `untouched` says whether the outputs still hold their poison (checked only after a refusal: a
// refusal comes before any work).
template <class Run, class Untouched>
::testing::AssertionResult runsOrRefusesCleanly(const Configuration &c, Run run, Untouched untouched) {
    try {
        return run();
    } catch (const std::invalid_argument &e) {
        const std::string message = e.what();
        ::testing::AssertionResult documented = documentedRefusal(c, message, sharedMemoryPerBlockOptin());
        if (!documented) return documented;
        if (!untouched()) return ::testing::AssertionFailure() << "refused (" << message << ") after writing its outputs";
        ::testing::AssertionResult healthy = contextHealthy();
        if (!healthy) return ::testing::AssertionFailure() << "refused (" << message << "), then " << healthy.message();
        return ::testing::AssertionSuccess() << "refused: " << message;
    } catch (const std::exception &e) {
        ::testing::AssertionResult failure = ::testing::AssertionFailure();
        failure << "failed instead of running or refusing up front: " << e.what();
        ::testing::AssertionResult healthy = contextHealthy();
        failure << (healthy ? "; the context is still healthy" : std::string("; ") + healthy.message());
        return failure;
    }
}

}  // namespace robustness

#pragma once
// How sc_bench times one implementation: CUDA events around each run on one stream, warm-up runs
// first, the median of the timed runs, and data rotated through pools so that no run finds its
// input in L2 (50 MB on an H100) from an earlier run. And the device side of the checks around the
// timed runs (check.h): poisoning an output, reading it back.
#include "check.h"

#include <stream_compaction/support/cuda_check.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace bench {

// The value at d_value once everything enqueued on `stream` before it is done (a check's read).
template <class T>
T read_back(const T *d_value, cudaStream_t stream) {
    T value{};
    SC_CUDA_CHECK(cudaMemcpyAsync(&value, d_value, sizeof(T), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return value;
}

// d_values[0, n) on the host, once everything enqueued on `stream` before it is done.
template <class T>
std::vector<T> read_back(const T *d_values, std::size_t n, cudaStream_t stream) {
    std::vector<T> values(n);
    SC_CUDA_CHECK(cudaMemcpyAsync(values.data(), d_values, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
    SC_CUDA_CHECK(cudaStreamSynchronize(stream));
    return values;
}

// Fills d_values[0, n) with kPoisonByte on `stream`, before a checked run: what the run leaves
// unwritten then fails its check.
template <class T>
void poison(T *d_values, std::size_t n, cudaStream_t stream) {
    SC_CUDA_CHECK(cudaMemsetAsync(d_values, kPoisonByte, n * sizeof(T), stream));
}

// Untimed runs before the timed ones: first-launch costs (module loading, CUB's tuning queries).
constexpr int kWarmups = 3;

// Runs whose input plus output is smaller than this cycle through copies of their data; at five
// times the L2 size, a copy is long evicted when its turn comes again. Larger runs dwarf L2.
constexpr std::size_t kRotateBelowBytes = std::size_t{256} << 20;

// Each pool (input, output) holds at least this many ints, enough copies for kRotateBelowBytes.
constexpr std::size_t kPoolMinElems = kRotateBelowBytes / sizeof(int);

// Elements between copies of an n-element int array in a pool: each copy starts 256-byte aligned,
// as a fresh cudaMalloc would, so the implementations' vectorised paths stay on.
inline std::size_t copy_stride(std::size_t n) { return (n + 63) / 64 * 64; }

// Element offsets of successive copies of an n-element int array in a pool of `pool_elems`.
class Rotation {
public:
    Rotation(std::size_t n, std::size_t pool_elems)
        : stride_(copy_stride(n)),
          copies_(2 * n * sizeof(int) < kRotateBelowBytes ? pool_elems / stride_ : 1) {}

    std::size_t next() {
        const std::size_t offset = next_ * stride_;
        next_ = (next_ + 1) % copies_;
        return offset;
    }
    // Elements of the pool the copies cover.
    std::size_t span() const { return copies_ * stride_; }

private:
    std::size_t stride_;
    std::size_t copies_;
    std::size_t next_ = 0;
};

class Stream {
public:
    Stream() { SC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~Stream() { cudaStreamDestroy(stream_); }
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

class Event {
public:
    Event() { SC_CUDA_CHECK(cudaEventCreate(&event_)); }
    ~Event() { cudaEventDestroy(event_); }
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

// Median over `runs` timings of run(offset), each between two events on `stream`, after kWarmups
// untimed runs. Offsets come from `rotation`, which carries on from the previous implementation.
template <class Run>
double median_ms(cudaStream_t stream, Rotation &rotation, int runs, Run &&run) {
    for (int i = 0; i < kWarmups; ++i) run(rotation.next());
    const Event start, stop;
    std::vector<float> ms(runs);
    for (float &elapsed : ms) {
        const std::size_t offset = rotation.next();
        SC_CUDA_CHECK(cudaEventRecord(start.get(), stream));
        run(offset);
        SC_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
        SC_CUDA_CHECK(cudaEventSynchronize(stop.get()));
        SC_CUDA_CHECK(cudaEventElapsedTime(&elapsed, start.get(), stop.get()));
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t mid = ms.size() / 2;
    return ms.size() % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2.0;
}

// Kernel time without launch overhead: `calls` runs of run() captured into one CUDA graph, whose
// launches median_ms times; the median per call. The graph is built once, so every launch repeats
// the same work on the same data (no rotation: for inputs that stay in L2 by design).
template <class Run>
double median_graph_ms(cudaStream_t stream, int runs, int calls, Run &&run) {
    cudaGraph_t graph = nullptr;
    SC_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < calls; ++i) run();
    SC_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t instantiated = cudaGraphInstantiate(&exec, graph, 0);
    SC_CUDA_CHECK(cudaGraphDestroy(graph));
    SC_CUDA_CHECK(instantiated);
    Rotation none(1, copy_stride(1));
    const double ms = median_ms(stream, none, runs, [&](std::size_t) { SC_CUDA_CHECK(cudaGraphLaunch(exec, stream)); });
    SC_CUDA_CHECK(cudaGraphExecDestroy(exec));
    return ms / calls;
}

}  // namespace bench

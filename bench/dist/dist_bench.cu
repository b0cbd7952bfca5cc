// sc_dist_bench: the distributed primitives on 1, 2, 4, ... of the visible GPUs, in one process:
// ncclCommInitAll, one host thread per GPU. Weak scaling (the same items per GPU at every GPU
// count) for the scan, the compactions and the sample sort; strong scaling (one matrix) for SpMV.
// Each point: warm-up runs, then timed runs in lockstep (a host barrier before each), every rank
// timing its own stream with CUDA events; a run takes as long as its slowest rank; the median of
// the runs is reported. The sort also reports its exchange bound, measured in the same run: the
// local sort of one shard plus one all-to-all of the bytes that must move. The scan's and the
// compaction's outputs are checked in full on every rank (check.h): after the timed runs, one more
// run on poisoned outputs, compared a chunk at a time with references computed on the host.
#include "../device_check.h"
#include "../fill.h"

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/distributed/compaction.cuh>
#include <stream_compaction/distributed/local_group.h>
#include <stream_compaction/distributed/plans.h>
#include <stream_compaction/distributed/sample_sort.h>
#include <stream_compaction/distributed/scan.h>
#include <stream_compaction/distributed/spmv.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/device_probe.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
namespace D = StreamCompaction::distributed;
using SC::DeviceBuffer;

namespace {

const char kUsage[] =
    "usage: sc_dist_bench [--only PARTS] [--runs N] [--log2-per-gpu N] [--spmv-grid G] [--max-gpus K] [--csv FILE]\n"
    "Times the distributed primitives over NCCL on 1, 2, 4, ... and all of the visible GPUs, in one process\n"
    "(ncclCommInitAll, one host thread per GPU): CUDA events per rank, the slowest rank per run, the median of\n"
    "N runs after 3 warm-ups. NCCL_NVLS_ENABLE=0 unless the environment sets it.\n"
    "  --only PARTS      comma-separated subset of scan,compact,sort,spmv (default: all); sort runs twice:\n"
    "                    weak scaling (param uniform) and strong scaling of the largest power of two of keys\n"
    "                    one GPU holds, up to 2^31 (param uniform_strong: per_gpu_vs_one_gpu is the speed-up)\n"
    "  --runs N          timed runs per median, 3..1000 (default 10)\n"
    "  --log2-per-gpu N  items per GPU for scan, compact and sort: 2^N, 10..31 (default 30), lowered to what\n"
    "                    fits 80% of the free memory of the GPUs\n"
    "  --spmv-grid G     SpMV on the 2D Poisson matrix of a G x G grid (5 G^2 nonzeros; default 7328: 2^28)\n"
    "  --max-gpus K      use at most K GPUs (default: all visible)\n"
    "  --csv FILE        also write the rows as CSV\n"
    "Exit code: 0 done; 1 a result was wrong, or an error; 2 bad command line; 4 this binary holds no\n"
    "GPU code for the device (built for other CUDA architectures); 77 no usable CUDA device.\n";

struct Options {
    int runs = 10;
    int log2_per_gpu = 30;
    int spmv_grid = 7328;
    int max_gpus = 0;
    std::string csv;
    std::vector<std::string> parts = {"scan", "compact", "sort", "spmv"};
};

bool parse_int(const char *text, long lo, long hi, int &value) {
    char *end = nullptr;
    errno = 0;
    const long parsed = std::strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || parsed < lo || parsed > hi) return false;
    value = static_cast<int>(parsed);
    return true;
}

std::string parse_args(int argc, char **argv, Options &o, bool &help) {
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            help = true;
            continue;
        }
        if (i + 1 >= argc) return "option " + flag + " needs a value (try --help)";
        const char *value = argv[++i];
        if (flag == "--csv") o.csv = value;
        else if (flag == "--runs") {
            if (!parse_int(value, 3, 1000, o.runs)) return "--runs must be an integer in [3, 1000]";
        } else if (flag == "--log2-per-gpu") {
            if (!parse_int(value, 10, 31, o.log2_per_gpu)) return "--log2-per-gpu must be an integer in [10, 31]";
        } else if (flag == "--spmv-grid") {
            if (!parse_int(value, 4, 46000, o.spmv_grid)) return "--spmv-grid must be an integer in [4, 46000]";
        } else if (flag == "--max-gpus") {
            if (!parse_int(value, 1, 1024, o.max_gpus)) return "--max-gpus must be a positive integer";
        } else if (flag == "--only") {
            o.parts.clear();
            std::string list = value;
            for (std::size_t start = 0; start <= list.size();) {
                const std::size_t comma = std::min(list.find(',', start), list.size());
                const std::string part = list.substr(start, comma - start);
                if (part != "scan" && part != "compact" && part != "sort" && part != "spmv")
                    return "--only takes a comma-separated list of scan, compact, sort, spmv; got '" + list + "'";
                o.parts.push_back(part);
                start = comma + 1;
            }
        } else {
            return "unknown option '" + flag + "' (try --help)";
        }
    }
    return "";
}

bool runs_part(const Options &o, const char *part) { return std::find(o.parts.begin(), o.parts.end(), part) != o.parts.end(); }

// ---- inputs ----

// The scan's and the compaction's items are in [0, kItemRange); the compaction keeps those below 50.
constexpr std::uint32_t kItemRange = 100;
constexpr SC::LessThan<int> kKept{50};

// Item `global` of the ranks' shards end to end: the hash of its index, modulo `modulo` (0: all
// 32 bits). The device fills the shards with it, the host computes the references from it.
__host__ __device__ int item(std::size_t global, std::uint32_t modulo) {
    const std::uint32_t h = bench::index_hash(global, 0x5eed2024u);
    return static_cast<int>(modulo ? h % modulo : h);
}

// keys[i] = item(first + i, modulo).
__global__ void fill_hashed(int *keys, std::size_t n, std::size_t first, std::uint32_t modulo) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        keys[i] = item(first + i, modulo);
}

void fill(int *keys, std::size_t n, std::size_t first, std::uint32_t modulo, cudaStream_t stream) {
    if (n == 0) return;
    fill_hashed<<<bench::fill_blocks(n), bench::kFillThreads, 0, stream>>>(keys, n, first, modulo);
    SC_CHECK_LAUNCH(fill_hashed);
}

// *unsorted = 1 when some keys[i] > keys[i + 1].
__global__ void find_inversion(const int *keys, std::size_t n, int *unsorted) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i + 1 < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        if (keys[i] > keys[i + 1]) *unsorted = 1;
}

// ---- timing in lockstep ----

class Barrier {
public:
    explicit Barrier(int count) : count_(count) {}
    void wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        const long generation = generation_;
        if (++waiting_ == count_) {
            waiting_ = 0;
            ++generation_;
            changed_.notify_all();
        } else {
            changed_.wait(lock, [&] { return generation != generation_; });
        }
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int count_, waiting_ = 0;
    long generation_ = 0;
};

constexpr int kWarmups = 3;

// The timings of one point: ms[rank][run]; a run's time is its slowest rank's.
class Lockstep {
public:
    Lockstep(int ranks, int runs) : barrier_(ranks), ms_(ranks, std::vector<float>(runs)) {}

    // Called on every rank's thread: warm-ups, then the timed runs of step() on `stream`.
    template <class Step>
    void measure(int rank, cudaStream_t stream, Step step) {
        cudaEvent_t start = nullptr, stop = nullptr;
        SC_CUDA_CHECK(cudaEventCreate(&start));
        SC_CUDA_CHECK(cudaEventCreate(&stop));
        for (int i = 0; i < kWarmups + static_cast<int>(ms_[rank].size()); ++i) {
            barrier_.wait();
            SC_CUDA_CHECK(cudaEventRecord(start, stream));
            step();
            SC_CUDA_CHECK(cudaEventRecord(stop, stream));
            SC_CUDA_CHECK(cudaEventSynchronize(stop));
            if (i >= kWarmups) SC_CUDA_CHECK(cudaEventElapsedTime(&ms_[rank][i - kWarmups], start, stop));
        }
        SC_CUDA_CHECK(cudaEventDestroy(start));
        SC_CUDA_CHECK(cudaEventDestroy(stop));
    }

    double median_ms() const {
        std::vector<float> slowest(ms_[0].size(), 0.0f);
        for (const auto &rank : ms_)
            for (std::size_t i = 0; i < rank.size(); ++i) slowest[i] = std::max(slowest[i], rank[i]);
        std::sort(slowest.begin(), slowest.end());
        const std::size_t mid = slowest.size() / 2;
        return slowest.size() % 2 ? slowest[mid] : (slowest[mid - 1] + slowest[mid]) / 2.0;
    }

private:
    Barrier barrier_;
    std::vector<std::vector<float>> ms_;
};

// ---- the report ----

struct Row {
    std::string operation, implementation, param;
    int gpus;
    std::size_t n_per_gpu, n_total;
    double ms;
    double bytes_per_gpu;  // what one GPU's part must read and write, for GB/s per GPU
    bool ok;
};

class Report {
public:
    explicit Report(const std::string &path) {
        if (path.empty()) return;
        csv_ = std::fopen(path.c_str(), "w");
        if (!csv_) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        std::fputs("operation,implementation,gpus,n,n_per_gpu,param,median_ms,gbps_per_gpu,items_per_s,"
                   "per_gpu_vs_one_gpu,ok\n",
                   csv_);
    }
    ~Report() {
        if (csv_) std::fclose(csv_);
    }
    Report(const Report &) = delete;
    Report &operator=(const Report &) = delete;

    // per_gpu_vs_one_gpu: weak scaling, one GPU's time at the same items per GPU / this time;
    // strong scaling (SpMV), the speed-up over one GPU.
    void add(const Row &r) {
        const auto key = r.operation + "/" + r.implementation + "/" + r.param;
        if (r.gpus == 1) one_gpu_ms_[key] = r.ms;
        const auto one = one_gpu_ms_.find(key);
        const double ratio = one == one_gpu_ms_.end() ? 0.0 : one->second / r.ms;
        const double gbps = r.bytes_per_gpu / (r.ms * 1e6), items = r.n_total / (r.ms * 1e-3);
        std::printf("%-14s %-12s %-10s %4d GPUs  n/GPU %11zu  %10.4f ms  %8.1f GB/s/GPU  %8.3f Gitems/s  %6.3f  %s\n",
                    r.operation.c_str(), r.implementation.c_str(), r.param.c_str(), r.gpus, r.n_per_gpu, r.ms, gbps,
                    items * 1e-9, ratio, r.ok ? "ok" : "WRONG");
        std::fflush(stdout);
        if (csv_) {
            std::fprintf(csv_, "%s,%s,%d,%zu,%zu,%s,%.6f,%.2f,%.0f,%.4f,%d\n", r.operation.c_str(),
                         r.implementation.c_str(), r.gpus, r.n_total, r.n_per_gpu, r.param.c_str(), r.ms, gbps, items,
                         ratio, r.ok ? 1 : 0);
            std::fflush(csv_);
        }
        wrong_ += r.ok ? 0 : 1;
    }
    int wrong() const { return wrong_; }

private:
    std::FILE *csv_ = nullptr;
    std::map<std::string, double> one_gpu_ms_;
    int wrong_ = 0;
};

// ---- checks: each rank's whole output against a reference the host computes from item() ----

// Items a rank's check holds on the host at a time (twice: the output's and the reference's).
constexpr std::size_t kCheckChunk = std::size_t{1} << 24;

// f(rank) for every rank of the group, each on its rank's thread: the host's work on one core each.
template <class F>
auto on_every_rank(D::LocalGroup &group, F f) {
    std::vector<decltype(f(0))> results(group.size());
    group.run([&](int rank) { results[rank] = f(rank); });
    return results;
}

// The sum (modulo 2^32) and the kept count of rank r's shard of the scan's and compaction's items
// [r n, (r + 1) n).
unsigned shard_sum(int rank, std::size_t n) {
    unsigned sum = 0;
    for (std::size_t i = rank * n; i < (rank + 1) * n; ++i) sum += static_cast<unsigned>(item(i, kItemRange));
    return sum;
}

std::size_t shard_kept(int rank, std::size_t n) {
    std::size_t kept = 0;
    for (std::size_t i = rank * n; i < (rank + 1) * n; ++i) kept += kKept(item(i, kItemRange));
    return kept;
}

// A rank's scan, a chunk at a time: the exclusive sum of items first, first + 1, ... from `start`,
// the sum of the items before them.
class ItemSums {
public:
    ItemSums(std::size_t first, unsigned start) : next_(first), sum_(start) {}
    void operator()(std::vector<int> &chunk) {
        std::vector<int> items(chunk.size());
        for (int &value : items) value = item(next_++, kItemRange);
        sum_ = bench::exclusive_sum<unsigned>(items.data(), items.size(), chunk.data(), sum_);
    }

private:
    std::size_t next_;
    unsigned sum_;
};

// A rank's compaction, a chunk at a time: the kept items of every shard (n items each) in order,
// from the from-th on. kept_before[s]: the kept items of the shards before shard s (one entry per
// shard and the total last).
class KeptItems {
public:
    KeptItems(std::size_t n, const std::vector<std::size_t> &kept_before, std::size_t from) {
        const std::size_t shard =
            std::upper_bound(kept_before.begin(), kept_before.end(), from) - kept_before.begin() - 1;
        next_ = shard * n;
        for (std::size_t skip = from - kept_before[shard]; skip > 0; --skip) next_kept();
    }
    void operator()(std::vector<int> &chunk) {
        for (int &value : chunk) value = next_kept();
    }

private:
    int next_kept() {
        while (!kKept(item(next_, kItemRange))) ++next_;
        return item(next_++, kItemRange);
    }
    std::size_t next_;
};

// "" when d_out[0, count) holds what `reference` fills consecutive chunks with, else the first
// element that differs. Read back a chunk at a time.
template <class Reference>
std::string chunked_mismatch(const int *d_out, std::size_t count, Reference reference, cudaStream_t stream) {
    std::vector<int> expected;
    for (std::size_t start = 0; start < count; start += kCheckChunk) {
        const std::vector<int> got = bench::read_back(d_out + start, std::min(kCheckChunk, count - start), stream);
        expected.resize(got.size());
        reference(expected);
        const std::size_t i = bench::first_mismatch(got.data(), expected.data(), got.size());
        if (i < got.size()) return bench::element_mismatch(start + i, count, got[i], expected[i]);
    }
    return "";
}

// Where rank r's compaction output sits among the kept items of all ranks (placement.h): with
// Balance::Keep, where its own shard's are; with Rebalance, an equal share, one more item on each
// of the first total % ranks ranks.
D::Placement expected_placement(D::Balance balance, const std::vector<std::size_t> &kept_before, int rank) {
    const std::size_t ranks = kept_before.size() - 1, total = kept_before.back(), r = rank;
    if (balance == D::Balance::Keep) return {kept_before[r + 1] - kept_before[r], kept_before[r], total};
    const auto share_begin = [&](std::size_t q) { return q * (total / ranks) + std::min(q, total % ranks); };
    return {share_begin(r + 1) - share_begin(r), share_begin(r), total};
}

std::string placement_mismatch(const D::Placement &got, const D::Placement &expected) {
    if (got.count == expected.count && got.global_begin == expected.global_begin &&
        got.global_count == expected.global_count)
        return "";
    const auto text = [](const D::Placement &p) {
        return "(count " + std::to_string(p.count) + ", from " + std::to_string(p.global_begin) + " of " +
               std::to_string(p.global_count) + ")";
    };
    return "placement " + text(got) + ", expected " + text(expected);
}

// Whether every rank's check passed (mismatches[rank] empty); warns for each rank whose did not.
bool all_match(const char *implementation, const char *operation, int gpus, std::size_t n,
               const std::vector<std::string> &mismatches) {
    bool ok = true;
    for (std::size_t rank = 0; rank < mismatches.size(); ++rank) {
        if (mismatches[rank].empty()) continue;
        bench::warn_mismatch(implementation, operation, std::to_string(gpus) + " GPUs, n/GPU = " + std::to_string(n),
                             "rank " + std::to_string(rank) + ": " + mismatches[rank]);
        ok = false;
    }
    return ok;
}

// ---- the parts, for one group of GPUs ----

class Stream {
public:
    Stream() { SC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~Stream() { cudaStreamDestroy(stream_); }
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

void bench_scan(D::LocalGroup &group, std::size_t n, int runs, Report &report) {
    const int g = group.size();
    const std::vector<unsigned> sums = on_every_rank(group, [n](int rank) { return shard_sum(rank, n); });
    std::vector<unsigned> starts(g);  // where each rank's shard of the scan starts
    const unsigned total = bench::exclusive_sum<unsigned>(sums.data(), sums.size(), starts.data());
    Lockstep timing(g, runs);
    std::vector<std::string> mismatches(g);
    group.run([&](int rank) {
        const D::Communicator comm(group.comm(rank));
        const Stream stream;
        D::Workspace ws;
        DeviceBuffer<int> d_in(n), d_out(n);
        fill(d_in.get(), n, rank * n, kItemRange, stream.get());
        const auto scan = [&] { return D::exclusive_sum(comm, d_in.get(), d_out.get(), n, ws, stream.get()); };
        timing.measure(rank, stream.get(), scan);
        // The checked run: collective, so every rank makes it, each on its poisoned output.
        bench::poison(d_out.get(), n, stream.get());
        const int sum = scan();
        const std::string wrong_sum = bench::value_mismatch(sum, static_cast<int>(total));
        mismatches[rank] = wrong_sum.empty()
                               ? chunked_mismatch(d_out.get(), n, ItemSums(rank * n, starts[rank]), stream.get())
                               : "the sum it returned: " + wrong_sum;
    });
    report.add({"scan", "nccl", "int32", g, n, n * g, timing.median_ms(), 8.0 * n,
                all_match("nccl", "scan", g, n, mismatches)});
}

void bench_compact(D::LocalGroup &group, std::size_t n, int runs, D::Balance balance, Report &report) {
    const int g = group.size();
    const std::vector<std::size_t> kept = on_every_rank(group, [n](int rank) { return shard_kept(rank, n); });
    std::vector<std::size_t> kept_before(g + 1);
    kept_before[g] = bench::exclusive_sum<std::size_t>(kept.data(), kept.size(), kept_before.data());
    Lockstep timing(g, runs);
    std::vector<std::string> mismatches(g);
    group.run([&](int rank) {
        const D::Communicator comm(group.comm(rank));
        const Stream stream;
        D::Workspace ws;
        DeviceBuffer<int> d_in(n), d_out(n);
        fill(d_in.get(), n, rank * n, kItemRange, stream.get());
        const auto compact = [&] {
            return D::compact_if(comm, d_in.get(), n, d_out.get(), n, kKept, balance, ws, stream.get());
        };
        timing.measure(rank, stream.get(), compact);
        // The checked run: collective, so every rank makes it, each on its poisoned output.
        bench::poison(d_out.get(), n, stream.get());
        const D::Placement placed = compact();
        const D::Placement expected = expected_placement(balance, kept_before, rank);
        mismatches[rank] = placement_mismatch(placed, expected);
        if (mismatches[rank].empty())
            mismatches[rank] = chunked_mismatch(d_out.get(), expected.count,
                                                KeptItems(n, kept_before, expected.global_begin), stream.get());
    });
    const char *implementation = balance == D::Balance::Rebalance ? "nccl_rebalance" : "nccl";
    report.add({"compact", implementation, "50", g, n, n * g, timing.median_ms(),
                4.0 * n + 4.0 * kept_before[g] / g, all_match(implementation, "compact", g, n, mismatches)});
}

// `param` names the input in the rows: "uniform" (weak scaling: n keys per GPU), "uniform_strong"
// (strong scaling: the same total on every GPU count, so per_gpu_vs_one_gpu is the speed-up).
void bench_sort(D::LocalGroup &group, std::size_t n, int runs, Report &report, const std::string &param) {
    const int g = group.size();
    const std::size_t capacity = D::sample_sort_capacity(n * g, g);
    Lockstep sort_timing(g, runs), local_timing(g, runs), alltoall_timing(g, runs);
    const std::size_t per_peer = n / g;
    std::vector<D::Placement> placed(g);
    std::vector<int> unsorted(g, 0), first(g), last(g);
    group.run([&](int rank) {
        const D::Communicator comm(group.comm(rank));
        const Stream stream;
        DeviceBuffer<int> d_keys(n), d_out(capacity);
        fill(d_keys.get(), n, rank * n, 0, stream.get());
        {
            D::Workspace ws;  // freed before the bound's parts allocate theirs
            sort_timing.measure(rank, stream.get(), [&] {
                placed[rank] = D::sample_sort_keys(comm, d_keys.get(), n, d_out.get(), capacity, ws, stream.get());
            });
        }
        DeviceBuffer<int> d_flag(1);
        SC_CUDA_CHECK(cudaMemsetAsync(d_flag.get(), 0, sizeof(int), stream.get()));
        const std::size_t m = placed[rank].count;
        if (m > 1) {
            find_inversion<<<bench::fill_blocks(m), bench::kFillThreads, 0, stream.get()>>>(d_out.get(), m, d_flag.get());
            SC_CHECK_LAUNCH(find_inversion);
        }
        SC_CUDA_CHECK(cudaMemcpyAsync(&unsorted[rank], d_flag.get(), sizeof(int), cudaMemcpyDeviceToHost, stream.get()));
        if (m > 0) {
            SC_CUDA_CHECK(cudaMemcpyAsync(&first[rank], d_out.get(), sizeof(int), cudaMemcpyDeviceToHost, stream.get()));
            SC_CUDA_CHECK(cudaMemcpyAsync(&last[rank], d_out.get() + m - 1, sizeof(int), cudaMemcpyDeviceToHost, stream.get()));
        }
        SC_CUDA_CHECK(cudaStreamSynchronize(stream.get()));

        // The exchange bound's parts: the local sort of one shard, and one all-to-all of the
        // (g - 1) / g of the shard that uniform keys send away (n / g keys to each peer).
        const std::size_t sort_bytes = SC::radix_sort_temp_bytes<int>(n);
        DeviceBuffer<char> d_temp(sort_bytes);
        local_timing.measure(rank, stream.get(), [&] {
            SC::radix_sort_keys(d_keys.get(), d_out.get(), n, d_temp.get(), sort_bytes, stream.get());
        });
        if (g == 1) return;  // nothing moves between GPUs
        alltoall_timing.measure(rank, stream.get(), [&] {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
            SC_NCCL_CHECK(ncclAlltoAll(d_keys.get(), d_out.get(), per_peer, ncclInt32, comm.get(), stream.get()));
#else
            SC_NCCL_CHECK(ncclGroupStart());
            for (int peer = 0; peer < g; ++peer) {
                SC_NCCL_CHECK(ncclSend(d_keys.get() + peer * per_peer, per_peer, ncclInt32, peer, comm.get(), stream.get()));
                SC_NCCL_CHECK(ncclRecv(d_out.get() + peer * per_peer, per_peer, ncclInt32, peer, comm.get(), stream.get()));
            }
            SC_NCCL_CHECK(ncclGroupEnd());
#endif
        });
    });
    bool ok = true;
    std::size_t total = 0;
    for (int r = 0; r < g; ++r) {
        ok &= unsorted[r] == 0 && placed[r].count <= capacity;
        if (r > 0 && placed[r].count > 0 && placed[r - 1].count > 0) ok &= last[r - 1] <= first[r];
        total += placed[r].count;
    }
    ok &= total == n * g;
    const double sort_ms = sort_timing.median_ms(), local_ms = local_timing.median_ms();
    const double alltoall_ms = g > 1 ? alltoall_timing.median_ms() : 0.0;
    report.add({"sort_keys", "nccl", param, g, n, n * g, sort_ms, 8.0 * n, ok});
    report.add({"sort_keys", "local_sort", param, g, n, n * g, local_ms, 8.0 * n, true});
    if (g > 1)
        report.add({"sort_keys", "alltoall", param, g, n, n * g, alltoall_ms,
                    8.0 * static_cast<double>(per_peer) * (g - 1), true});
    report.add({"sort_keys", "exchange_bound", param, g, n, n * g, local_ms + alltoall_ms, 8.0 * n, true});
    std::printf("  sort / exchange bound = %.3f; all-to-all share of the bound %.1f%%\n", sort_ms / (local_ms + alltoall_ms),
                100.0 * alltoall_ms / (local_ms + alltoall_ms));
}

void bench_spmv(D::LocalGroup &group, const SC::CsrMatrix<double> &a, int grid, int runs, Report &report) {
    const int g = group.size();
    Lockstep timing(g, runs);
    std::vector<long long> begin;
    for (int r = 0; r <= g; ++r) begin.push_back(static_cast<long long>(D::balanced_begin(a.rows, g, r)));
    std::vector<std::size_t> halo(g);
    group.run([&](int rank) {
        const D::Communicator comm(group.comm(rank));
        const Stream stream;
        SC::CsrMatrix<double> rows;
        rows.rows = static_cast<int>(begin[rank + 1] - begin[rank]);
        rows.cols = a.cols;
        const int first = a.row_offsets[begin[rank]], end = a.row_offsets[begin[rank + 1]];
        rows.row_offsets.assign(a.row_offsets.begin() + begin[rank], a.row_offsets.begin() + begin[rank + 1] + 1);
        for (int &offset : rows.row_offsets) offset -= first;
        rows.column_indices.assign(a.column_indices.begin() + first, a.column_indices.begin() + end);
        rows.values.assign(a.values.begin() + first, a.values.begin() + end);
        D::DistributedSpmv<double> multiply(comm, rows, begin, SC::SpmvAlgorithm::MergePath, stream.get());
        halo[rank] = multiply.halo_size();
        const std::vector<double> x(multiply.own_columns(), 1.0);
        auto d_x = DeviceBuffer<double>::from_host(x.data(), x.size());
        DeviceBuffer<double> d_y(rows.rows);
        timing.measure(rank, stream.get(), [&] { multiply(1.0, d_x.get(), 0.0, d_y.get(), stream.get()); });
    });
    std::printf("  SpMV halo: at most %zu x entries received per rank and multiplication\n",
                *std::max_element(halo.begin(), halo.end()));
    const std::size_t nnz = a.nnz();
    report.add({"spmv_double", "nccl", "poisson_2d_" + std::to_string(grid), g,
                nnz / g, nnz, timing.median_ms(), 12.0 * nnz / g, true});
}

// The largest power of two of items per GPU, at most 2^log2, whose `bytes_per_item` fit 80% of the
// free memory of every GPU of the group.
std::size_t fitting(int log2, double bytes_per_item, int gpus) {
    std::size_t free_min = SIZE_MAX;
    for (int d = 0; d < gpus; ++d) {
        std::size_t free = 0, total = 0;
        SC_CUDA_CHECK(cudaSetDevice(d));
        SC_CUDA_CHECK(cudaMemGetInfo(&free, &total));
        free_min = std::min(free_min, free);
    }
    std::size_t n = std::size_t{1} << log2;
    while (n > 1024 && n * bytes_per_item > 0.8 * free_min) n /= 2;
    return n;
}

int run(const Options &options) {
    setenv("NCCL_NVLS_ENABLE", "0", 0);  // before any NCCL call, unless the environment says otherwise
    int visible = 0;
    SC_CUDA_CHECK(cudaGetDeviceCount(&visible));
    const int most = options.max_gpus > 0 ? std::min(options.max_gpus, visible) : visible;
    std::vector<int> counts;
    for (int g = 1; g < most; g *= 2) counts.push_back(g);
    counts.push_back(most);
    int version = 0;
    SC_NCCL_CHECK(ncclGetVersion(&version));
    const SC::DeviceStatus device = SC::probe_device();
    std::printf("sc_dist_bench: %d visible GPUs (%s), NCCL %d, NCCL_NVLS_ENABLE=%s; median of %d runs after %d warm-ups\n",
                visible, device.description.c_str(), version, std::getenv("NCCL_NVLS_ENABLE"), options.runs, kWarmups);
    Report report(options.csv);
    // Bytes per item each part holds per GPU (inputs, outputs, scratch), for the memory cap.
    const std::size_t scan_n = fitting(options.log2_per_gpu, 9.0, most);
    const std::size_t compact_n = fitting(options.log2_per_gpu, 13.0, most);
    const std::size_t sort_n = fitting(options.log2_per_gpu, 26.0, most);
    // Strong scaling of the sort: the largest power of two of keys one GPU holds (at most 2^31),
    // spread over every GPU count.
    const std::size_t sort_total = fitting(31, 26.0, 1);
    std::unique_ptr<SC::CsrMatrix<double>> matrix;
    if (runs_part(options, "spmv")) {
        std::printf("generating the 2D Poisson matrix of a %d x %d grid ...\n", options.spmv_grid, options.spmv_grid);
        matrix = std::make_unique<SC::CsrMatrix<double>>(SC::poisson_2d(options.spmv_grid));
    }
    for (const int g : counts) {
        D::LocalGroup group(g);
        if (runs_part(options, "scan")) bench_scan(group, scan_n, options.runs, report);
        if (runs_part(options, "compact")) {
            bench_compact(group, compact_n, options.runs, D::Balance::Keep, report);
            bench_compact(group, compact_n, options.runs, D::Balance::Rebalance, report);
        }
        if (runs_part(options, "sort")) {
            bench_sort(group, sort_n, options.runs, report, "uniform");
            bench_sort(group, sort_total / g, options.runs, report, "uniform_strong");
        }
        if (matrix) bench_spmv(group, *matrix, options.spmv_grid, options.runs, report);
    }
    if (report.wrong() > 0) {
        std::fprintf(stderr, "sc_dist_bench: %d results were wrong (rows marked WRONG, ok=0)\n", report.wrong());
        return 1;
    }
    return 0;
}

}  // namespace

// Reads the flags (exit 2 on a bad one, the usage for --help), refuses without a usable CUDA device
// (exit 77, CTest's and Automake's "skipped": nothing measured) or without code for it (exit 4),
// then runs; an exception (cuda_error, nccl_error) is reported in one line as exit 1.
int main(int argc, char **argv) {
    Options options;
    bool help = false;
    const std::string error = parse_args(argc, argv, options, help);
    if (!error.empty()) {
        std::fprintf(stderr, "sc_dist_bench: %s\n", error.c_str());
        return 2;
    }
    if (help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const SC::DeviceStatus device = SC::probe_device();
    if (!device.usable) {
        std::fprintf(stderr, "sc_dist_bench: %s\n", device.reason.c_str());
        return 77;
    }
    if (!device.no_code_for_device.empty()) {
        std::fprintf(stderr, "sc_dist_bench: %s\n", device.no_code_for_device.c_str());
        return SC::kExitNoCodeForDevice;
    }
    try {
        return run(options);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "sc_dist_bench: %s\n", e.what());
        return 1;
    }
}

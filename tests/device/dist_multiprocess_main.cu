// The distributed primitives with one process per GPU, bootstrapped as separate machines would be:
// rank 0 makes the ncclUniqueId and writes it to a file, the other ranks read it, and every
// process calls ncclCommInitRank. With MPI the file is an MPI_Bcast (docs/usage.md, "Distributed (NCCL)").
//
//   sc_dist_multiprocess            launcher: starts one process per visible GPU (1 GPU: one),
//                                   waits for them; exit 0 all passed, 1 a rank failed or timed
//                                   out, 77 no usable CUDA device (skipped)
//   sc_dist_multiprocess --rank R --ranks N --id-file PATH
//                                   one rank (what the launcher starts)
//
// Each rank builds the same global arrays from a fixed seed, takes its shard (ragged: rank 0 has
// none when there are several), and checks the scan, the compaction with rebalance and the sample
// sort of pairs against the CPU on its own part of the result.
#include <stream_compaction/distributed/compaction.cuh>
#include <stream_compaction/distributed/plans.h>
#include <stream_compaction/distributed/sample_sort.h>
#include <stream_compaction/distributed/scan.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/device_probe.h>

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace SC = StreamCompaction;
namespace D = StreamCompaction::distributed;

namespace {

constexpr int kSkipped = 77;
constexpr double kRankTimeoutSeconds = 300;
constexpr double kIdWaitSeconds = 60;

// ---- one rank ----

std::vector<std::size_t> shardSizes(int ranks) {
    std::vector<std::size_t> sizes(ranks);
    for (int r = 0; r < ranks; ++r) sizes[r] = ranks > 1 && r == 0 ? 0 : 40000 * static_cast<std::size_t>(r + 1) + 17;
    return sizes;
}

// Rank 0 writes the id under a temporary name and renames it, so a reader never sees half of it.
void publishId(const std::string &path, const ncclUniqueId &id) {
    const std::string temporary = path + ".partial";
    {
        std::ofstream out(temporary, std::ios::binary);
        out.write(id.internal, sizeof id.internal);
        if (!out) throw std::runtime_error("cannot write " + temporary);
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot rename " + temporary + " to " + path + ": " + std::strerror(errno));
}

ncclUniqueId readId(const std::string &path) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kIdWaitSeconds);
    ncclUniqueId id;
    while (true) {
        std::ifstream in(path, std::ios::binary);
        if (in && in.read(id.internal, sizeof id.internal)) return id;
        if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("no ncclUniqueId in " + path);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

template <class T>
bool same(const char *what, int rank, const std::vector<T> &got, const std::vector<T> &expected) {
    if (got == expected) return true;
    std::fprintf(stderr, "rank %d: %s: FAIL (%zu items, %zu expected)\n", rank, what, got.size(), expected.size());
    return false;
}

int runRank(int rank, int ranks, const std::string &id_file) {
    int devices = 0;
    SC_CUDA_CHECK(cudaGetDeviceCount(&devices));
    SC_CUDA_CHECK(cudaSetDevice(rank % devices));
    ncclUniqueId id;
    if (rank == 0) {
        SC_NCCL_CHECK(ncclGetUniqueId(&id));
        publishId(id_file, id);
    } else {
        id = readId(id_file);
    }
    ncclComm_t nccl = nullptr;
    SC_NCCL_CHECK(ncclCommInitRank(&nccl, ranks, id, rank));
    bool ok = true;
    try {
        const D::Communicator comm(nccl);
        D::Workspace ws;
        const std::vector<std::size_t> sizes = shardSizes(ranks);
        std::size_t n = 0, begin = 0;  // the global size, and where this rank's shard starts
        for (int r = 0; r < ranks; ++r) {
            if (r < rank) begin += sizes[r];
            n += sizes[r];
        }
        std::mt19937 rng(2024);
        std::vector<int> global(n);
        for (int &v : global) v = static_cast<int>(rng() % 2001) - 1000;  // duplicates, negatives, zeros
        global[n - 1] = INT_MIN;
        global[n / 2] = INT_MAX;
        const std::vector<int> shard(global.begin() + begin, global.begin() + begin + sizes[rank]);
        const auto d_in = SC::DeviceBuffer<int>::from_host(shard.data(), shard.size());

        // Scan: this rank's part of the global exclusive sum (wrapping, as the GPU's).
        SC::DeviceBuffer<int> d_scan(shard.size());
        d_scan.fill_bytes(0xA5);
        D::exclusive_sum(comm, d_in.get(), d_scan.get(), shard.size(), ws);
        std::vector<int> scanned(shard.size()), expected_scan;
        d_scan.copy_to_host(scanned.data(), scanned.size());
        unsigned sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i >= begin && i < begin + shard.size()) expected_scan.push_back(static_cast<int>(sum));
            sum += static_cast<unsigned>(global[i]);
        }
        ok &= same("exclusive_sum", rank, scanned, expected_scan);

        // Compaction, rebalanced: this rank's balanced share of the non-zero items.
        std::vector<int> kept;
        std::copy_if(global.begin(), global.end(), std::back_inserter(kept), [](int v) { return v != 0; });
        const std::size_t capacity = n / ranks + 1;
        SC::DeviceBuffer<int> d_kept(capacity);
        d_kept.fill_bytes(0xA5);
        const D::Placement placed = D::compact_if(comm, d_in.get(), shard.size(), d_kept.get(), capacity,
                                                  SC::NonZero{}, D::Balance::Rebalance, ws);
        std::vector<int> got_kept(placed.count);
        d_kept.copy_to_host(got_kept.data(), placed.count);
        ok &= same("compact_if", rank, got_kept,
                   std::vector<int>(kept.begin() + placed.global_begin,
                                    kept.begin() + placed.global_begin + placed.count));
        ok &= placed.global_begin == D::balanced_begin(kept.size(), ranks, rank);

        // Sample sort of pairs (value: global index): this rank's run of the stable sort.
        std::vector<int> index(n);
        for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<int>(i);
        const std::vector<int> values(index.begin() + begin, index.begin() + begin + sizes[rank]);
        std::stable_sort(index.begin(), index.end(), [&](int a, int b) { return global[a] < global[b]; });
        const auto d_values = SC::DeviceBuffer<int>::from_host(values.data(), values.size());
        const std::size_t sort_capacity = D::sample_sort_capacity(n, ranks);
        SC::DeviceBuffer<int> d_keys_out(sort_capacity), d_values_out(sort_capacity);
        d_keys_out.fill_bytes(0xA5);
        d_values_out.fill_bytes(0xA5);
        const D::Placement run = D::sample_sort_pairs(comm, d_in.get(), d_values.get(), shard.size(), d_keys_out.get(),
                                                      d_values_out.get(), sort_capacity, ws);
        std::vector<int> got_keys(run.count), got_values(run.count), expected_keys, expected_values;
        d_keys_out.copy_to_host(got_keys.data(), run.count);
        d_values_out.copy_to_host(got_values.data(), run.count);
        for (std::size_t i = run.global_begin; i < run.global_begin + run.count; ++i) {
            expected_keys.push_back(global[index[i]]);
            expected_values.push_back(index[i]);
        }
        ok &= same("sample_sort_pairs keys", rank, got_keys, expected_keys);
        ok &= same("sample_sort_pairs values", rank, got_values, expected_values);
        std::printf("rank %d of %d (device %d): %zu items; scan, compaction, sort %s\n", rank, ranks, comm.device(),
                    shard.size(), ok ? "passed" : "FAILED");
    } catch (...) {
        (void)ncclCommAbort(nccl);  // peers may wait for this rank: the error rethrown is the one to report
        throw;
    }
    SC_NCCL_CHECK(ncclCommDestroy(nccl));
    return ok ? 0 : 1;
}

// ---- the launcher ----

int launch(const char *self) {
    const SC::DeviceStatus device = SC::probe_device();
    if (!device.usable) {
        std::printf("skipped: %s\n", device.reason.c_str());
        return kSkipped;
    }
    if (!device.no_code_for_device.empty()) {
        std::fprintf(stderr, "sc_dist_multiprocess: %s\n", device.no_code_for_device.c_str());
        return SC::kExitNoCodeForDevice;
    }
    int ranks = 0;
    SC_CUDA_CHECK(cudaGetDeviceCount(&ranks));
    char directory[] = "/tmp/sc_dist_id.XXXXXX";
    if (mkdtemp(directory) == nullptr) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
    const std::string id_file = std::string(directory) + "/nccl_unique_id";
    std::printf("%d processes, one per GPU; ncclUniqueId through %s\n", ranks, id_file.c_str());
    std::fflush(stdout);

    std::vector<pid_t> children;
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string r = std::to_string(rank), n = std::to_string(ranks);
        const pid_t pid = fork();
        if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
        if (pid == 0) {
            execl("/proc/self/exe", self, "--rank", r.c_str(), "--ranks", n.c_str(), "--id-file", id_file.c_str(),
                  static_cast<char *>(nullptr));
            std::_Exit(127);
        }
        children.push_back(pid);
    }
    // Wait for every rank, up to the deadline; then stop the ones still running (ours, by pid).
    int failed = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kRankTimeoutSeconds);
    std::vector<bool> done(ranks, false);
    for (int remaining = ranks; remaining > 0;) {
        for (int rank = 0; rank < ranks; ++rank) {
            int status = 0;
            if (done[rank] || waitpid(children[rank], &status, WNOHANG) != children[rank]) continue;
            done[rank] = true;
            --remaining;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                std::printf("rank %d: FAIL (exit status %d)\n", rank, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
                ++failed;
            }
        }
        if (remaining > 0 && std::chrono::steady_clock::now() > deadline) {
            for (int rank = 0; rank < ranks; ++rank)
                if (!done[rank]) {
                    std::printf("rank %d: FAIL (still running after %.0f s: stopped)\n", rank, kRankTimeoutSeconds);
                    kill(children[rank], SIGKILL);
                    waitpid(children[rank], nullptr, 0);
                    ++failed;
                }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::remove(id_file.c_str());
    rmdir(directory);
    std::printf("%d of %d ranks passed\n", ranks - failed, ranks);
    return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
    setenv("NCCL_NVLS_ENABLE", "0", 0);  // before any NCCL call, unless the environment says otherwise
    try {
        if (argc == 1) return launch(argv[0]);
        int rank = -1, ranks = 0;
        std::string id_file;
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string flag = argv[i];
            if (flag == "--rank") rank = std::atoi(argv[i + 1]);
            else if (flag == "--ranks") ranks = std::atoi(argv[i + 1]);
            else if (flag == "--id-file") id_file = argv[i + 1];
        }
        if (argc != 7 || rank < 0 || ranks < 1 || rank >= ranks || id_file.empty()) {
            std::fprintf(stderr, "usage: %s [--rank R --ranks N --id-file PATH]\n", argv[0]);
            return 2;
        }
        return runRank(rank, ranks, id_file);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
}

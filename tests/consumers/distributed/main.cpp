// Consumer of the installed distributed primitives: one rank per visible GPU in this process, and a
// distributed exclusive sum of 1, 2, 3, ... over their shards, checked on the host.
// Exit codes: 0 pass, 1 fail, 77 no CUDA device.
#include <stream_compaction/distributed/communicator.h>
#include <stream_compaction/distributed/local_group.h>
#include <stream_compaction/distributed/scan.h>

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <new>
#include <vector>

namespace D = StreamCompaction::distributed;

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("skipped: no CUDA device\n");
        return 77;
    }
    try {
        D::LocalGroup group;
        const int ranks = group.size();
        const std::size_t shard = 1000;  // rank r holds r * shard + 1, ..., (r + 1) * shard
        std::atomic<int> wrong{0};
        group.run([&](int rank) {
            std::vector<std::int64_t> in(shard), out(shard);
            for (std::size_t i = 0; i < shard; ++i) in[i] = static_cast<std::int64_t>(rank * shard + i + 1);
            std::int64_t *d_data = nullptr;
            if (cudaMalloc(&d_data, shard * sizeof(std::int64_t)) != cudaSuccess) throw std::bad_alloc();
            cudaMemcpy(d_data, in.data(), shard * sizeof(std::int64_t), cudaMemcpyHostToDevice);
            const D::Communicator comm(group.comm(rank));
            D::Workspace ws;
            const std::int64_t total = D::exclusive_sum(comm, d_data, d_data, shard, ws);
            cudaMemcpy(out.data(), d_data, shard * sizeof(std::int64_t), cudaMemcpyDeviceToHost);
            cudaFree(d_data);
            const std::int64_t n = static_cast<std::int64_t>(ranks) * static_cast<std::int64_t>(shard);
            if (total != n * (n + 1) / 2) ++wrong;
            for (std::size_t i = 0; i < shard; ++i) {
                const std::int64_t before = static_cast<std::int64_t>(rank * shard + i);  // items before this one
                if (out[i] != before * (before + 1) / 2) ++wrong;
            }
        });
        std::printf("distributed exclusive sum on %d ranks: %s\n", ranks, wrong == 0 ? "ok" : "FAIL");
        return wrong == 0 ? 0 : 1;
    } catch (const std::exception &e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}

// The harness's `distributed` group: the NCCL primitives on every visible GPU of this process (one
// rank each, ncclCommInitAll; with one GPU a communicator of one), each rank on a host thread of
// its own. The global input is split unevenly (rank r holds a share proportional to r + 1) and the
// concatenated result is compared with the CPU. Built only with NCCL (distributed_not_built.cpp
// stands in otherwise).
#include <stream_compaction/distributed/compaction.cuh>
#include <stream_compaction/distributed/local_group.h>
#include <stream_compaction/distributed/plans.h>
#include <stream_compaction/distributed/sample_sort.h>
#include <stream_compaction/distributed/scan.h>
#include <stream_compaction/distributed/spmv.h>
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include "test_groups.h"
#include "testing_helpers.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace SC = StreamCompaction;
namespace D = StreamCompaction::distributed;
using SC::DeviceBuffer;

namespace {

// Shares proportional to rank + 1 (rank 0 the smallest), summing to n.
std::vector<std::size_t> unevenShards(std::size_t n, int ranks) {
    std::vector<std::size_t> sizes(ranks);
    const std::size_t weights = static_cast<std::size_t>(ranks) * (ranks + 1) / 2;
    std::size_t given = 0;
    for (int r = 0; r < ranks; ++r) given += sizes[r] = n / weights * (r + 1);
    sizes[ranks - 1] += n - given;
    return sizes;
}

std::vector<std::size_t> beginsOf(const std::vector<std::size_t> &sizes) {
    std::vector<std::size_t> begin(sizes.size() + 1, 0);
    std::partial_sum(sizes.begin(), sizes.end(), begin.begin() + 1);
    return begin;
}

// Runs body(rank, comm) on every rank and returns the wall-clock milliseconds of the slowest.
template <class Body>
float onEveryRank(D::LocalGroup &group, Body body) {
    const auto start = std::chrono::steady_clock::now();
    group.run([&](int rank) {
        const D::Communicator comm(group.comm(rank));
        body(rank, comm);
        SC_CUDA_CHECK(cudaDeviceSynchronize());
    });
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

static void distributedTests(Harness &h, std::mt19937 &rng) {
    if (!h.selected("distributed")) return;
    std::printf("\n***********************\n** DISTRIBUTED TESTS **\n***********************\n");
    std::unique_ptr<D::LocalGroup> group;
    if (h.deviceUsable()) {
        setenv("NCCL_NVLS_ENABLE", "0", 0);  // before NCCL starts, unless the environment says otherwise
        group = std::make_unique<D::LocalGroup>();
        std::printf("    %d ranks (one per visible GPU), shards in proportion 1 : 2 : ... : ranks\n", group->size());
    }
    const int ranks = group ? group->size() : 1;
    const std::size_t n = static_cast<std::size_t>(SIZE);
    const std::vector<std::size_t> sizes = unevenShards(n, ranks), begin = beginsOf(sizes);

    std::vector<int> a(n);
    genArray(n, a.data(), 50, rng);
    const std::string suffix = !group ? ", every visible GPU" : ranks == 1 ? ", 1 GPU" : ", " + std::to_string(ranks) + " GPUs";

    h.gpuTest("distributed", ("distributed exclusive sum (int32)" + suffix).c_str(), [&] {
        std::vector<int> out(n);
        poisonArray(n, out.data());
        const float ms = onEveryRank(*group, [&](int rank, const D::Communicator &comm) {
            D::Workspace ws;
            auto d_in = DeviceBuffer<int>::from_host(a.data() + begin[rank], sizes[rank]);
            D::exclusive_sum(comm, d_in.get(), d_in.get(), sizes[rank], ws);
            d_in.copy_to_host(out.data() + begin[rank], sizes[rank]);
        });
        std::vector<int> expected(n);
        std::exclusive_scan(a.begin(), a.end(), expected.begin(), 0);
        printElapsedTime(ms, "(std::chrono Measured, all ranks, uploads included)");
        printArray(n, out.data(), true);
        return printCmpResult(n, expected.data(), out.data());
    });

    h.gpuTest("distributed", ("distributed compaction, rebalanced (int32)" + suffix).c_str(), [&] {
        std::vector<int> in(a);
        for (std::size_t i = 0; i < n; i += 3) in[i] = 0;
        std::vector<int> expected;
        std::copy_if(in.begin(), in.end(), std::back_inserter(expected), [](int v) { return v != 0; });
        std::vector<int> out(n);
        std::vector<std::size_t> counts(ranks);
        poisonArray(n, out.data());
        const float ms = onEveryRank(*group, [&](int rank, const D::Communicator &comm) {
            D::Workspace ws;
            auto d_in = DeviceBuffer<int>::from_host(in.data() + begin[rank], sizes[rank]);
            DeviceBuffer<int> d_out(n / ranks + 1);
            const D::Placement p = D::compact_if(comm, d_in.get(), sizes[rank], d_out.get(), d_out.size(),
                                                 SC::NonZero{}, D::Balance::Rebalance, ws);
            counts[rank] = p.count;
            d_out.copy_to_host(out.data() + p.global_begin, p.count);
        });
        const std::size_t kept = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
        printElapsedTime(ms, "(std::chrono Measured, all ranks, uploads included)");
        printArray(kept, out.data(), true);
        return printCmpLenResult(kept, expected.size(), expected.data(), out.data());
    });

    std::vector<int> keys(n);
    std::uniform_int_distribution<int> anyInt(INT_MIN, INT_MAX);
    for (int &k : keys) k = anyInt(rng) % 1000;  // duplicates across ranks, negatives
    keys[0] = INT_MAX;
    keys[n - 1] = INT_MIN;
    std::vector<int> sorted(keys);
    std::stable_sort(sorted.begin(), sorted.end());
    for (const bool pairs : {false, true}) {
        const std::string desc = std::string("distributed sample sort ") + (pairs ? "(pairs)" : "(keys)") + suffix;
        h.gpuTest("distributed", desc.c_str(), [&] {
            std::vector<int> out(n), values(n), order(n);
            poisonArray(n, out.data());
            std::iota(values.begin(), values.end(), 0);
            const std::size_t capacity = D::sample_sort_capacity(n, ranks);
            const float ms = onEveryRank(*group, [&](int rank, const D::Communicator &comm) {
                D::Workspace ws;
                auto d_keys = DeviceBuffer<int>::from_host(keys.data() + begin[rank], sizes[rank]);
                auto d_values = DeviceBuffer<int>::from_host(values.data() + begin[rank], sizes[rank]);
                DeviceBuffer<int> d_keys_out(capacity), d_values_out(capacity);
                const D::Placement p =
                    pairs ? D::sample_sort_pairs(comm, d_keys.get(), d_values.get(), sizes[rank], d_keys_out.get(),
                                                 d_values_out.get(), capacity, ws)
                          : D::sample_sort_keys(comm, d_keys.get(), sizes[rank], d_keys_out.get(), capacity, ws);
                d_keys_out.copy_to_host(out.data() + p.global_begin, p.count);
                if (pairs) d_values_out.copy_to_host(order.data() + p.global_begin, p.count);
            });
            printElapsedTime(ms, "(std::chrono Measured, all ranks, uploads included)");
            printArray(n, out.data(), true);
            bool ok = printCmpResult(n, sorted.data(), out.data());
            if (pairs)  // stable: the values of equal keys in input order
                for (std::size_t i = 0; ok && i < n; ++i)
                    if (keys[order[i]] != sorted[i] || (i > 0 && keys[order[i - 1]] == keys[order[i]] && order[i - 1] > order[i])) {
                        std::printf("    FAIL VALUE at %zu\n", i);
                        ok = false;
                    }
            return ok;
        });
    }

    h.gpuTest("distributed", ("distributed SpMV, 2D Poisson 256 x 256 (double)" + suffix).c_str(), [&] {
        const SC::CsrMatrix<double> m = SC::poisson_2d(256);
        std::vector<long long> rows(ranks + 1);
        for (int r = 0; r <= ranks; ++r) rows[r] = static_cast<long long>(D::balanced_begin(m.rows, ranks, r));
        std::vector<double> x(m.cols), y(m.rows, NAN), expected(m.rows, 0.0);
        for (int c = 0; c < m.cols; ++c) x[c] = std::sin(0.01 * c);
        for (int r = 0; r < m.rows; ++r)
            for (int k = m.row_offsets[r]; k < m.row_offsets[r + 1]; ++k) expected[r] += m.values[k] * x[m.column_indices[k]];
        const float ms = onEveryRank(*group, [&](int rank, const D::Communicator &comm) {
            SC::CsrMatrix<double> mine;
            mine.rows = static_cast<int>(rows[rank + 1] - rows[rank]);
            mine.cols = m.cols;
            const int first = m.row_offsets[rows[rank]], end = m.row_offsets[rows[rank + 1]];
            mine.row_offsets.assign(m.row_offsets.begin() + rows[rank], m.row_offsets.begin() + rows[rank + 1] + 1);
            for (int &offset : mine.row_offsets) offset -= first;
            mine.column_indices.assign(m.column_indices.begin() + first, m.column_indices.begin() + end);
            mine.values.assign(m.values.begin() + first, m.values.begin() + end);
            D::DistributedSpmv<double> multiply(comm, mine, rows);
            auto d_x = DeviceBuffer<double>::from_host(x.data() + rows[rank], multiply.own_columns());
            DeviceBuffer<double> d_y(mine.rows);
            multiply(1.0, d_x.get(), 0.0, d_y.get());
            d_y.copy_to_host(y.data() + rows[rank], mine.rows);
        });
        printElapsedTime(ms, "(std::chrono Measured, all ranks, plan and uploads included)");
        for (int r = 0; r < m.rows; ++r)
            if (!(std::abs(y[r] - expected[r]) <= 1e-12 * (1 + std::abs(expected[r])))) {
                std::printf("    FAIL VALUE at row %d: %g, expected %g\n", r, y[r], expected[r]);
                return false;
            }
        std::printf("    passed \n");
        return true;
    });
}

const RegisterTests kDistributedTests(130, {"distributed"},
                    [](Harness &h, const GroupContext &c) { distributedTests(h, c.rng); });

#include <stream_compaction/distributed/exchange.h>
#include <stream_compaction/distributed/plans.h>
#include <stream_compaction/distributed/sample_sort.h>

#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/device/merge.cuh>
#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/nvtx.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

namespace StreamCompaction {
namespace distributed {
namespace {

using Key = std::int32_t;
using Value = std::int32_t;

// Workspace slots: the radix sorts' storage; the sorted shard (keys, then values); the samples,
// splitters and bucket counts, later the received runs (keys, then values); the small gathers.
constexpr int kSlotSortStorage = 0, kSlotSortedShard = 1, kSlotBuckets = 2, kSlotGather = 3;

// samples[j] = sorted[first + j * interval] for j < count (regular_sample_positions' positions).
__global__ void gather_samples(const Key *sorted, std::size_t first, std::size_t interval, std::size_t count,
                               Key *samples) {
    const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (j < count) samples[j] = sorted[first + j * interval];
}

// The first position in sorted[lo, hi) whose key is not below `key` (upper: above it).
__device__ std::size_t first_not_before(const Key *sorted, std::size_t lo, std::size_t hi, Key key, bool upper) {
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (upper ? !(key < sorted[mid]) : sorted[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// bucket_bounds (plans.h) on the device, by one thread (ranks - 1 binary searches): writes the
// ranks bucket counts of this rank's sorted shard. Fewer splitters than ranks - 1 (none were
// sampled): the last buckets are empty.
__global__ void count_buckets(const Key *sorted, std::size_t n, int rank, int ranks, const Splitter<Key> *splitters,
                              int splitter_count, std::size_t *counts) {
    std::size_t previous = 0;
    for (int b = 0; b < ranks; ++b) {
        std::size_t bound = n;
        if (b < splitter_count) {
            const Splitter<Key> s = splitters[b];
            const std::size_t below = first_not_before(sorted, 0, n, s.key, false);
            const std::size_t equal_end = first_not_before(sorted, below, n, s.key, true);
            bound = split_among_equal_keys(below, equal_end, rank, s.rank, s.position);
            bound = bound < previous ? previous : bound;
        }
        counts[b] = bound - previous;
        previous = bound;
    }
}

// Local radix sort of keys (and values) from `keys_in` to `keys_out`, storage from the workspace.
template <bool Pairs>
void local_sort(const Key *keys_in, Key *keys_out, const Value *values_in, Value *values_out, std::size_t n,
                Workspace &ws, cudaStream_t stream) {
    if (n == 0) return;
    if constexpr (Pairs) {
        const std::size_t bytes = radix_sort_temp_bytes<Key, Value>(n);
        radix_sort_pairs(keys_in, keys_out, values_in, values_out, n, ws.device(kSlotSortStorage, bytes), bytes,
                         stream);
    } else {
        const std::size_t bytes = radix_sort_temp_bytes<Key>(n);
        radix_sort_keys(keys_in, keys_out, n, ws.device(kSlotSortStorage, bytes), bytes, stream);
    }
}

// A run of the received buffer: [begin, begin + count).
struct Run {
    std::size_t begin, count;
};

// Merges the sorted `runs` (in source-rank order, covering [0, m) of keys/values) into
// keys_out/values_out, pairwise and round by round, so that each round reads and writes every item
// once: ceil(log2(runs)) rounds instead of a re-sort. Stable: a merge puts the earlier run's equal
// keys first, and the runs stay in rank order, so equal keys keep the order of the ranks and of
// each rank's shard, as the local stable sort of the concatenation would. The rounds alternate
// between the received buffer and the output; the first round's direction is chosen so that the
// last one writes the output.
template <bool Pairs>
void merge_runs(std::vector<Run> runs, Key *keys, Value *values, Key *keys_out, Value *values_out, cudaStream_t stream) {
    int rounds = 0;
    for (std::size_t r = 1; r < runs.size(); r *= 2) ++rounds;
    Key *key_buffers[2] = {keys, keys_out};
    Value *value_buffers[2] = {values, values_out};
    int from = rounds % 2 == 0 ? 1 : 0;  // even rounds: start in the output, after a copy there
    const std::size_t m = runs.back().begin + runs.back().count;
    if (from == 1) {
        SC_CUDA_CHECK(cudaMemcpyAsync(keys_out, keys, m * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
        if (Pairs) SC_CUDA_CHECK(cudaMemcpyAsync(values_out, values, m * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
    }
    for (; runs.size() > 1; from = 1 - from) {
        const int to = 1 - from;
        std::vector<Run> merged;
        for (std::size_t i = 0; i < runs.size(); i += 2) {
            const Run a = runs[i];
            const Run b = i + 1 < runs.size() ? runs[i + 1] : Run{a.begin + a.count, 0};
            if (Pairs)
                merge_pairs(key_buffers[from] + a.begin, value_buffers[from] + a.begin, a.count,
                            key_buffers[from] + b.begin, value_buffers[from] + b.begin, b.count,
                            key_buffers[to] + a.begin, value_buffers[to] + a.begin, Less{}, stream);
            else
                merge_keys(key_buffers[from] + a.begin, a.count, key_buffers[from] + b.begin, b.count,
                           key_buffers[to] + a.begin, Less{}, stream);
            merged.push_back({a.begin, a.count + b.count});
        }
        runs = std::move(merged);
    }
}

template <bool Pairs>
Placement sample_sort(const char *name, const Communicator &comm, const Key *d_keys, const Value *d_values,
                      std::size_t n, Key *d_keys_out, Value *d_values_out, std::size_t capacity, Workspace &ws,
                      cudaStream_t stream) {
    require_device_pointers(name, n, d_keys, d_keys_out);
    if (Pairs) require_device_pointers(name, n, d_values, d_values_out);
    comm.require_current_device(name);
    require_not_capturing(name, stream);
    const int ranks = comm.ranks(), rank = comm.rank();

    // 1. Every rank's (count, capacity).
    const std::vector<ShardSize> sizes = gather_shard_sizes(comm, nullptr, n, capacity, ws, kSlotGather, stream);
    std::vector<std::size_t> counts;
    for (const ShardSize &s : sizes) counts.push_back(s.count);
    const std::size_t total = shard_offsets(counts).back();
    if (ranks == 1) {  // nothing to exchange: one sort straight into the output
        require_capacities(name, {n}, sizes);
        local_sort<Pairs>(d_keys, d_keys_out, d_values, d_values_out, n, ws, stream);
        return {n, 0, n};
    }

    // 2. The sorted shard: keys, then values.
    const auto shard_layout = StreamCompaction::detail::temp_layout(n * sizeof(Key), Pairs ? n * sizeof(Value) : 0);
    const auto shard = shard_layout.carve(ws.device(kSlotSortedShard, shard_layout.bytes()));
    Key *sorted_keys = reinterpret_cast<Key *>(shard[0]);
    Value *sorted_values = reinterpret_cast<Value *>(shard[1]);
    local_sort<Pairs>(d_keys, sorted_keys, d_values, sorted_values, n, ws, stream);

    // 3. Regular samples, padded to the most any rank has, all-gathered; splitters on the host.
    const std::size_t interval = sample_interval(total, ranks, kSortSamplesPerRank);
    std::vector<std::size_t> sample_counts;
    for (const std::size_t c : counts) sample_counts.push_back(regular_sample_positions(c, interval).size());
    const std::size_t padded = *std::max_element(sample_counts.begin(), sample_counts.end());
    const auto small_layout = StreamCompaction::detail::temp_layout(
        std::max<std::size_t>(padded, 1) * sizeof(Key), ranks * sizeof(Splitter<Key>), ranks * sizeof(std::size_t));
    const auto small = small_layout.carve(ws.device(kSlotBuckets, small_layout.bytes()));
    Key *d_samples = reinterpret_cast<Key *>(small[0]);
    Splitter<Key> *d_splitters = reinterpret_cast<Splitter<Key> *>(small[1]);
    std::size_t *d_bucket_counts = reinterpret_cast<std::size_t *>(small[2]);
    if (padded > 0) SC_CUDA_CHECK(cudaMemsetAsync(d_samples, 0, padded * sizeof(Key), stream));  // the padding
    if (sample_counts[rank] > 0)
        StreamCompaction::detail::launch(gather_samples, "distributed::gather_samples",
                                         blocks_for(sample_counts[rank], 256), 256, 0, stream, sorted_keys,
                                         interval / 2, interval, sample_counts[rank], d_samples);
    const std::vector<Key> gathered = all_gather_to_host(comm, d_samples, padded, ws, kSlotGather, stream);
    std::vector<Splitter<Key>> samples;
    for (int r = 0; r < ranks; ++r)
        for (std::size_t j = 0; j < sample_counts[r]; ++j)
            samples.push_back({gathered[r * padded + j], r, interval / 2 + j * interval});
    const std::vector<Splitter<Key>> splitters = choose_splitters(samples, ranks);

    // 4. This rank's bucket counts on the device; every rank's, all-gathered (row r: rank r's).
    if (!splitters.empty()) {
        Splitter<Key> *pinned = static_cast<Splitter<Key> *>(ws.host(splitters.size() * sizeof(Splitter<Key>)));
        std::memcpy(pinned, splitters.data(), splitters.size() * sizeof(Splitter<Key>));
        SC_CUDA_CHECK(cudaMemcpyAsync(d_splitters, pinned, splitters.size() * sizeof(Splitter<Key>),
                                      cudaMemcpyHostToDevice, stream));
    }
    StreamCompaction::detail::launch(count_buckets, "distributed::count_buckets", 1, 1, 0, stream, sorted_keys, n, rank,
                                     ranks, d_splitters, static_cast<int>(splitters.size()), d_bucket_counts);
    const std::vector<std::size_t> matrix = all_gather_to_host(comm, d_bucket_counts, ranks, ws, kSlotGather, stream);
    std::vector<std::size_t> received(ranks, 0);
    for (int from = 0; from < ranks; ++from)
        for (int to = 0; to < ranks; ++to) received[to] += matrix[from * ranks + to];
    require_capacities(name, received, sizes);  // every rank alike, before anything moves
    Placement placement{received[rank], 0, total};
    for (int r = 0; r < rank; ++r) placement.global_begin += received[r];

    // 5. The all-to-all: bucket `to` of this rank's sorted shard goes to rank `to`; the runs
    // received land in source-rank order.
    std::vector<Transfer> sends, receives;
    std::size_t send_offset = 0, receive_offset = 0;
    for (int peer = 0; peer < ranks; ++peer) {
        const std::size_t out = matrix[rank * ranks + peer], in = matrix[peer * ranks + rank];
        if (out > 0) sends.push_back({peer, send_offset, out});
        if (in > 0) receives.push_back({peer, receive_offset, in});
        send_offset += out;
        receive_offset += in;
    }
    const std::size_t m = placement.count;
    const auto run_layout = StreamCompaction::detail::temp_layout(m * sizeof(Key), Pairs ? m * sizeof(Value) : 0);
    const auto runs = run_layout.carve(ws.device(kSlotBuckets, run_layout.bytes()));  // the small data is read
    Key *run_keys = reinterpret_cast<Key *>(runs[0]);
    Value *run_values = reinterpret_cast<Value *>(runs[1]);
    std::vector<ExchangedArray> arrays{{sorted_keys, run_keys, sizeof(Key)}};
    if (Pairs) arrays.push_back({sorted_values, run_values, sizeof(Value)});
    exchange(comm, sends, receives, arrays, stream);

    // 6. The runs merged (one run: copied).
    if (m > 0) {
        std::vector<Run> received_runs;
        for (const Transfer &t : receives) received_runs.push_back({t.offset, t.count});
        merge_runs<Pairs>(received_runs, run_keys, run_values, d_keys_out, d_values_out, stream);
    }
    return placement;
}

}  // namespace

std::size_t sample_sort_capacity(std::size_t total, int ranks) {
    return sample_sort_bound(total, ranks, kSortSamplesPerRank);
}

Placement sample_sort_keys(const Communicator &comm, const std::int32_t *d_keys, std::size_t n,
                           std::int32_t *d_keys_out, std::size_t capacity, Workspace &ws, cudaStream_t stream) {
    SC_NVTX_RANGE("distributed::sample_sort_keys");
    return sample_sort<false>("distributed::sample_sort_keys", comm, d_keys, nullptr, n, d_keys_out, nullptr, capacity,
                              ws, stream);
}

Placement sample_sort_pairs(const Communicator &comm, const std::int32_t *d_keys, const std::int32_t *d_values,
                            std::size_t n, std::int32_t *d_keys_out, std::int32_t *d_values_out, std::size_t capacity,
                            Workspace &ws, cudaStream_t stream) {
    SC_NVTX_RANGE("distributed::sample_sort_pairs");
    return sample_sort<true>("distributed::sample_sort_pairs", comm, d_keys, d_values, n, d_keys_out, d_values_out,
                             capacity, ws, stream);
}

}  // namespace distributed
}  // namespace StreamCompaction

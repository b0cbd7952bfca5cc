#include <stream_compaction/shared.h>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/support/nvtx.h>

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/detail/warp/warp_scan.cuh>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/tuning/block_sizes.h>
#include <stream_compaction/tuning/policies.h>

#include <climits>
#include <cstdint>

namespace StreamCompaction {
namespace Shared {

using StreamCompaction::Common::PerformanceTimer;
using detail::kWarpThreads;

PerformanceTimer &timer() {
    static PerformanceTimer timer;
    return timer;
}

// A thread's items: kRows rows of one 16-byte vector (kVec ints) each.
constexpr int kVec = 4;
constexpr int kRows = kSharedItemsPerThread / kVec;
constexpr int kItemsPerThread = kSharedItemsPerThread;
constexpr int kWarpItems = kWarpThreads * kItemsPerThread;      // 512: a warp's share of a tile
constexpr int kMaxWarps = 1024 / kWarpThreads;                  // warps of the largest block
constexpr int kMinThreads = 32;                                 // smallest block (tuning.h)
constexpr std::size_t kSumsAlign = 16 / sizeof(int);            // each level's sums start 16-byte aligned

// Sums are unsigned inside the kernels: they wrap modulo 2^32 without signed overflow.
struct Plus {
    __device__ __forceinline__ unsigned operator()(unsigned a, unsigned b) const { return a + b; }
};

__device__ __forceinline__ bool aligned16(const void *p) {
    return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Tile layout: warp w owns the tile's items [w * kWarpItems, (w + 1) * kWarpItems), as kRows rows
// of 32 lanes x kVec items; lane l's row r holds items r * 128 + l * 4 .. + 3 of its warp's share.
// Each row is then one fully coalesced 512-byte access per warp, and a thread's rows follow each
// other in the tile's order (warp, row, lane, item). `vectorized`: a full tile at a 16-byte
// aligned address, moved as int4; otherwise scalar accesses guarded by `valid`, missing items 0.
__device__ __forceinline__ void load_items(const int *tile_in, unsigned (&items)[kRows][kVec], unsigned valid,
                                           bool vectorized) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    if (vectorized) {
        const int4 *vectors = reinterpret_cast<const int4 *>(tile_in) + warp * (kWarpItems / kVec) + lane;
#pragma unroll
        for (int r = 0; r < kRows; ++r) {
            const int4 v = vectors[r * kWarpThreads];
            items[r][0] = static_cast<unsigned>(v.x);
            items[r][1] = static_cast<unsigned>(v.y);
            items[r][2] = static_cast<unsigned>(v.z);
            items[r][3] = static_cast<unsigned>(v.w);
        }
        return;
    }
    const unsigned first = warp * kWarpItems + lane * kVec;
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
        for (int k = 0; k < kVec; ++k) {
            const unsigned i = first + r * (kWarpThreads * kVec) + k;
            items[r][k] = i < valid ? static_cast<unsigned>(tile_in[i]) : 0u;
        }
}

__device__ __forceinline__ void store_items(int *tile_out, const unsigned (&items)[kRows][kVec], unsigned valid,
                                            bool vectorized) {
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    if (vectorized) {
        int4 *vectors = reinterpret_cast<int4 *>(tile_out) + warp * (kWarpItems / kVec) + lane;
#pragma unroll
        for (int r = 0; r < kRows; ++r)
            vectors[r * kWarpThreads] = make_int4(static_cast<int>(items[r][0]), static_cast<int>(items[r][1]),
                                                  static_cast<int>(items[r][2]), static_cast<int>(items[r][3]));
        return;
    }
    const unsigned first = warp * kWarpItems + lane * kVec;
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
        for (int k = 0; k < kVec; ++k) {
            const unsigned i = first + r * (kWarpThreads * kVec) + k;
            if (i < valid) tile_out[i] = static_cast<int>(items[r][k]);
        }
}

__device__ __forceinline__ unsigned warp_sum(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_add_sync(detail::kFullMask, x);
#else
#pragma unroll
    for (int offset = kWarpThreads / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(detail::kFullMask, x, offset);
    return x;
#endif
}

// The tile of block b: its first item and how many of its blockDim.x * kItemsPerThread exist.
struct Tile {
    std::size_t base;
    unsigned valid;
    bool full;
};

__device__ __forceinline__ Tile this_tile(std::size_t n) {
    const unsigned tile_items = blockDim.x * kItemsPerThread;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * tile_items;
    const std::size_t left = n - base;
    const unsigned valid = left < tile_items ? static_cast<unsigned>(left) : tile_items;
    return {base, valid, valid == tile_items};
}

// tile_sums[b] = sum of tile b of in[0, n). Thread sums -> warp sums -> shared memory -> warp 0.
__global__ void __launch_bounds__(1024) kernReduceTiles(const int *in, std::size_t n, int *tile_sums) {
    __shared__ unsigned warp_totals[kMaxWarps];
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    const Tile tile = this_tile(n);

    unsigned items[kRows][kVec];
    load_items(in + tile.base, items, tile.valid, tile.full && aligned16(in));
    unsigned sum = 0;
#pragma unroll
    for (int r = 0; r < kRows; ++r) sum += detail::thread_reduce(items[r], Plus{});
    sum = warp_sum(sum);
    if (lane == 0) warp_totals[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        const unsigned warps = blockDim.x / kWarpThreads;
        const unsigned total = warp_sum(lane < warps ? warp_totals[lane] : 0u);
        if (lane == 0) tile_sums[blockIdx.x] = static_cast<int>(total);
    }
}

// out = exclusive scan of in[0, n), tile by tile: tile b starts from tile_prefixes[b] (0 without
// prefixes: a single tile). Each block reads its whole tile before writing it, and tiles are
// disjoint, so out may equal in.
__global__ void __launch_bounds__(1024) kernScanTiles(const int *in, int *out, std::size_t n, const int *tile_prefixes) {
    __shared__ unsigned warp_totals[kMaxWarps];
    const unsigned lane = threadIdx.x % kWarpThreads;
    const unsigned warp = threadIdx.x / kWarpThreads;
    const Tile tile = this_tile(n);
    const unsigned tile_prefix = tile_prefixes ? static_cast<unsigned>(tile_prefixes[blockIdx.x]) : 0u;

    unsigned items[kRows][kVec];
    load_items(in + tile.base, items, tile.valid, tile.full && aligned16(in));

    // Registers: each row's items become their exclusive prefixes within the row; own[r] = row total.
    unsigned own[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        unsigned running = 0;
#pragma unroll
        for (int k = 0; k < kVec; ++k) {
            const unsigned x = items[r][k];
            items[r][k] = running;
            running += x;
        }
        own[r] = running;
    }

    // Warp: the kRows scans of the lanes' row totals interleave in one shuffle sequence. A lane's
    // prefix within its warp's share is the earlier rows' totals plus the earlier lanes' in its row.
    unsigned scanned[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) scanned[r] = own[r];
    detail::warp_inclusive_scan<kRows>(scanned, Plus{}, lane);
    unsigned lane_prefix[kRows];
    unsigned warp_total = 0;
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        lane_prefix[r] = warp_total + scanned[r] - own[r];
        warp_total += detail::shfl_idx(scanned[r], kWarpThreads - 1);
    }

    // Block: warp totals in consecutive words (one per bank), read back by every warp with one
    // conflict-free access and scanned by shuffles, so one barrier suffices.
    if (lane == 0) warp_totals[warp] = warp_total;
    __syncthreads();
    const unsigned warps = blockDim.x / kWarpThreads;
    unsigned totals[1] = {lane < warps ? warp_totals[lane] : 0u};
    const unsigned lane_total = totals[0];
    detail::warp_inclusive_scan<1>(totals, Plus{}, lane);
    const unsigned warp_prefix = detail::shfl_idx(totals[0] - lane_total, static_cast<int>(warp));

    const unsigned thread_prefix = tile_prefix + warp_prefix;
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
        for (int k = 0; k < kVec; ++k) items[r][k] += thread_prefix + lane_prefix[r];
    store_items(out + tile.base, items, tile.valid, tile.full && aligned16(out));
}

static std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
static std::size_t roundUp(std::size_t a, std::size_t b) { return ceilDiv(a, b) * b; }

// Ints of tile sums that every level of the recursion needs with tiles of `tile` items. Larger
// tiles never need more: every level has at most as many sums, and there are at most as many levels.
static std::size_t levelSumsInts(std::size_t n, std::size_t tile) {
    std::size_t total = 0;
    for (std::size_t count = n; count > tile; count = ceilDiv(count, tile)) total += roundUp(ceilDiv(count, tile), kSumsAlign);
    return total;
}

// Scans in[0, n) into out with blocks of `threads`. `sums` holds this level's tile sums, then the
// deeper levels'. One tile is the base case; otherwise reduce, scan the sums in place, scan tiles.
static void scanLevel(const int *in, int *out, std::size_t n, int *sums, int threads, cudaStream_t stream) {
    const int tile = threads * kItemsPerThread;
    const unsigned tiles = blocks_for(n, tile);
    if (tiles == 1) {
        kernScanTiles<<<1, threads, 0, stream>>>(in, out, n, nullptr);
        SC_CHECK_LAUNCH(kernScanTiles);
        return;
    }
    kernReduceTiles<<<tiles, threads, 0, stream>>>(in, n, sums);
    SC_CHECK_LAUNCH(kernReduceTiles);
    scanLevel(sums, sums, tiles, sums + roundUp(tiles, kSumsAlign), threads, stream);
    kernScanTiles<<<tiles, threads, 0, stream>>>(in, out, n, sums);
    SC_CHECK_LAUNCH(kernScanTiles);
}

// Storage: the tile sums of every level (at any alignment of d_temp: see detail::TempLayout).
static detail::TempLayout<1> scan_layout(std::size_t n) {
    return detail::temp_layout(levelSumsInts(n, static_cast<std::size_t>(kMinThreads) * kItemsPerThread) * sizeof(int));
}

std::size_t scan_temp_bytes(std::size_t n) { return scan_layout(n).bytes(); }

void exclusive_scan(const int *d_in, int *d_out, std::size_t n, void *d_temp, std::size_t temp_bytes,
                    cudaStream_t stream) {
    SC_NVTX_RANGE("Shared::exclusive_scan");
    require_device_pointers("Shared::exclusive_scan", n, d_in, d_out);
    require_temp_storage("Shared::exclusive_scan", d_temp, temp_bytes, scan_temp_bytes(n));
    if (n == 0) return;
    const int threads = checked_block_size(block_sizes().shared);
    scanLevel(d_in, d_out, n, reinterpret_cast<int *>(scan_layout(n).carve(d_temp)[0]), threads, stream);
}

// Layout: flags[n + 1] (the extra flag is 0), indices[n + 1], whose element n is the total count,
// then the scan's temporary storage.
static detail::TempLayout<3> compact_layout(std::size_t n) {
    return detail::temp_layout((n + 1) * sizeof(int), (n + 1) * sizeof(int), scan_temp_bytes(n + 1));
}

std::size_t compact_temp_bytes(std::size_t n) { return n == 0 ? 0 : compact_layout(n).bytes(); }

void compact(const int *d_in, int *d_out, int *d_count, std::size_t n, void *d_temp, std::size_t temp_bytes,
             cudaStream_t stream) {
    SC_NVTX_RANGE("Shared::compact");
    require_device_pointers("Shared::compact", n, d_in, d_out);
    if (d_count == nullptr) throw std::invalid_argument("Shared::compact: null d_count");
    if (n > static_cast<std::size_t>(INT_MAX))
        throw std::length_error("Shared::compact: n > INT_MAX does not fit its int indices");
    require_temp_storage("Shared::compact", d_temp, temp_bytes, compact_temp_bytes(n));
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(int), stream));
        return;
    }
    const int count = static_cast<int>(n);
    const int threads = checked_block_size(block_sizes().shared);
    const unsigned blocks = blocks_for(n, threads);
    const auto pieces = compact_layout(n).carve(d_temp);
    int *flags = reinterpret_cast<int *>(pieces[0]);
    int *indices = reinterpret_cast<int *>(pieces[1]);
    void *scan_temp = pieces[2];

    Common::kernMapToBoolean<<<blocks, threads, 0, stream>>>(count, flags, d_in);
    SC_CHECK_LAUNCH(Common::kernMapToBoolean);
    SC_CUDA_CHECK(cudaMemsetAsync(flags + n, 0, sizeof(int), stream));
    exclusive_scan(flags, indices, n + 1, scan_temp, scan_temp_bytes(n + 1), stream);
    Common::kernScatter<<<blocks, threads, 0, stream>>>(count, d_out, d_in, flags, indices);
    SC_CHECK_LAUNCH(Common::kernScatter);
    SC_CUDA_CHECK(cudaMemcpyAsync(d_count, indices + n, sizeof(int), cudaMemcpyDeviceToDevice, stream));
}

void scan(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Shared::scan", n, odata, idata);
    if (n == 0) return;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<char> temp(scan_temp_bytes(n));
    Common::timeGpu(timer(), [&] { exclusive_scan(in.get(), out.get(), n, temp.get(), temp.bytes()); });
    out.copy_to_host(odata, n);
}

int compact(int n, int *odata, const int *idata) {
    Common::checkHostArgs("Shared::compact", n, odata, idata);
    if (n == 0) return 0;
    DeviceBuffer<int> in = DeviceBuffer<int>::from_host(idata, n);
    DeviceBuffer<int> out(n);
    DeviceBuffer<int> count(1);
    DeviceBuffer<char> temp(compact_temp_bytes(n));
    Common::timeGpu(timer(), [&] { compact(in.get(), out.get(), count.get(), n, temp.get(), temp.bytes()); });
    int kept = 0;
    count.copy_to_host(&kept, 1);
    out.copy_to_host(odata, kept);
    return kept;
}

}  // namespace Shared
}  // namespace StreamCompaction

#pragma once
// Segmented scans and reductions on the device: one scan, one pass, no launch per segment and no
// key array. A segmented scan is an ordinary scan of (head, value) pairs under the segmented
// operator (a head restarts the running value), run by the single-pass machinery of scan.cuh with
// the pairs built on the fly from the caller's arrays; only values are written.
//
// Segments come either as head flags (flags[i] != 0: element i starts a segment; element 0 always
// does) or as CSR offsets (segment s is [offsets[s], offsets[s + 1]); offsets[0] = 0, ascending,
// offsets[segments] = n; empty segments allowed anywhere).
//
//   std::size_t bytes = segmented_scan_temp_bytes<float>(n);
//   segmented_inclusive_scan(d_values, d_flags, d_out, n, Sum{}, d_temp, bytes);       // by flags
//   segmented_exclusive_scan_by_offsets(d_values, n, d_offsets, segments, d_out, Max{}, -INFINITY,
//                                       d_temp, bytes);
//   segmented_reduce(d_values, n, d_offsets, segments, d_out, Sum{}, 0.0f, d_temp,
//                    segmented_reduce_temp_bytes<float>(n, segments));                   // one per segment
//   make_flags(d_shape, segments, d_flags, n, d_temp, make_flags_temp_bytes(segments));
//   offsets_to_flags(d_offsets, segments, d_flags, n);
//   flags_to_offsets(d_flags, n, d_offsets, d_segments, d_temp, flags_to_offsets_temp_bytes(n));
//
// Any associative operator, commutative or not; values of any trivially copyable type. Every scan
// may run in place (d_out == d_values). Offsets that break the rules above give wrong results but
// never an access out of bounds. Errors: std::invalid_argument for bad arguments, cuda_error from
// CUDA.
#include "cuda_check.h"
#include "detail/tile_scan.cuh"
#include "device_api.h"
#include "operators.cuh"
#include "scan.cuh"
#include "segmented_pair.cuh"
#include "detail/merge_path.cuh"
#include "tuning.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace StreamCompaction {

namespace detail {

inline std::size_t round_up16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

__host__ __device__ inline std::size_t head_bit_words(std::size_t n) { return (n + 31) / 32; }

// Heads read from the caller's flags, a scan tile's at a time (one vector load per row where the
// flags are aligned for it).
template <class Flag>
struct FlagHeads {
    const Flag *flags;
    bool vectorized;
    template <int R, int VEC>
    __device__ void load_tile_heads(std::size_t base, std::size_t valid, unsigned (&heads)[R][VEC]) const {
        Flag loaded[R][VEC];
        load_tile<R, VEC>(flags + base, loaded, valid, vectorized);
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int k = 0; k < VEC; ++k) heads[r][k] = loaded[r][k] != Flag(0);
    }
};

// Heads read from a bitmap built from offsets (bit i of word i / 32). A thread's VEC items of a
// row share one word (rows and tiles start at multiples of 32 items, and VEC divides 32).
struct BitHeads {
    const unsigned *bits;
    __device__ unsigned operator()(std::size_t i) const { return bits[i / 32] >> (i % 32) & 1u; }
    template <int R, int VEC>
    __device__ void load_tile_heads(std::size_t base, std::size_t valid, unsigned (&heads)[R][VEC]) const {
        static_assert(32 % VEC == 0, "a thread's items of a row must share a bitmap word");
        const std::size_t row_items = static_cast<std::size_t>(blockDim.x) * VEC;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const std::size_t first = r * row_items + threadIdx.x * VEC;
            const unsigned word = first < valid ? bits[(base + first) / 32] >> ((base + first) % 32) : 0u;
#pragma unroll
            for (int k = 0; k < VEC; ++k) heads[r][k] = word >> k & 1u;
        }
    }
};

// A segmented scan of values under heads: the scan of (head, value) pairs, loaded and stored a
// row at a time. The exclusive result of item i is init at a head, else init combined with the
// exclusive pair's value (the segment's values before i): each thread reads and writes only its
// own items, so both forms may run in place.
template <class V, class Heads, class Op, bool Exclusive>
__global__ void __launch_bounds__(1024) segmented_scan_kernel(const V *values, Heads heads, V *out, std::size_t n,
                                                              Op op, V init, bool vectorized, void *status_storage,
                                                              std::size_t tiles, u64 *ticket, u64 epoch) {
    using Pair = SegmentedPair<V>;
    constexpr int VEC = vector_items<Pair>();
    constexpr int R = kTransformScanRows;  // 8 rows: 1.1x CUB on an H100, where 4 gave 0.92x
    static_assert(R * VEC <= 32, "one bit per item");
    unsigned starts = 0;  // bit r * VEC + k: item (r, k) starts a segment
    scan_tile<Pair, R, SegmentedOp<Op>, Exclusive>(
        n, SegmentedOp<Op>{op}, Partial<Pair>{Pair{}, false}, status_storage, tiles, ticket, epoch,
        [&](std::size_t base, std::size_t valid, Pair (&items)[R][VEC]) {
            V loaded[R][VEC];
            unsigned head[R][VEC];
            load_tile<R, VEC>(values + base, loaded, valid, vectorized);
            heads.template load_tile_heads<R, VEC>(base, valid, head);
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
                for (int k = 0; k < VEC; ++k) {
                    // Element 0 starts a segment whatever its head says.
                    const unsigned starts_here = head[r][k] | (base == 0 && r == 0 && threadIdx.x == 0 && k == 0);
                    items[r][k] = Pair{starts_here, loaded[r][k]};
                    starts |= starts_here << (r * VEC + k);
                }
        },
        [&](std::size_t base, std::size_t valid, const Pair (&items)[R][VEC]) {
            V results[R][VEC];
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
                for (int k = 0; k < VEC; ++k)
                    results[r][k] = !Exclusive                       ? items[r][k].value
                                    : (starts >> (r * VEC + k) & 1u) ? init
                                                                     : op(init, items[r][k].value);
            store_tile<R, VEC>(out + base, results, valid, vectorized);
        });
}

struct NoSegmentWork {
    template <class Offset>
    __device__ void operator()(std::size_t, Offset, Offset) const {}
};

// Sets bit offsets[s] of the zeroed bitmap for every non-empty segment s (empty segments start where
// the next non-empty one does, so they add nothing), and calls per_segment(s, start, end) for
// every segment: a hook for the SpMV's per-row work. One thread per segment.
//
// Short segments put several heads in one word, and atomics to one word are serialized in L2 (one
// atomic per head took 0.1 ms at 16.7 million segments on an H100). Offsets ascend, so the lanes
// whose heads share a word are a run of the warp: the run ORs its bits together with shuffles, and
// its first lane sets them with one atomic.
template <class Offset, class PerSegment>
__global__ void head_bits_kernel(const Offset *offsets, std::size_t segments, std::size_t n, unsigned *bits,
                                 PerSegment per_segment) {
    const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const unsigned lane = threadIdx.x % kWarpThreads;
    const bool in_range = s < segments;
    const Offset start = in_range ? offsets[s] : Offset(0), end = in_range ? offsets[s + 1] : Offset(0);
    const bool head = in_range && start < end && start >= 0 && static_cast<std::size_t>(start) < n;
    // Lanes without a head carry no bits, and lanes past the end a word no bitmap has.
    const unsigned long long word =
        in_range && start >= 0 ? static_cast<unsigned long long>(start) / 32 : ~0ull;
    unsigned run_bits = head ? 1u << (start % 32) : 0u;
#pragma unroll
    for (unsigned offset = 1; offset < kWarpThreads; offset *= 2) {
        const unsigned later_bits = __shfl_down_sync(kFullMask, run_bits, offset);
        const unsigned long long later_word = __shfl_down_sync(kFullMask, word, offset);
        if (lane + offset < kWarpThreads && later_word == word) run_bits |= later_bits;
    }
    const unsigned long long earlier_word = __shfl_up_sync(kFullMask, word, 1);
    const bool first_of_run = lane == 0 || earlier_word != word;
    if (first_of_run && run_bits != 0 && word < head_bit_words(n)) atomicOr(&bits[word], run_bits);
    if (in_range) per_segment(s, start, end);
}

// Zeroes the bitmap and fills it from the offsets.
template <class Offset, class PerSegment = NoSegmentWork>
void build_head_bits(const Offset *d_offsets, std::size_t segments, std::size_t n, unsigned *d_bits,
                     cudaStream_t stream, PerSegment per_segment = {}) {
    SC_CUDA_CHECK(cudaMemsetAsync(d_bits, 0, head_bit_words(n) * sizeof(unsigned), stream));
    if (segments == 0) return;
    const int threads = 256;
    head_bits_kernel<<<blocks_for(segments, threads), threads, 0, stream>>>(d_offsets, segments, n, d_bits,
                                                                            per_segment);
    SC_CHECK_LAUNCH(head_bits_kernel);
}

// Storage of the offsets-form scans: the bitmap, then the scan's.
template <class V>
std::size_t segmented_scan_temp_bytes_for(std::size_t n) {
    return round_up16(head_bit_words(n) * sizeof(unsigned)) + scan_temp_bytes<SegmentedPair<V>>(n);
}

template <class V, class Heads, class Op>
void scan_with_heads(bool exclusive, const V *d_values, Heads heads, V *d_out, std::size_t n, Op op, V init,
                     void *d_scan_temp, cudaStream_t stream) {
    using Pair = SegmentedPair<V>;
    const int threads = checked_block_size(block_sizes().single_pass);
    const std::size_t tile_items = transform_tile_items_for<Pair>(threads);
    const std::size_t tiles = (n + tile_items - 1) / tile_items;
    const std::size_t alignment = vector_alignment<V, vector_items<Pair>()>();
    const bool vectorized = reinterpret_cast<std::uintptr_t>(d_values) % alignment == 0 &&
                            reinterpret_cast<std::uintptr_t>(d_out) % alignment == 0;
    char *storage = static_cast<char *>(d_scan_temp);
    const auto kernel = exclusive ? segmented_scan_kernel<V, Heads, Op, true> : segmented_scan_kernel<V, Heads, Op, false>;
    kernel<<<blocks_for(tiles, 1), threads, 0, stream>>>(d_values, heads, d_out, n, op, init, vectorized, storage + 16,
                                                         tiles, reinterpret_cast<u64 *>(storage), next_scan_epoch());
    SC_CHECK_LAUNCH(segmented_scan_kernel);
}

template <class V, class Flag, class Op>
void scan_by_flags(const char *name, bool exclusive, const V *d_values, const Flag *d_flags, V *d_out,
                   std::size_t n, Op op, V init, void *d_temp, std::size_t temp_bytes, cudaStream_t stream) {
    require_device_pointers(name, n, d_values, d_out);
    require_device_pointers(name, n, d_flags, d_out);
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, scan_temp_bytes<SegmentedPair<V>>(n));
    const bool flags_vectorized =
        reinterpret_cast<std::uintptr_t>(d_flags) % vector_alignment<Flag, vector_items<SegmentedPair<V>>()>() == 0;
    scan_with_heads(exclusive, d_values, FlagHeads<Flag>{d_flags, flags_vectorized}, d_out, n, op, init, d_temp,
                    stream);
}

template <class V, class Offset, class Op>
void scan_by_offsets(const char *name, bool exclusive, const V *d_values, std::size_t n, const Offset *d_offsets,
                     std::size_t segments, V *d_out, Op op, V init, void *d_temp, std::size_t temp_bytes,
                     cudaStream_t stream) {
    require_device_pointers(name, n, d_values, d_out);
    if (d_offsets == nullptr) throw std::invalid_argument(std::string(name) + ": null offsets");
    if (n == 0) return;
    require_temp_storage(name, d_temp, temp_bytes, segmented_scan_temp_bytes_for<V>(n));
    unsigned *bits = static_cast<unsigned *>(d_temp);
    const std::size_t bit_bytes = round_up16(head_bit_words(n) * sizeof(unsigned));
    build_head_bits(d_offsets, segments, n, bits, stream);
    scan_with_heads(exclusive, d_values, BitHeads{bits}, d_out, n, op, init, static_cast<char *>(d_temp) + bit_bytes,
                    stream);
}

template <class V>
struct ArrayLoad {
    const V *values;
    __device__ V operator()(long long i) const { return values[i]; }
};

template <class V>
struct ArrayStore {
    V *out;
    __device__ void operator()(long long s, const V &total) const { out[s] = total; }
};

// make_flags: the inclusive scan of the shape gives each segment's end; a non-empty segment's start
// (end - length) gets a flag. Zero-length segments flag nothing.
template <class Length, class Flag>
struct FlagSegmentStart {
    const Length *shape;
    Flag *flags;
    std::size_t n;
    __device__ void operator()(std::size_t s, const std::size_t &end) const {
        const std::size_t length = static_cast<std::size_t>(shape[s]);
        if (length > 0 && end - length < n) flags[end - length] = Flag(1);
    }
};

template <class Length>
struct ShapeLoad {
    const Length *shape;
    __device__ std::size_t operator()(std::size_t s) const { return static_cast<std::size_t>(shape[s]); }
};

template <class Offset, class Flag>
__global__ void flags_from_offsets_kernel(const Offset *offsets, std::size_t segments, Flag *flags, std::size_t n) {
    const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (s >= segments) return;
    const Offset start = offsets[s];
    if (start < offsets[s + 1] && start >= 0 && static_cast<std::size_t>(start) < n) flags[start] = Flag(1);
}

// flags_to_offsets: the inclusive count of heads numbers the segments; head i of segment k writes
// offsets[k] = i, and the last element closes the list with offsets[segments] = n.
template <class Flag>
struct HeadCountLoad {
    const Flag *flags;
    __device__ std::size_t operator()(std::size_t i) const { return i == 0 || flags[i] != Flag(0); }
};

template <class Flag, class Offset>
struct OffsetStore {
    const Flag *flags;
    Offset *offsets;
    std::size_t *segment_count;
    std::size_t n;
    __device__ void operator()(std::size_t i, const std::size_t &heads) const {
        if (i == 0 || flags[i] != Flag(0)) offsets[heads - 1] = static_cast<Offset>(i);
        if (i == n - 1) {
            offsets[heads] = static_cast<Offset>(n);
            *segment_count = heads;
        }
    }
};

}  // namespace detail

// ---- segmented scans ----

// Temporary storage of every segmented scan of n values of type V, by flags or by offsets.
template <class V>
std::size_t segmented_scan_temp_bytes(std::size_t n) {
    return detail::segmented_scan_temp_bytes_for<V>(n);
}

template <class V, class Flag, class Op>
void segmented_inclusive_scan(const V *d_values, const Flag *d_flags, V *d_out, std::size_t n, Op op, void *d_temp,
                              std::size_t temp_bytes, cudaStream_t stream = 0) {
    detail::scan_by_flags("segmented_inclusive_scan", false, d_values, d_flags, d_out, n, op, V{}, d_temp, temp_bytes,
                          stream);
}

// Each segment starts from `init`: out[i] = init op (the segment's values before i).
template <class V, class Flag, class Op>
void segmented_exclusive_scan(const V *d_values, const Flag *d_flags, V *d_out, std::size_t n, Op op, V init,
                              void *d_temp, std::size_t temp_bytes, cudaStream_t stream = 0) {
    detail::scan_by_flags("segmented_exclusive_scan", true, d_values, d_flags, d_out, n, op, init, d_temp, temp_bytes,
                          stream);
}

// By offsets: the head flags are first set in a bitmap in the temporary storage (one thread per
// segment), then the scan reads them from there: two launches and n / 8 bytes, not a flag array.
template <class V, class Offset, class Op>
void segmented_inclusive_scan_by_offsets(const V *d_values, std::size_t n, const Offset *d_offsets,
                                         std::size_t segments, V *d_out, Op op, void *d_temp, std::size_t temp_bytes,
                                         cudaStream_t stream = 0) {
    detail::scan_by_offsets("segmented_inclusive_scan_by_offsets", false, d_values, n, d_offsets, segments, d_out, op,
                            V{}, d_temp, temp_bytes, stream);
}

template <class V, class Offset, class Op>
void segmented_exclusive_scan_by_offsets(const V *d_values, std::size_t n, const Offset *d_offsets,
                                         std::size_t segments, V *d_out, Op op, V init, void *d_temp,
                                         std::size_t temp_bytes, cudaStream_t stream = 0) {
    detail::scan_by_offsets("segmented_exclusive_scan_by_offsets", true, d_values, n, d_offsets, segments, d_out, op,
                            init, d_temp, temp_bytes, stream);
}

// ---- segmented reduction ----

template <class V>
std::size_t segmented_reduce_temp_bytes(std::size_t n, std::size_t segments) {
    return detail::merge_path_temp_bytes<V>(n, segments);
}

// d_out[s] = the values of segment s combined in order, `identity` for an empty segment (op(identity,
// x) must be x). n must equal offsets[segments]. One launch (merge path): the time does not depend
// on how the values are spread over the segments.
template <class V, class Offset, class Op>
void segmented_reduce(const V *d_values, std::size_t n, const Offset *d_offsets, std::size_t segments, V *d_out,
                      Op op, V identity, void *d_temp, std::size_t temp_bytes, cudaStream_t stream = 0) {
    require_device_pointers("segmented_reduce", n, d_values, d_offsets);
    require_device_pointers("segmented_reduce", segments, d_offsets, d_out);
    detail::merge_path_reduce("segmented_reduce", d_offsets, segments, n, detail::ArrayLoad<V>{d_values},
                              detail::ArrayStore<V>{d_out}, op, identity, d_temp, temp_bytes, stream);
}

// ---- conversions between segment descriptions ----

inline std::size_t make_flags_temp_bytes(std::size_t segments) { return scan_temp_bytes<std::size_t>(segments); }

// From a shape (segment lengths, zeros allowed) summing to n: flags[i] = 1 where a non-empty segment
// starts, 0 elsewhere. Shape [0,3,1,0,4,2,0] gives flags [1,0,0,1,1,0,0,0,1,0].
template <class Length, class Flag>
void make_flags(const Length *d_shape, std::size_t segments, Flag *d_flags, std::size_t n, void *d_temp,
                std::size_t temp_bytes, cudaStream_t stream = 0) {
    require_device_pointers("make_flags", segments, d_shape, d_shape);
    require_device_pointers("make_flags", n, d_flags, d_flags);
    if (n == 0) return;
    SC_CUDA_CHECK(cudaMemsetAsync(d_flags, 0, n * sizeof(Flag), stream));
    if (segments == 0) return;
    require_temp_storage("make_flags", d_temp, temp_bytes, make_flags_temp_bytes(segments));
    transform_inclusive_scan<std::size_t>(segments, detail::ShapeLoad<Length>{d_shape},
                                          detail::FlagSegmentStart<Length, Flag>{d_shape, d_flags, n}, Sum{}, d_temp,
                                          temp_bytes, stream);
}

// flags[offsets[s]] = 1 for every non-empty segment s, 0 elsewhere.
template <class Offset, class Flag>
void offsets_to_flags(const Offset *d_offsets, std::size_t segments, Flag *d_flags, std::size_t n,
                      cudaStream_t stream = 0) {
    require_device_pointers("offsets_to_flags", n, d_offsets, d_flags);
    if (n == 0) return;
    SC_CUDA_CHECK(cudaMemsetAsync(d_flags, 0, n * sizeof(Flag), stream));
    if (segments == 0) return;
    const int threads = 256;
    detail::flags_from_offsets_kernel<<<blocks_for(segments, threads), threads, 0, stream>>>(d_offsets, segments,
                                                                                             d_flags, n);
    SC_CHECK_LAUNCH(flags_from_offsets_kernel);
}

inline std::size_t flags_to_offsets_temp_bytes(std::size_t n) { return scan_temp_bytes<std::size_t>(n); }

// The offsets of the segments the flags describe (element 0 always starts one): d_offsets (room for
// n + 1) receives segments + 1 entries, *d_segments (device memory) the count. One launch.
template <class Flag, class Offset>
void flags_to_offsets(const Flag *d_flags, std::size_t n, Offset *d_offsets, std::size_t *d_segments, void *d_temp,
                      std::size_t temp_bytes, cudaStream_t stream = 0) {
    require_device_pointers("flags_to_offsets", n, d_flags, d_offsets);
    if (d_segments == nullptr) throw std::invalid_argument("flags_to_offsets: null segment count");
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_segments, 0, sizeof(std::size_t), stream));
        if (d_offsets != nullptr) SC_CUDA_CHECK(cudaMemsetAsync(d_offsets, 0, sizeof(Offset), stream));
        return;
    }
    require_temp_storage("flags_to_offsets", d_temp, temp_bytes, flags_to_offsets_temp_bytes(n));
    transform_inclusive_scan<std::size_t>(n, detail::HeadCountLoad<Flag>{d_flags},
                                          detail::OffsetStore<Flag, Offset>{d_flags, d_offsets, d_segments, n}, Sum{},
                                          d_temp, temp_bytes, stream);
}

}  // namespace StreamCompaction

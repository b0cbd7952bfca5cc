#pragma once
// A block's sort of THREADS * ITEMS distinct items by merging, in shared memory: each thread sorts
// its ITEMS in registers (a bitonic network), then rounds merge runs pairwise, each thread finding
// where its ITEMS outputs start by a merge-path search and merging them into registers. Items must
// be distinct under Less (callers make them so with their input position), so that the order is
// the one sorted order and no stability is needed; or, Stable, a full tile of any items sorted
// stably (a stable register sort, and merges that take ties from the earlier run).
//
// Items from position `count` on are padding, greater than every real item: they stay at the end
// of every run, so threads whose items all lie there skip the work. A caller that needs only runs
// of `min_run` items sorted (a segmented sort whose segments are short) stops the rounds early.
//
// Layout in shared memory: item p at merge_slot<Item>(p), one slot of padding after every
// 128 / sizeof(Item) items, so that a warp's stores of ITEMS consecutive items each (thread t at
// t * ITEMS + k) fall in distinct banks.

namespace StreamCompaction {
namespace detail {

template <class Item>
__host__ __device__ constexpr unsigned merge_slot(unsigned p) {
    return p + p / (128 / sizeof(Item));
}

// Shared slots a block_merge_sort of `items` items needs.
template <class Item>
__host__ __device__ constexpr unsigned merge_slots(unsigned items) {
    return merge_slot<Item>(items - 1) + 1;
}

// Sorts items (ITEMS a power of two) in registers; every index is known at compile time.
template <int ITEMS, class Item, class Less>
__device__ __forceinline__ void register_bitonic_sort(Item (&items)[ITEMS], Less less) {
    static_assert((ITEMS & (ITEMS - 1)) == 0, "a bitonic network of a power of two");
#pragma unroll
    for (int k = 2; k <= ITEMS; k <<= 1)
#pragma unroll
        for (int j = k >> 1; j > 0; j >>= 1)
#pragma unroll
            for (int i = 0; i < ITEMS; ++i) {
                const int l = i ^ j;
                if (l > i) {
                    const bool ascending = (i & k) == 0;
                    if (ascending ? less(items[l], items[i]) : less(items[i], items[l])) {
                        const Item t = items[i];
                        items[i] = items[l];
                        items[l] = t;
                    }
                }
            }
}

// Sorts items in registers, stable (equivalent items keep their order): ITEMS rounds of
// odd-even transposition, each swapping neighbours only where the right one is less.
template <int ITEMS, class Item, class Less>
__device__ __forceinline__ void register_odd_even_sort(Item (&items)[ITEMS], Less less) {
#pragma unroll
    for (int round = 0; round < ITEMS; ++round)
#pragma unroll
        for (int i = round % 2; i + 1 < ITEMS; i += 2)
            if (less(items[i + 1], items[i])) {
                const Item t = items[i];
                items[i] = items[i + 1];
                items[i + 1] = t;
            }
}

// How many of the first `diagonal` items of the merge of a[0, na) and b[0, nb) come from a: the
// merge path's split, by binary search. Ties go to a first.
template <class Item, class ReadA, class ReadB, class Less>
__device__ __forceinline__ unsigned merge_path_split(ReadA read_a, ReadB read_b, unsigned na, unsigned nb,
                                                     unsigned diagonal, Less less) {
    unsigned lo = diagonal > nb ? diagonal - nb : 0, hi = diagonal < na ? diagonal : na;
    while (lo < hi) {
        const unsigned mid = (lo + hi) / 2;
        if (!less(read_b(diagonal - 1 - mid), read_a(mid)))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Merges ITEMS items of a[ia, na) and b[ib, nb) into out (ties to a), and where each came from
// into source, as an index of a then b laid end to end (b's item i is na + i).
template <int ITEMS, class Item, class ReadA, class ReadB, class Less>
__device__ __forceinline__ void merge_serial(ReadA read_a, ReadB read_b, unsigned ia, unsigned na, unsigned ib,
                                             unsigned nb, Item (&out)[ITEMS], unsigned (&source)[ITEMS], Less less) {
    Item a = ia < na ? read_a(ia) : Item{}, b = ib < nb ? read_b(ib) : Item{};
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const bool take_b = ib < nb && (ia >= na || less(b, a));
        out[k] = take_b ? b : a;
        source[k] = take_b ? na + ib : ia;
        if (take_b) {
            if (++ib < nb) b = read_b(ib);
        } else {
            if (++ia < na) a = read_a(ia);
        }
    }
}

// Thread t holds items t * ITEMS .. t * ITEMS + ITEMS - 1 in `items`, and shared (at least
// merge_slots<Item>(THREADS * ITEMS) of them) holds the padding from `count` on. Afterwards runs
// of the returned length (the first power-of-two multiple of ITEMS at least min_run, at most
// THREADS * ITEMS) are sorted in shared, item p at merge_slot(p), thread t's still in `items`, and
// every thread may read shared (a __syncthreads() has been passed). Called by every thread.
// Stable: the registers sorted by odd-even transposition (the merges take ties from the earlier
// run), for items that need not be distinct; only with count = THREADS * ITEMS (no padding).
template <int THREADS, bool Stable = false, int ITEMS, class Item, class Less>
__device__ unsigned block_merge_sort(Item (&items)[ITEMS], Item *shared, Less less, unsigned count,
                                     unsigned min_run = THREADS * ITEMS) {
    static_assert((THREADS & (THREADS - 1)) == 0, "merge rounds of a power of two threads");
    const unsigned t = threadIdx.x;
    const bool busy = t * ITEMS < count;  // holds a real item: the others' outputs are padding
    if (busy) {
        if constexpr (Stable)
            register_odd_even_sort(items, less);
        else
            register_bitonic_sort(items, less);
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) shared[merge_slot<Item>(t * ITEMS + k)] = items[k];
    }
    __syncthreads();
    unsigned run = ITEMS;
    for (; run < THREADS * ITEMS && run < min_run; run *= 2) {
        // This thread's outputs start at `diagonal` of the merge of runs a = [base, base + run) and
        // b = [base + run, base + 2 run).
        const unsigned base = t * ITEMS / (2 * run) * (2 * run), diagonal = t * ITEMS - base;
        const auto read_a = [&](unsigned i) { return shared[merge_slot<Item>(base + i)]; };
        const auto read_b = [&](unsigned i) { return shared[merge_slot<Item>(base + run + i)]; };
        if (busy) {
            const unsigned split = merge_path_split<Item>(read_a, read_b, run, run, diagonal, less);
            unsigned source[ITEMS];
            merge_serial(read_a, read_b, split, run, diagonal - split, run, items, source, less);
        }
        __syncthreads();
        if (busy) {
#pragma unroll
            for (int k = 0; k < ITEMS; ++k) shared[merge_slot<Item>(t * ITEMS + k)] = items[k];
        }
        __syncthreads();
    }
    return run;
}

}  // namespace detail
}  // namespace StreamCompaction

#pragma once
// The top-k part's inputs, axes and CPU reference, shared by sc_nvbench_top_k (bench/nvbench/top_k.cu) and
// the CCCL anchors (bench/anchors/cccl_next_top_k.cu, which time another CCCL's DeviceTopK on the same data).
// Nothing here calls CUB: each program compiles it with its own CCCL.
#include "check.h"                    // elements_mismatch
#include "fill.h"                     // index_hash, fill_blocks
#include "nvbench/host_reference.h"  // for_each_piece, pieces_of, cached_reference
#include "profile.h"

#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace top_k_inputs {

constexpr std::uint32_t kTopKSeed = 0x746f706bu;

// axis n: 2^24 and 2^28 (full: 2^16, 2^18, ..., 2^28; from 2^16, where k = 4,096 is a sixteenth of n).
const std::vector<std::int64_t> kTopKLog2 = profile_log2({24, 28}, every_other_log2(16, 28));
// axis k: the keys' rows' three, 4,096 the largest our selection takes on an H200 (top_k_max_selected);
// the pairs' (argtop-k) one.
const std::vector<std::int64_t> kKeysK = {100, 1000, 4096};
const std::vector<std::int64_t> kPairsK = {100};

// Key i: random bits (index_hash(i, kTopKSeed)), as the radix part's other key types' are
// (radix_key_type_inputs.cuh): an exponent of all ones (NaN, infinity) made finite by clearing its top
// bit, -0.0 made +0.0. So a key's value orders it as the radix sort does, and keys of distinct bits are
// distinct values. index_hash is a bijection of the indices below 2^32: only a key made finite (in [1, 2) or
// (-2, -1]) or +0.0 can equal another, and none is among the 4,096 largest from n = 2^16 up: the top k hold
// no tie at any point of the axes, so any right top k has the reference's indices.
__host__ __device__ inline float top_k_key(std::size_t i) {
    std::uint32_t bits = index_hash(i, kTopKSeed);
    if ((bits & 0x7f800000u) == 0x7f800000u) bits ^= 1u << 30;
    if (bits == 0x80000000u) bits = 0;
    float key;
    memcpy(&key, &bits, sizeof key);
    return key;
}

// static: internal linkage, so that the header may be included by several files of a program.
static __global__ void fill_top_k_keys(float *out, std::size_t n) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        out[i] = top_k_key(i);
}

inline StreamCompaction::DeviceBuffer<float> top_k_input(std::size_t n, cudaStream_t stream) {
    StreamCompaction::DeviceBuffer<float> keys(n);
    fill_top_k_keys<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys.get(), n);
    SC_CHECK_LAUNCH(fill_top_k_keys);
    return keys;
}

// The k largest keys in descending order, each with its index, of equal keys the earliest first: the first k
// of the stable descending sort (RadixSortOrder{true}), what ours and a full sort write.
struct TopK {
    std::vector<float> keys;
    std::vector<int> indices;
    std::size_t footprint() const { return keys.size() * (sizeof(float) + sizeof(int)); }
};

// Before a point's timed runs: what they write poisoned (the keys and indices out, the temporary
// storage), and NVBench's counts, the same for every row of the point: the n keys read and the k keys
// (and k indices) written.
inline void poison_and_count(nvbench::state &state, std::size_t n, std::size_t k, bool pairs,
                             StreamCompaction::DeviceBuffer<float> &keys_out,
                             StreamCompaction::DeviceBuffer<int> &indices_out,
                             StreamCompaction::DeviceBuffer<char> &temp) {
    keys_out.fill_bytes(kPoisonByte);
    indices_out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<float>(n);
    state.add_global_memory_writes<float>(k);
    if (pairs) state.add_global_memory_writes<int>(k);
}

using Item = std::pair<float, int>;  // (key, index)
// a before b in the stable descending order: the larger key, of equal keys the smaller index.
inline bool before(const Item &a, const Item &b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
}

// Each hardware thread keeps the k first of its piece of the keys in a heap whose top is the last of them (the
// keys computed from their index, not read back: nothing of n items is held); the pieces' k are then sorted.
inline TopK top_k_of(std::size_t n, std::size_t k) {
    const auto pieces = pieces_of(n);
    std::vector<std::vector<Item>> kept(pieces.size());
    for_each_piece(pieces, [&](std::size_t p, std::size_t begin, std::size_t end) {
        std::vector<Item> &heap = kept[p];
        for (std::size_t i = begin; i < end; ++i) {
            const Item item{top_k_key(i), static_cast<int>(i)};
            if (heap.size() < k) {
                heap.push_back(item);
                std::push_heap(heap.begin(), heap.end(), before);
            } else if (before(item, heap.front())) {
                std::pop_heap(heap.begin(), heap.end(), before);
                heap.back() = item;
                std::push_heap(heap.begin(), heap.end(), before);
            }
        }
    });
    std::vector<Item> all;
    for (const std::vector<Item> &piece : kept) all.insert(all.end(), piece.begin(), piece.end());
    std::sort(all.begin(), all.end(), before);
    TopK top;
    for (std::size_t i = 0; i < k; ++i) {
        top.keys.push_back(all[i].first);
        top.indices.push_back(all[i].second);
    }
    return top;
}

// Once per point: the keys' and the pairs' states, ours and the anchors', share it.
inline std::shared_ptr<const TopK> top_k_reference(std::size_t n, std::size_t k) {
    return cached_reference<TopK>("top_k n=" + std::to_string(n) + " k=" + std::to_string(k),
                                  [n, k] { return top_k_of(n, k); });
}

// "" when keys (and, where given, indices) are the reference's, item for item: ours and the full sorts' first k.
inline std::string sorted_difference(const TopK &expected, const std::vector<float> &keys,
                                     const std::vector<int> *indices = nullptr) {
    const std::size_t k = expected.keys.size();
    const std::string difference = elements_mismatch(keys.data(), expected.keys.data(), k);
    if (!difference.empty()) return "key " + difference;
    if (indices == nullptr) return "";
    const std::string index_difference = elements_mismatch(indices->data(), expected.indices.data(), k);
    return index_difference.empty() ? "" : "index " + index_difference;
}

// "" when keys (and, where given, indices) are a top k in any order (DeviceTopK's unsorted output): sorted,
// the keys are the reference's, and every index is a distinct input index of a key equal to its own. Of keys
// tied at the k-th place any may be taken, so the indices are not compared with the reference's.
inline std::string set_difference(const TopK &expected, std::size_t n, const std::vector<float> &keys,
                                  const std::vector<int> *indices = nullptr) {
    const std::size_t k = expected.keys.size();
    std::vector<Item> got(k);
    for (std::size_t i = 0; i < k; ++i) got[i] = {keys[i], indices != nullptr ? (*indices)[i] : 0};
    std::sort(got.begin(), got.end(), before);
    std::vector<float> sorted_keys(k);
    for (std::size_t i = 0; i < k; ++i) sorted_keys[i] = got[i].first;
    const std::string difference = elements_mismatch(sorted_keys.data(), expected.keys.data(), k);
    if (!difference.empty() || indices == nullptr) return difference.empty() ? "" : "sorted, key " + difference;
    for (std::size_t i = 0; i < k; ++i) {
        const int index = got[i].second;
        if (index < 0 || static_cast<std::size_t>(index) >= n || !(top_k_key(index) == got[i].first))
            return "value " + std::to_string(index) + " is not the index of an input key " + describe(got[i].first);
        if (i > 0 && index == got[i - 1].second) return "index " + std::to_string(index) + " taken twice";
    }
    return "";
}

}  // namespace top_k_inputs
}  // namespace bench

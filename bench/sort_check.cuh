#pragma once
// The int sorts' timing and check, shared by the radix part (nvbench/radix_sort.cu) and the merge
// sort part (nvbench/merge_sort.cu): the key distributions as the param axis (radix_inputs.cuh),
// each state's input, poisoned outputs and storage, NVBench's counts, and the check on the device
// of what the last timed sort wrote, independently of the library: the keys in order, and the same
// multiset as the input's (a sum of hashes of the keys); the pairs' values each the index of an
// input key equal to its key, increasing among equal keys (so a permutation, and the sort stable).
#include "nvbench/check.cuh"
#include "radix_inputs.cuh"

#include <stream_compaction/support/device_buffer.h>

#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

namespace SC = StreamCompaction;

inline std::vector<std::string> distribution_names() {
    std::vector<std::string> names;
    for (const NamedDistribution &d : kDistributions) names.push_back(d.name);
    return names;
}

inline Distribution distribution_named(const std::string &name) {
    for (const NamedDistribution &d : kDistributions)
        if (name == d.name) return d.distribution;
    throw std::invalid_argument("no key distribution named " + name);
}

// What a check counts: [0] keys out of order (or, for pairs, equal keys whose values do not
// increase), [1] values that are not the index of an input key equal to theirs; [2] the sum of a
// hash of every output key minus that of every input key (0 when they are one multiset, but for
// collisions of 64-bit sums).
struct SortErrors {
    unsigned long long out_of_order = 0, wrong_values = 0, key_hash_difference = 0;
};

static __global__ void count_sort_errors(const int *keys_in, const int *keys_out, const int *values_out, std::size_t n,
                                  unsigned long long *errors) {
    unsigned long long out_of_order = 0, wrong_values = 0, hash_difference = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const int key = keys_out[i];
        hash_difference += index_hash(static_cast<std::uint32_t>(key), 0x6b657973u);
        hash_difference -= index_hash(static_cast<std::uint32_t>(keys_in[i]), 0x6b657973u);
        if (i > 0) {
            const int before = keys_out[i - 1];
            out_of_order +=
                before > key || (values_out != nullptr && before == key && values_out[i - 1] >= values_out[i]);
        }
        if (values_out != nullptr) {
            const int value = values_out[i];
            wrong_values += value < 0 || static_cast<std::size_t>(value) >= n || keys_in[value] != key;
        }
    }
    if (out_of_order != 0) atomicAdd(&errors[0], out_of_order);
    if (wrong_values != 0) atomicAdd(&errors[1], wrong_values);
    if (hash_difference != 0) atomicAdd(&errors[2], hash_difference);  // modulo 2^64: 0 when they cancel
}

inline SortErrors sort_errors(const int *keys_in, const int *keys_out, const int *values_out, std::size_t n,
                       cudaStream_t stream) {
    SC::DeviceBuffer<unsigned long long> d_errors(3);
    SC_CUDA_CHECK(cudaMemsetAsync(d_errors.get(), 0, d_errors.bytes(), stream));
    count_sort_errors<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys_in, keys_out, values_out, n, d_errors.get());
    SC_CHECK_LAUNCH(count_sort_errors);
    const std::vector<unsigned long long> host = read_back(d_errors.get(), 3, stream);
    return {host[0], host[1], host[2]};
}

// The sort of one state: its input (keys, and indices as values for pairs), poisoned outputs and
// storage, NVBench's counts, the timed sorts and the check of what the last one wrote. sort(keys_in,
// keys_out, values_in, values_out, temp, temp_bytes, stream) enqueues one sort.
template <class Sort>
void time_sort(nvbench::state &state, bool pairs, std::size_t temp_bytes, Sort sort) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    SC::DeviceBuffer<int> keys_in(n), keys_out(n), values_in(pairs ? n : 0), values_out(pairs ? n : 0);
    const Distribution distribution = distribution_named(state.get_string("param"));
    fill_keys<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys_in.get(), n, n, n, distribution, kRadixKeySeed);
    SC_CHECK_LAUNCH(fill_keys);
    if (pairs) {
        fill_indices<<<fill_blocks(n), kFillThreads, 0, stream>>>(values_in.get(), n, n);
        SC_CHECK_LAUNCH(fill_indices);
    }
    SC::DeviceBuffer<char> temp(temp_bytes);
    keys_out.fill_bytes(kPoisonByte);
    values_out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<int>(pairs ? 2 * n : n);
    state.add_global_memory_writes<int>(pairs ? 2 * n : n);
    state.exec([&](nvbench::launch &launch) {
        sort(keys_in.get(), keys_out.get(), values_in.get(), values_out.get(), temp.get(), temp.bytes(),
             static_cast<cudaStream_t>(launch.get_stream()));
    });
    const SortErrors errors = sort_errors(keys_in.get(), keys_out.get(), pairs ? values_out.get() : nullptr, n, stream);
    record_check(state, errors.out_of_order == 0 && errors.wrong_values == 0 && errors.key_hash_difference == 0,
                 std::to_string(errors.out_of_order) + " out of order, " + std::to_string(errors.wrong_values) +
                     " wrong values, key hashes " + (errors.key_hash_difference == 0 ? "equal" : "differ"));
}

}  // namespace bench

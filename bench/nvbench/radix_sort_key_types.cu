// The radix part's other key widths on NVBench (issue #48): sorts of int64 (long long), double and
// __half keys alone (sort_keys_int64, sort_keys_double, sort_keys_half), ours (onesweep) against
// CUB's DeviceRadixSort::SortKeys over all of a key's bits (cub), at n = 2^20, 2^24 and 2^27 (axis
// n), param uniform (a string axis of that one value, so that the rows have a param as the int
// sorts' do: radix_sort.cu's distributions). Timed: the one sort call on NVBench's stream, reading
// the input and writing an output and temporary storage poisoned before the timed runs; NVBench's
// cold runs flush the L2 between samples. Inputs (radix_key_type_inputs.cuh): random bits from
// index_hash (seed 0x64b17), a floating-point key's NaN or infinity made finite and its -0.0 made
// +0.0. Bytes: every key read once and written once. Check, on the device and independent of the
// other library, of what the last timed run wrote: the keys in order, and the same multiset as the
// input's (a sum of a hash of every key's bits). With neither NaN nor -0.0, keys of distinct bits
// are distinct values, so these two say what a comparison with another sort's output, bit for bit,
// would say (but for collisions of 64-bit sums).
#include "check.cuh"
#include "fill.h"
#include "radix_key_type_inputs.cuh"

#include <stream_compaction/device/radix_sort.cuh>
#include <stream_compaction/support/device_buffer.h>

#include <cub/device/device_radix_sort.cuh>
#include <cuda_fp16.h>
#include <nvbench/nvbench.cuh>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace bench {
namespace {

namespace SC = StreamCompaction;

const std::vector<nvbench::int64_t> kKeyTypeSortLog2 = {20, 24, 27};  // axis n
const std::vector<std::string> kKeyTypeParams = {"uniform"};          // axis param: the one distribution

template <class Key>
__device__ KeyBits<Key> bits_of(Key key) {
    KeyBits<Key> bits;
    memcpy(&bits, &key, sizeof bits);
    return bits;
}

// A key as the sort orders it (radix_sort.cuh: two's complement order; floating-point keys by value,
// -0.0 == +0.0, NaNs by their bits). The inputs hold neither NaN nor -0.0, so the value's own < is
// that order; __half's value is compared as a float, which holds every __half exactly.
__device__ inline long long sort_order_value(long long key) { return key; }
__device__ inline double sort_order_value(double key) { return key; }
__device__ inline float sort_order_value(__half key) { return __half2float(key); }

// A bijection of 64-bit words (splitmix64's finalizer) of a key's bits xor a seed. Not index_hash
// (radix_sort.cu's hash of 32-bit keys): it folds an 8-byte key's halves into 32 bits by xor, so
// keys whose halves fold alike would hash alike.
__device__ inline std::uint64_t key_hash(std::uint64_t bits) {
    std::uint64_t h = bits ^ 0x6b657973u;
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

// What a check counts: [0] keys out of order, [1] the sum of a hash of every output key minus that
// of every input key (0 when they are one multiset, but for collisions of 64-bit sums).
struct SortErrors {
    unsigned long long out_of_order = 0, key_hash_difference = 0;
};

template <class Key>
__global__ void count_sort_errors(const Key *keys_in, const Key *keys_out, std::size_t n,
                                  unsigned long long *errors) {
    unsigned long long out_of_order = 0, hash_difference = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const Key key = keys_out[i];
        hash_difference += key_hash(bits_of(key));
        hash_difference -= key_hash(bits_of(keys_in[i]));
        // Not `before > key`: a NaN (as no input key is, but a wrong output could be) is in order with nothing.
        if (i > 0) out_of_order += !(sort_order_value(keys_out[i - 1]) <= sort_order_value(key));
    }
    if (out_of_order != 0) atomicAdd(&errors[0], out_of_order);
    if (hash_difference != 0) atomicAdd(&errors[1], hash_difference);  // modulo 2^64: 0 when they cancel
}

template <class Key>
SortErrors sort_errors(const Key *keys_in, const Key *keys_out, std::size_t n, cudaStream_t stream) {
    SC::DeviceBuffer<unsigned long long> d_errors(2);
    SC_CUDA_CHECK(cudaMemsetAsync(d_errors.get(), 0, d_errors.bytes(), stream));
    count_sort_errors<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys_in, keys_out, n, d_errors.get());
    SC_CHECK_LAUNCH(count_sort_errors);
    const std::vector<unsigned long long> host = read_back(d_errors.get(), 2, stream);
    return {host[0], host[1]};
}

// The sort of one state: its input, poisoned output and storage, NVBench's counts, the timed sorts
// and the check of what the last one wrote. sort(keys_in, keys_out, n, temp, temp_bytes, stream)
// enqueues one sort.
template <class Key, class Sort>
void time_sort(nvbench::state &state, std::size_t temp_bytes, Sort sort) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    const cudaStream_t stream = state.get_cuda_stream();
    SC::DeviceBuffer<Key> keys_in(n), keys_out(n);
    fill_key_type_keys<<<fill_blocks(n), kFillThreads, 0, stream>>>(keys_in.get(), n, kKeyTypeSeed);
    SC_CHECK_LAUNCH(fill_key_type_keys);
    SC::DeviceBuffer<char> temp(temp_bytes);
    keys_out.fill_bytes(kPoisonByte);
    temp.fill_bytes(kPoisonByte);
    state.add_element_count(n);
    state.add_global_memory_reads<Key>(n);
    state.add_global_memory_writes<Key>(n);
    state.exec([&](nvbench::launch &launch) {
        const auto launch_stream = static_cast<cudaStream_t>(launch.get_stream());
        sort(keys_in.get(), keys_out.get(), n, temp.get(), temp.bytes(), launch_stream);
    });
    const SortErrors errors = sort_errors(keys_in.get(), keys_out.get(), n, stream);
    record_check(state, errors.out_of_order == 0 && errors.key_hash_difference == 0,
                 std::to_string(errors.out_of_order) + " out of order, key hashes " +
                     (errors.key_hash_difference == 0 ? "equal" : "differ"));
}

// CUB's sort of all of a key's bits ([0, 8 sizeof(Key)), as ours sorts them).
template <class Key>
void sort_keys_cub(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    std::size_t bytes = 0;
    SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const Key *>(nullptr),
                                                 static_cast<Key *>(nullptr), static_cast<int>(n)));
    time_sort<Key>(state, bytes,
                   [](const Key *keys_in, Key *keys_out, std::size_t n, void *temp, std::size_t bytes,
                      cudaStream_t stream) {
                       SC_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out,
                                                                    static_cast<int>(n), 0, int(sizeof(Key)) * 8,
                                                                    stream));
                   });
}

// Ours at the library's default tuning.
template <class Key>
void sort_keys_onesweep(nvbench::state &state) {
    const auto n = static_cast<std::size_t>(state.get_int64("n"));
    time_sort<Key>(state, SC::radix_sort_temp_bytes<Key>(n),
                   [](const Key *keys_in, Key *keys_out, std::size_t n, void *temp, std::size_t bytes,
                      cudaStream_t stream) { SC::radix_sort_keys(keys_in, keys_out, n, temp, bytes, stream); });
}

// One function per benchmark: NVBENCH_BENCH pastes its argument into identifiers, so no template-id.
void sort_keys_int64_cub(nvbench::state &state) { sort_keys_cub<long long>(state); }
void sort_keys_int64_onesweep(nvbench::state &state) { sort_keys_onesweep<long long>(state); }
void sort_keys_double_cub(nvbench::state &state) { sort_keys_cub<double>(state); }
void sort_keys_double_onesweep(nvbench::state &state) { sort_keys_onesweep<double>(state); }
void sort_keys_half_cub(nvbench::state &state) { sort_keys_cub<__half>(state); }
void sort_keys_half_onesweep(nvbench::state &state) { sort_keys_onesweep<__half>(state); }

// Names "<operation>/<implementation>", axes n and param: bench/nvbench/nvbench_to_csv.py. The
// operation names the key type (one CSV operation per type), so no type axis.
NVBENCH_BENCH(sort_keys_int64_cub)
    .set_name("sort_keys_int64/cub")
    .add_int64_power_of_two_axis("n", kKeyTypeSortLog2)
    .add_string_axis("param", kKeyTypeParams);
NVBENCH_BENCH(sort_keys_int64_onesweep)
    .set_name("sort_keys_int64/onesweep")
    .add_int64_power_of_two_axis("n", kKeyTypeSortLog2)
    .add_string_axis("param", kKeyTypeParams);
NVBENCH_BENCH(sort_keys_double_cub)
    .set_name("sort_keys_double/cub")
    .add_int64_power_of_two_axis("n", kKeyTypeSortLog2)
    .add_string_axis("param", kKeyTypeParams);
NVBENCH_BENCH(sort_keys_double_onesweep)
    .set_name("sort_keys_double/onesweep")
    .add_int64_power_of_two_axis("n", kKeyTypeSortLog2)
    .add_string_axis("param", kKeyTypeParams);
NVBENCH_BENCH(sort_keys_half_cub)
    .set_name("sort_keys_half/cub")
    .add_int64_power_of_two_axis("n", kKeyTypeSortLog2)
    .add_string_axis("param", kKeyTypeParams);
NVBENCH_BENCH(sort_keys_half_onesweep)
    .set_name("sort_keys_half/onesweep")
    .add_int64_power_of_two_axis("n", kKeyTypeSortLog2)
    .add_string_axis("param", kKeyTypeParams);

}  // namespace
}  // namespace bench

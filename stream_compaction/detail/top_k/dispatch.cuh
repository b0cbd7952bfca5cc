#pragma once
// Top-k's dispatch: the digit plan, the temporary storage, and the launches of one selection (or,
// for a k past what the final sort holds, a radix sort of everything and a copy of its first k).
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/radix_sort/dispatch.cuh>
#include <stream_compaction/detail/top_k/kernels.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// The digits of (compared bits, position) for `key_bits` compared bits from bit `key_shift` and
// positions below n: the key's from its top, then the position's, each at most kTopKDigitBits.
inline TopKPlan top_k_plan(int key_bits, int key_shift, std::size_t n) {
    TopKPlan plan{};
    plan.key_shift = key_shift;
    const auto cut = [&plan](int bits, int from_position) {
        for (int top = bits; top > 0; top -= kTopKDigitBits) {
            const int width = std::min(top, kTopKDigitBits);
            plan.digit[plan.digits++] = TopKDigit{from_position, top - width, width};
        }
    };
    cut(key_bits, 0);
    int position_bits = 0;
    while (position_bits < 64 && (std::size_t{1} << position_bits) < n) ++position_bits;
    cut(position_bits, 1);
    return plan;
}

// The final sort's block size on the current device: 512 threads (4,096 items) where a block may
// have the shared memory they need, else 256 (2,048 items, under the 48 KiB every GPU gives).
template <class Key>
int top_k_final_threads() {
    int device = 0, optin = 0;
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return static_cast<std::size_t>(optin) >= TopKFinalSort<512>::shared_bytes<radix_bits_t<Key>>() ? 512 : 256;
}

// The items the final sort holds, and so the largest k selected (a larger one sorts everything).
template <class Key>
unsigned top_k_capacity() {
    return top_k_final_threads<Key>() == 512 ? TopKFinalSort<512>::kItems : TopKFinalSort<256>::kItems;
}

// The sample's rank whose bits set the sampled pass's threshold, or kTopKNoSample where a sample
// would not pay: (rank + 1) * n / kTopKSamples keys are expected at most it (a sample stands for
// n / kTopKSamples keys), so rank + 1 = 2 k kTopKSamples / n + 4 leaves fewer than k a chance
// below 1e-8 on random keys; it is taken when that many fit a quarter of a candidate buffer.
constexpr unsigned kTopKNoSample = ~0u;
inline unsigned top_k_sample_rank(std::size_t n, std::size_t k, u64 candidate_capacity) {
    const std::size_t stride = n / kTopKSamples;
    const std::size_t samples = (2 * k + stride - 1) / stride + 4;
    if (samples > kTopKSamples / 4 || samples * stride > candidate_capacity / 4) return kTopKNoSample;
    return static_cast<unsigned>(samples - 1);
}

// Temporary storage of a selection, in the order of its pieces (state and histograms first, zeroed
// together), or of the full sort.
template <class Key, class Value>
struct TopKLayout {
    bool sorts_all;    // k is past the capacity: radix sort, then copy
    bool from_input;   // n fits the final sort: it reads the input, no pass runs
    unsigned capacity;
    u64 candidate_capacity;
    std::size_t zeroed, chosen, candidate_bits, candidate_positions;  // bytes of the pieces (each of the two buffers)
    std::size_t sort_temp, sorted_keys, sorted_values;

    auto pieces() const {
        return temp_layout(zeroed, chosen, candidate_bits, candidate_bits, candidate_positions, candidate_positions,
                           sort_temp, sorted_keys, sorted_values);
    }
};

template <class Key, class Value>
TopKLayout<Key, Value> top_k_layout(std::size_t n, std::size_t k, const Tuning &tuning) {
    using Bits = radix_bits_t<Key>;
    TopKLayout<Key, Value> layout{};
    if (n == 0 || k == 0) return layout;
    layout.capacity = top_k_capacity<Key>();
    layout.sorts_all = k > layout.capacity;
    if (layout.sorts_all) {
        layout.sort_temp = radix_temp_bytes<Key, Value>(n, kRadixMaxPortionKeys, tuning);
        layout.sorted_keys = n * sizeof(Key);
        if constexpr (kRadixHasValues<Value>) layout.sorted_values = n * sizeof(Value);
        return layout;
    }
    layout.from_input = n <= layout.capacity;
    if (layout.from_input) return layout;
    layout.candidate_capacity = std::max<u64>(layout.capacity, (n + kTopKCandidateDivisor - 1) / kTopKCandidateDivisor);
    static_assert(sizeof(TopKState) <= kTempAlignment, "the histograms start one alignment after the state");
    layout.zeroed = kTempAlignment + kTopKMaxDigits * kTopKBins * sizeof(u64);
    layout.chosen = layout.capacity * sizeof(TopKItem<Bits>);
    layout.candidate_bits = layout.candidate_capacity * sizeof(Bits);
    layout.candidate_positions = layout.candidate_capacity * sizeof(u64);
    return layout;
}

template <class Key, class Value>
std::size_t top_k_temp_bytes(std::size_t n, std::size_t k, const Tuning &tuning) {
    const auto layout = top_k_layout<Key, Value>(n, k, tuning);
    return layout.from_input ? 0 : layout.pieces().bytes();
}

// The selection behind every entry point: the first k of (keys, values) in the order of the stable
// radix sort comparing `order` (the bits key_bits wide from bit key_shift of each key's image).
// Values: a pointer to Value's or any iterator whose items convert to Value (KeysOnly: none).
template <class Key, class Value, class ValuesIn>
void top_k(const char *name, const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out,
           std::size_t n, std::size_t k, void *d_temp, std::size_t temp_bytes, RadixOrder<Key> order, int key_bits,
           int key_shift, const CallEnvironment &env) {
    using Bits = radix_bits_t<Key>;
    constexpr bool kHasValues = kRadixHasValues<Value>;
    require_device_pointers(name, n, d_keys_in, d_keys_out);
    if (k > n)
        throw std::invalid_argument(std::string(name) + ": k = " + std::to_string(k) + " is more than the " +
                                    std::to_string(n) + " items");
    // The outputs hold k items; the final sort reads keys (and values) from the input as it writes them.
    if (k > 0 && d_keys_out < d_keys_in + n && d_keys_in < d_keys_out + k)
        throw std::invalid_argument(std::string(name) + ": the keys output overlaps the keys input");
    if constexpr (kHasValues) {
        require_device_input(name, k, d_values_in, "values input");
        require_device_input(name, k, d_values_out, "values output");
    }
    if (n == 0 || k == 0) return;
    const cudaStream_t stream = env.stream;
    const TopKLayout<Key, Value> layout = top_k_layout<Key, Value>(n, k, env.tuning);
    const std::size_t needed = layout.from_input ? 0 : layout.pieces().bytes();
    require_temp_storage(name, d_temp, temp_bytes, needed);

    if (layout.sorts_all) {
        const auto piece = layout.pieces().carve(d_temp);
        Key *sorted_keys = reinterpret_cast<Key *>(piece[7]);
        Value *sorted_values = reinterpret_cast<Value *>(piece[8]);
        using ValueBits = std::conditional_t<kHasValues, radix_value_bits_t<Value>, KeysOnly>;
        if constexpr (kHasValues) {
            using Values = decltype(d_values_in);
            if constexpr (std::is_convertible_v<Values, const Value *>) {
                radix_sort<Key, ValueBits>(name, d_keys_in, sorted_keys,
                                           reinterpret_cast<const ValueBits *>(static_cast<const Value *>(d_values_in)),
                                           reinterpret_cast<ValueBits *>(sorted_values), n, piece[6],
                                           layout.sort_temp, env, kRadixMaxPortionKeys, order);
            } else {
                radix_sort<Key, ValueBits, kRadixItemsPerThread<Key>, RadixIteratorValues<Values, Value, ValueBits>>(
                    name, d_keys_in, sorted_keys, RadixIteratorValues<Values, Value, ValueBits>{d_values_in},
                    reinterpret_cast<ValueBits *>(sorted_values), n, piece[6], layout.sort_temp, env,
                    kRadixMaxPortionKeys, order);
            }
            SC_CUDA_CHECK(cudaMemcpyAsync(d_values_out, sorted_values, k * sizeof(Value), cudaMemcpyDeviceToDevice,
                                          stream));
        } else {
            radix_sort<Key, KeysOnly>(name, d_keys_in, sorted_keys, nullptr, nullptr, n, piece[6], layout.sort_temp,
                                      env, kRadixMaxPortionKeys, order);
        }
        SC_CUDA_CHECK(cudaMemcpyAsync(d_keys_out, sorted_keys, k * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
        return;
    }

    const auto final_sort = [&](const TopKState *state, const TopKItem<Bits> *chosen, bool dependent) {
        const auto run = [&](auto kernel, int threads, std::size_t shared_bytes) {
            if (dependent)
                launch_dependent(kernel, "top_k_final_kernel", 1, threads, shared_bytes, stream, d_keys_in,
                                 d_values_in, n, order, key_shift, static_cast<u64>(k), state, chosen,
                                 layout.from_input, d_keys_out, d_values_out);
            else
                launch(kernel, "top_k_final_kernel", 1, threads, shared_bytes, stream, d_keys_in, d_values_in, n,
                       order, key_shift, static_cast<u64>(k), state, chosen, layout.from_input, d_keys_out,
                       d_values_out);
        };
        if (layout.capacity == TopKFinalSort<512>::kItems)
            run(top_k_final_kernel<512, Key, ValuesIn, Value>, 512, TopKFinalSort<512>::shared_bytes<Bits>());
        else
            run(top_k_final_kernel<256, Key, ValuesIn, Value>, 256, TopKFinalSort<256>::shared_bytes<Bits>());
    };
    if (layout.from_input) {
        final_sort(nullptr, nullptr, false);
        return;
    }

    const auto piece = layout.pieces().carve(d_temp);
    TopKState *state = reinterpret_cast<TopKState *>(piece[0]);
    u64 *histograms = reinterpret_cast<u64 *>(piece[0] + kTempAlignment);
    TopKBuffers<Bits> buffers{};
    buffers.chosen = reinterpret_cast<TopKItem<Bits> *>(piece[1]);
    buffers.candidate_bits[0] = reinterpret_cast<Bits *>(piece[2]);
    buffers.candidate_bits[1] = reinterpret_cast<Bits *>(piece[3]);
    buffers.candidate_positions[0] = reinterpret_cast<u64 *>(piece[4]);
    buffers.candidate_positions[1] = reinterpret_cast<u64 *>(piece[5]);
    buffers.candidate_capacity = layout.candidate_capacity;
    const TopKPlan plan = top_k_plan(key_bits, key_shift, n);

    constexpr int kVec = vector_items<Key>();
    constexpr int kRows = kTopKPassItems<Key> / kVec > 0 ? kTopKPassItems<Key> / kVec : 1;
    const auto pass = top_k_pass_kernel<Key, kRows, kVec>;
    const std::size_t tiles = (n + std::size_t{kTopKPassThreads} * kRows * kVec - 1) /
                              (std::size_t{kTopKPassThreads} * kRows * kVec);
    const unsigned blocks = static_cast<unsigned>(
        std::min<std::size_t>(tiles, resident_grid(reinterpret_cast<const void *>(pass), "top_k_pass_kernel",
                                                   kTopKPassThreads, 0)));
    const bool vectorized = aligned_to(d_keys_in, vector_alignment<Key, kVec>());

    SC_CUDA_CHECK(cudaMemsetAsync(piece[0], 0, layout.zeroed, stream));
    const unsigned rank = top_k_sample_rank(n, k, layout.candidate_capacity);
    if (rank != kTopKNoSample) {
        launch(top_k_sample_kernel<Key>, "top_k_sample_kernel", 1, kTopKSampleThreads, 0, stream, d_keys_in, n, order,
               key_shift, rank, static_cast<u64>(k), state);
        launch_dependent(pass, "top_k_pass_kernel", blocks, kTopKPassThreads, 0, stream, d_keys_in, n, order, plan,
                         kTopKSampledPass, state, histograms, buffers, vectorized);
        launch_dependent(pass, "top_k_pass_kernel", blocks, kTopKPassThreads, 0, stream, d_keys_in, n, order, plan,
                         -1, state, histograms, buffers, vectorized);
    } else {
        launch(pass, "top_k_pass_kernel", blocks, kTopKPassThreads, 0, stream, d_keys_in, n, order, plan, -1,
               state, histograms, buffers, vectorized);
    }
    for (int digit = 0; digit < plan.digits; ++digit) {
        launch_dependent(top_k_choose_kernel, "top_k_choose_kernel", 1, kTopKChooserThreads, 0, stream, plan, digit,
                         static_cast<u64>(k), layout.capacity, layout.candidate_capacity, state,
                         static_cast<const u64 *>(histograms));
        launch_dependent(pass, "top_k_pass_kernel", blocks, kTopKPassThreads, 0, stream, d_keys_in, n, order, plan,
                         digit, state, histograms, buffers, vectorized);
    }
    final_sort(state, buffers.chosen, true);
}

}  // namespace detail
}  // namespace StreamCompaction

#pragma once
// Onesweep's dispatch: checks, temporary storage layout, and the launches of one sort.
#include <stream_compaction/detail/host/launch.cuh>
#include <stream_compaction/detail/host/temp_storage.h>
#include <stream_compaction/detail/radix_sort/kernels.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

template <class Key, class Value, int Items = kRadixItemsPerThread<Key>>
std::size_t radix_temp_bytes(std::size_t n, std::size_t max_portion_keys = kRadixMaxPortionKeys,
                             const Tuning &tuning = {}) {
    if (n == 0) return 0;
    const int threads = checked_radix_block_size(radix_threads_asked(tuning));
    return radix_layout<Key, Value>(n, threads, Items, max_portion_keys).total_bytes + kTempAlignment - 1;
}

template <class T>
void require_disjoint(const char *name, const T *in, const T *out, std::size_t n) {
    if (n > 0 && in < out + n && out < in + n)
        throw std::invalid_argument(std::string(name) + ": the output overlaps the input");
}

// What the onesweep kernel reads values from: a pointer to Value's (or none: a null pointer, a
// keys-only sort's) as const Value *, any other input (a RadixIteratorValues) as it is.
template <class Value, class ValuesIn>
using radix_values_in_t = std::conditional_t<std::is_convertible_v<ValuesIn, const Value *>, const Value *, ValuesIn>;

// The checks of every sort, made before anything is enqueued or allocated. Values from an iterator:
// only their output can be checked.
template <class Key, class Value, class ValuesIn>
void require_radix_arguments(const char *name, const Key *d_keys_in, const Key *d_keys_out, ValuesIn d_values_in,
                             const Value *d_values_out, std::size_t n) {
    require_device_pointers(name, n, d_keys_in, d_keys_out);
    require_disjoint(name, d_keys_in, d_keys_out, n);
    if constexpr (!kRadixHasValues<Value>) {
        return;
    } else if constexpr (std::is_pointer_v<radix_values_in_t<Value, ValuesIn>>) {
        const auto values_in = static_cast<const Value *>(d_values_in);
        require_device_pointers(name, n, values_in, d_values_out);
        require_disjoint(name, values_in, d_values_out, n);
    } else {
        require_device_input(name, n, d_values_out, "values output");
    }
}

// The sort behind every entry point, comparing keys as `order` says. Values (of a pair sort) come
// from a pointer to Value's or a RadixIteratorValues, which the first active pass reads; every path
// takes that pass (with all keys equal, the last digit's), so none copies values in another way.
// `max_portion_keys` (at most kRadixMaxPortionKeys) lets the tests reach the multi-portion path with
// small inputs.
template <class Key, class Value, int Items = kRadixItemsPerThread<Key>, class ValuesIn = const Value *>
void radix_sort(const char *name, const Key *d_keys_in, Key *d_keys_out, ValuesIn d_values_in, Value *d_values_out,
                std::size_t n, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env,
                std::size_t max_portion_keys = kRadixMaxPortionKeys, RadixOrder<Key> order = radix_ascending<Key>()) {
    // Keys and values of other types are refused by RadixBits and RadixValueBits (kernels.cuh).
    constexpr int kDigits = radix_digits<Key>();
    constexpr bool kHasValues = kRadixHasValues<Value>;
    using Input = radix_values_in_t<Value, ValuesIn>;
    require_radix_arguments(name, d_keys_in, d_keys_out, d_values_in, d_values_out, n);
    if (n == 0) return;
    if (max_portion_keys == 0 || max_portion_keys > kRadixMaxPortionKeys)
        throw std::invalid_argument(std::string(name) + ": portion size out of range");
    const int threads = checked_radix_block_size(radix_threads_asked(env.tuning));
    const cudaStream_t stream = env.stream;
    const RadixLayout layout = radix_layout<Key, Value>(n, threads, Items, max_portion_keys);

    require_temp_storage(name, d_temp, temp_bytes, layout.total_bytes + kTempAlignment - 1);
    char *temp = temp_layout(layout.total_bytes).carve(d_temp)[0];
    u64 *histogram = reinterpret_cast<u64 *>(temp + layout.histogram);
    unsigned *tile_counters = reinterpret_cast<unsigned *>(temp + layout.tile_counters);
    unsigned *status = reinterpret_cast<unsigned *>(temp + layout.status);
    RadixPassPlan *plans = reinterpret_cast<RadixPassPlan *>(temp + layout.plans);
    u64 *bases = reinterpret_cast<u64 *>(temp + layout.bases);
    Key *keys_alternate = reinterpret_cast<Key *>(temp + layout.keys_alternate);
    Value *values_alternate = nullptr;
    if constexpr (kHasValues) values_alternate = reinterpret_cast<Value *>(temp + layout.values_alternate);
    const RadixBuffers<Key, Value, Input> buffers{d_keys_in,          d_keys_out,   keys_alternate,
                                                  Input(d_values_in), d_values_out, values_alternate};

    SC_CUDA_CHECK(cudaMemsetAsync(temp, 0, layout.zeroed_bytes, stream));
    const unsigned histogram_blocks =
        std::min(blocks_for(n, kRadixHistogramThreads * kRadixHistogramBatch), kRadixHistogramMaxBlocks);
    launch(radix_histogram_kernel<Key>, "radix_histogram_kernel", histogram_blocks, kRadixHistogramThreads, 0, stream,
           d_keys_in, n, order, histogram);
    launch(radix_plan_kernel<kDigits>, "radix_plan_kernel", 1, kRadixBins, 0, stream, histogram, n, plans, bases,
           layout.portions);

    const std::size_t shared_bytes = radix_onesweep_shared_bytes<Key, Value>(threads, Items);
    for (int digit = 0; digit < kDigits; ++digit) {
        for (std::size_t portion = 0; portion < layout.portions; ++portion) {
            const std::size_t first_tile = portion * layout.portion_tiles;
            const std::size_t tiles = std::min(layout.portion_tiles, layout.tiles - first_tile);
            launch(radix_onesweep_kernel<Key, Value, Items, Input>, "radix_onesweep_kernel", blocks_for(tiles, 1),
                   threads, shared_bytes, stream, buffers, n, digit, order, plans,
                   tile_counters + digit * layout.portions + portion, status + digit * layout.tiles * kRadixBins,
                   bases + digit * layout.portions * kRadixBins, portion, layout.portions, first_tile, tiles);
        }
    }
}

}  // namespace detail
}  // namespace StreamCompaction

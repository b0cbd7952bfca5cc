#pragma once
// CPU expectations the GPU tests compare against.
#include <stream_compaction/cpu.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

inline std::vector<int> cpuScan(const std::vector<int> &in) {
    std::vector<int> out(in.size());
    StreamCompaction::CPU::scan(int(in.size()), out.data(), in.data());
    return out;
}

inline std::vector<int> cpuCompact(const std::vector<int> &in) {
    std::vector<int> out(in.size());
    out.resize(StreamCompaction::CPU::compactWithoutScan(int(in.size()), out.data(), in.data()));
    return out;
}

// The order of the falses after the trues: as in the input (stable_partition), or reversed (the
// partition of CUB's DevicePartition::If: the i-th false of the input at out[n - 1 - i]).
enum class FalsesOrder { InOrder, Reversed };

// The trues (keep(i) on the index i) in input order, then the falses in `order`; `trues` gets
// their count.
template <class T, class KeepIndex>
std::vector<T> partitionByIndex(const std::vector<T> &in, KeepIndex keep, FalsesOrder order, std::size_t &trues) {
    std::vector<T> out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i)
        if (keep(i)) out.push_back(in[i]);
    trues = out.size();
    for (std::size_t i = 0; i < in.size(); ++i)
        if (!keep(i)) out.push_back(in[i]);
    // out[trues + i] is the i-th false; reversed, it is at out[n - 1 - i].
    if (order == FalsesOrder::Reversed) std::reverse(out.begin() + static_cast<std::ptrdiff_t>(trues), out.end());
    return out;
}

// stable_partition's result: the trues in order, then the falses in order.
template <class T, class Pred>
std::vector<T> cpuStablePartition(const std::vector<T> &in, Pred pred, std::size_t &trues) {
    return partitionByIndex(in, [&](std::size_t i) { return bool(pred(in[i])); }, FalsesOrder::InOrder, trues);
}

// partition's result (CUB's contract): the trues in order, then the falses in reverse order.
template <class T, class Pred>
std::vector<T> cpuPartition(const std::vector<T> &in, Pred pred, std::size_t &trues) {
    return partitionByIndex(in, [&](std::size_t i) { return bool(pred(in[i])); }, FalsesOrder::Reversed, trues);
}

// std::stable_sort of the keys under `less`, carrying the values (none: keys alone): the radix
// sorts' reference.
template <class Key, class Value, class Less>
void referenceSort(std::vector<Key> &keys, std::vector<Value> &values, Less less) {
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    std::vector<Key> sorted_keys(keys.size());
    std::vector<Value> sorted_values(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        sorted_keys[i] = keys[order[i]];
        if (!values.empty()) sorted_values[i] = values[order[i]];
    }
    keys.swap(sorted_keys);
    values.swap(sorted_values);
}

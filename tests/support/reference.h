#pragma once
// CPU expectations the GPU tests compare against.
#include <stream_compaction/cpu.h>

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

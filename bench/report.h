#pragma once
// What a benchmark program reports and how: one Measurement per implementation and point, printed
// as a table row and written as a CSV row as it comes. Shared by sc_bench and the anchor programs
// (bench/anchors/), which write the same CSV columns so that bench/plot/anchors.py can merge them.
// Plain C++: nothing here pulls in CUDA or CCCL headers.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace bench {

struct Size {
    std::size_t n;
    std::string label;  // "2^20" or "2^20-3"
};

// 2^log2 - minus, labelled so.
inline Size power_of_two(int log2, int minus = 0) {
    return {(std::size_t{1} << log2) - minus,
            "2^" + std::to_string(log2) + (minus ? "-" + std::to_string(minus) : std::string())};
}

// The scan part's inputs, in every program that times it: uniform values in [0, 100) from
// index_hash(i, kScanSeed) (fill.h), converted to the element type; the compactions keep the values
// below each kept percentage, the partitions put those below kPartitionPercent first.
constexpr std::uint32_t kScanSeed = 0x5eed2024u;
constexpr int kPercentKept[] = {5, 50, 95};
constexpr int kPartitionPercent = 50;

// The scan part's sizes (every program that times it): the even powers of two from 2^10,
// 2^max_log2 itself, and the sizes not a power of two 2^20-3 and 2^28-3.
inline std::vector<Size> scan_sizes(int max_log2) {
    std::vector<Size> sizes;
    for (int log2 = 10; log2 <= max_log2; ++log2) {
        if (log2 == 20 || log2 == 28) sizes.push_back(power_of_two(log2, 3));
        if (log2 % 2 == 0 || log2 == max_log2) sizes.push_back(power_of_two(log2));
    }
    return sizes;
}

// One implementation timed at one point; the report derives GB/s, items/s, GFLOP/s, % of copy and
// the ratio to the fastest library (CUB, Thrust, cuSPARSE, another CCCL's CUB) of the same point.
struct Measurement {
    std::string operation;  // copy, scan, compact, partition, sweep_scan, sort_keys, sort_pairs, ...
    std::string implementation;
    Size size;              // n: elements, keys or nonzeros
    std::string param;      // what else defines the point: "5" (% kept), "uniform", "bcsstk13.mtx"; "" none
    double median_ms;
    double bytes;           // what a perfect implementation reads and writes
    int block_size = 0;     // threads per block; 0 for the library anchors and the copy
    bool ok = true;         // same result as the anchor
    bool anchor = false;    // a library: the others' ratio is to the fastest library of the point
    double flops = 0;       // floating-point operations (SpMV: 2 nnz); 0 where none are counted
};

// The implementations that are libraries, whatever their case file sets in Measurement::anchor:
// cub (the toolkit's CCCL), cub_<version> (another CCCL's, from an anchor program), thrust and
// thrust_<...>, cusparse_<algorithm>. bench/plot/anchors.py applies the same rule.
inline bool is_library(const std::string &implementation) {
    const auto starts = [&](const char *prefix) { return implementation.rfind(prefix, 0) == 0; };
    return implementation == "cub" || implementation == "thrust" || starts("cub_") || starts("thrust_") ||
           starts("cusparse");
}

// The CSV's columns. ratio_to_anchor: the fastest library's time at the point / this row's time
// (> 1: this row is faster); fastest_library: which library that was.
constexpr const char kCsvColumns[] =
    "operation,implementation,n,param,median_ms,gbps,items_per_s,gflops,ratio_to_anchor,pct_of_copy,block_size,"
    "anchor,ok,fastest_library\n";

inline std::string fixed(double value, int decimals) {
    if (std::isnan(value)) return "";
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// "3.6" from a CUDA (13000) or CCCL-style (3006000) version number with `per_major` units a major.
inline std::string major_minor(int version, int per_major, int per_minor) {
    return std::to_string(version / per_major) + "." + std::to_string(version % per_major / per_minor);
}

// Prints each measurement as a table row under a heading per operation, n and parameter, and writes
// it to the CSV as it comes, so a run cut short keeps what it measured. A point's libraries come
// before the others, so each row's ratio is to the fastest library measured so far at that point
// in this program; bench/plot/anchors.py recomputes it over every program of the run.
class Report {
public:
    explicit Report(std::FILE *csv) : csv_(csv) {}

    // `to_csv` false: printed and used as the copy bandwidth of its n, but not written (an anchor
    // program's copy, which sc_bench's CSV already has).
    void add(const Measurement &m, bool to_csv = true) {
        const double gbps = m.bytes / (m.median_ms * 1e6);
        const double items_per_s = m.size.n / (m.median_ms * 1e-3);
        const double gflops = m.flops > 0 ? m.flops / (m.median_ms * 1e6) : NAN;
        const bool library = m.anchor || is_library(m.implementation);
        if (m.operation == "copy") copy_gbps_[m.size.n] = gbps;
        // The sweep's rows compare with the libraries of the scan at the same n.
        const std::string anchor_operation = m.operation == "sweep_scan" ? "scan" : m.operation;
        const auto point = std::make_tuple(anchor_operation, m.size.n, m.param);
        if (library) {
            const auto [best, fresh] = anchor_ms_.emplace(point, std::make_pair(m.median_ms, m.implementation));
            if (!fresh && m.median_ms < best->second.first) best->second = {m.median_ms, m.implementation};
        }
        // % of the copy at the same n, else of the largest copy: the limit for a memory-bound pass
        // (none before a copy is measured: an anchor program's parts without the scan part).
        const auto copy = copy_gbps_.count(m.size.n) ? copy_gbps_.find(m.size.n)
                          : copy_gbps_.empty()       ? copy_gbps_.end()
                                                     : std::prev(copy_gbps_.end(), 1);
        const auto anchor = anchor_ms_.find(point);
        const double pct_of_copy = copy == copy_gbps_.end() || m.bytes <= 0 ? NAN : 100.0 * gbps / copy->second;
        const double ratio = anchor == anchor_ms_.end() ? NAN : anchor->second.first / m.median_ms;
        const std::string fastest = anchor == anchor_ms_.end() ? "" : anchor->second.second;

        std::string heading = "== " + m.operation + ", n = " + m.size.label + " (" + std::to_string(m.size.n) + ")";
        if (!m.param.empty())
            heading += ", " + m.param + (m.operation == "partition" ? "% true" : m.operation == "compact" ? "% kept" : "");
        heading += " ==";
        if (heading != heading_) {
            std::printf("\n%s\n  %-20s %6s %12s %10s %10s %8s %10s %8s %-20s %s\n", heading.c_str(),
                        "implementation", "block", "median ms", "GB/s", "% of copy", "Gitems/s", "GFLOP/s",
                        "vs best", "best library", "ok");
            heading_ = heading;
        }
        std::printf("  %-20s %6s %12s %10s %10s %8s %10s %8s %-20s %s\n", m.implementation.c_str(),
                    m.block_size ? std::to_string(m.block_size).c_str() : "-", fixed(m.median_ms, 4).c_str(),
                    fixed(gbps, 1).c_str(), fixed(pct_of_copy, 1).c_str(), fixed(items_per_s * 1e-9, 2).c_str(),
                    fixed(gflops, 1).c_str(), fixed(ratio, 2).c_str(), fastest.empty() ? "-" : fastest.c_str(),
                    m.ok ? "yes" : "MISMATCH");
        std::fflush(stdout);

        if (csv_ && to_csv) {
            std::fprintf(csv_, "%s,%s,%zu,%s,%s,%s,%s,%s,%s,%s,%d,%d,%d,%s\n", m.operation.c_str(),
                         m.implementation.c_str(), m.size.n, m.param.c_str(), fixed(m.median_ms, 6).c_str(),
                         fixed(gbps, 2).c_str(), fixed(items_per_s, 0).c_str(), fixed(gflops, 2).c_str(),
                         fixed(ratio, 4).c_str(), fixed(pct_of_copy, 2).c_str(), m.block_size, library ? 1 : 0,
                         m.ok ? 1 : 0, fastest.c_str());
            std::fflush(csv_);
        }
        if (!m.ok) ++mismatches_;
    }

    int mismatches() const { return mismatches_; }

private:
    std::FILE *csv_;
    std::map<std::size_t, double> copy_gbps_;  // by n
    // The fastest library's time and name, by operation, n, param.
    std::map<std::tuple<std::string, std::size_t, std::string>, std::pair<double, std::string>> anchor_ms_;
    std::string heading_;
    int mismatches_ = 0;
};

}  // namespace bench

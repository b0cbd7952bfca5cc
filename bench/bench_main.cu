// sc_bench: times every scan, compaction and partition of the project against CUB, Thrust and a
// device-to-device copy, on one GPU, and reports a table on stdout and optionally a CSV.
#include "cases.h"

#include <stream_compaction/support/device_probe.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace {

const char kUsage[] =
    "usage: sc_bench [--only PARTS] [--runs N] [--max-log2 N] [--all] [--sweep | --no-sweep]\n"
    "                [--matrix-dir DIR] [--csv FILE] [--help]\n"
    "Times the project's primitives against CUB, Thrust, cuSPARSE and a device-to-device copy on the\n"
    "same inputs in one process: CUDA events, median of N runs after 3 warm-ups.\n"
    "  --only PARTS  comma-separated subset of scan,radix,segmented,spmv (default: all four)\n"
    "                scan: scans, compactions, partition, block-size sweep; radix: sorts at 2^20, 2^24,\n"
    "                2^28 on seven key distributions; segmented: segmented scans at 2^26; spmv: every\n"
    "                .mtx in the matrix directory and three generated matrices\n"
    "  --runs N      timed runs per median, 20..100000 (default 25)\n"
    "  --max-log2 N  largest size 2^N, 10..30 (default 28). Sizes: the even powers of two from 2^10,\n"
    "                2^N, and 2^20-3, 2^28-3 up to 2^N\n"
    "  --all         also time the naive scan above 2^26 (O(n log n) work)\n"
    "  --sweep       block sizes 64..1024 for each project scan at 2^24 and 2^28 (default)\n"
    "  --no-sweep    skip the sweep\n"
    "  --matrix-dir DIR  where the .mtx files are (default: $SC_MATRIX_DIR, else .data/matrices, else\n"
    "                ../shared/data/matrices, from the current directory)\n"
    "  --csv FILE    also write every result as CSV, for bench/plot.py\n"
    "  --help        this text\n"
    "Exit code: 0 done; 1 a result differs from its anchor, or an error; 2 bad command line;\n"
    "77 no usable CUDA device (no NVIDIA driver or GPU found, or a driver too old): nothing measured.\n";

// Exit code when no CUDA device is usable: nothing was measured. 77 is the "skipped" code of
// CTest and Automake, and the harness's code for GPU tests skipped.
constexpr int kExitNoDevice = 77;

// Whole-string decimal integer in [lo, hi].
bool parse_int(const char *text, long lo, long hi, int &value) {
    char *end = nullptr;
    errno = 0;
    const long parsed = std::strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || parsed < lo || parsed > hi) return false;
    value = static_cast<int>(parsed);
    return true;
}

// "scan,spmv" -> {"scan", "spmv"}; an error for an empty list or an unknown part.
std::string parse_parts(const std::string &list, std::vector<std::string> &parts) {
    static const char *const known[] = {"scan", "radix", "segmented", "spmv"};
    parts.clear();
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string part = list.substr(start, comma - start);
        if (std::find(std::begin(known), std::end(known), part) == std::end(known))
            return "--only takes a comma-separated list of scan, radix, segmented, spmv; got '" + list + "'";
        parts.push_back(part);
        start = comma + 1;
    }
    return "";
}

// Fills `options` from argv; returns a one-line error, or "" when the command line is valid.
std::string parse_args(int argc, char **argv, bench::Options &options, bool &help) {
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") help = true;
        else if (flag == "--all") options.all = true;
        else if (flag == "--sweep") options.sweep = true;
        else if (flag == "--no-sweep") options.sweep = false;
        else if (flag == "--runs" || flag == "--max-log2" || flag == "--csv" || flag == "--only" ||
                 flag == "--matrix-dir") {
            if (i + 1 >= argc) return "option " + flag + " needs a value";
            const char *value = argv[++i];
            if (flag == "--csv") options.csv = value;
            else if (flag == "--matrix-dir") options.matrix_dir = value;
            else if (flag == "--only") {
                const std::string error = parse_parts(value, options.parts);
                if (!error.empty()) return error;
            }
            else if (flag == "--runs" && !parse_int(value, 20, 100000, options.runs))
                return std::string("--runs must be an integer in [20, 100000], got '") + value + "'";
            else if (flag == "--max-log2" && !parse_int(value, 10, 30, options.max_log2))
                return std::string("--max-log2 must be an integer in [10, 30], got '") + value + "'";
        } else {
            return "unknown option '" + flag + "' (try --help)";
        }
    }
    return "";
}

std::string fixed(double value, int decimals) {
    if (std::isnan(value)) return "";
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// Prints each measurement as a table row under a heading per operation, n and parameter, and writes
// it to the CSV as it comes, so a run cut short keeps what it measured. A point's anchors come
// before the others, so each row's ratio is to the fastest anchor measured so far at that point.
class Report {
public:
    explicit Report(std::FILE *csv) : csv_(csv) {}

    void add(const bench::Measurement &m) {
        const double gbps = m.bytes / (m.median_ms * 1e6);
        const double items_per_s = m.size.n / (m.median_ms * 1e-3);
        const double gflops = m.flops > 0 ? m.flops / (m.median_ms * 1e6) : NAN;
        if (m.operation == "copy") copy_gbps_[m.size.n] = gbps;
        // The sweep's rows compare with the anchors of the scan at the same n.
        const std::string anchor_operation = m.operation == "sweep_scan" ? "scan" : m.operation;
        const auto point = std::make_tuple(anchor_operation, m.size.n, m.param);
        if (m.anchor) {
            const auto [best, fresh] = anchor_ms_.emplace(point, m.median_ms);
            if (!fresh) best->second = std::min(best->second, m.median_ms);
        }
        // % of the copy at the same n, else of the largest copy: the limit for a memory-bound pass.
        const auto copy = copy_gbps_.count(m.size.n) ? copy_gbps_.find(m.size.n) : std::prev(copy_gbps_.end(), 1);
        const auto anchor = anchor_ms_.find(point);
        const double pct_of_copy = copy_gbps_.empty() || m.bytes <= 0 ? NAN : 100.0 * gbps / copy->second;
        const double ratio = anchor == anchor_ms_.end() ? NAN : anchor->second / m.median_ms;

        std::string heading = "== " + m.operation + ", n = " + m.size.label + " (" + std::to_string(m.size.n) + ")";
        if (!m.param.empty())
            heading += ", " + m.param + (m.operation == "partition" ? "% true" : m.operation == "compact" ? "% kept" : "");
        heading += " ==";
        if (heading != heading_) {
            std::printf("\n%s\n  %-16s %6s %12s %10s %10s %8s %10s %8s  %s\n", heading.c_str(), "implementation",
                        "block", "median ms", "GB/s", "% of copy", "Gitems/s", "GFLOP/s", "vs anchor", "ok");
            heading_ = heading;
        }
        std::printf("  %-16s %6s %12s %10s %10s %8s %10s %8s  %s\n", m.implementation.c_str(),
                    m.block_size ? std::to_string(m.block_size).c_str() : "-", fixed(m.median_ms, 4).c_str(),
                    fixed(gbps, 1).c_str(), fixed(pct_of_copy, 1).c_str(), fixed(items_per_s * 1e-9, 2).c_str(),
                    fixed(gflops, 1).c_str(), fixed(ratio, 2).c_str(), m.ok ? "yes" : "MISMATCH");
        std::fflush(stdout);

        if (csv_) {
            std::fprintf(csv_, "%s,%s,%zu,%s,%s,%s,%s,%s,%s,%s,%d,%d,%d\n", m.operation.c_str(),
                         m.implementation.c_str(), m.size.n, m.param.c_str(), fixed(m.median_ms, 6).c_str(),
                         fixed(gbps, 2).c_str(), fixed(items_per_s, 0).c_str(), fixed(gflops, 2).c_str(),
                         fixed(ratio, 4).c_str(), fixed(pct_of_copy, 2).c_str(), m.block_size, m.anchor ? 1 : 0,
                         m.ok ? 1 : 0);
            std::fflush(csv_);
        }
        if (!m.ok) ++mismatches_;
    }

    int mismatches() const { return mismatches_; }

private:
    std::FILE *csv_;
    std::map<std::size_t, double> copy_gbps_;                                      // by n
    std::map<std::tuple<std::string, std::size_t, std::string>, double> anchor_ms_;  // by operation, n, param
    std::string heading_;
    int mismatches_ = 0;
};

std::string version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

int run(const bench::Options &options) {
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> csv(nullptr, std::fclose);
    if (!options.csv.empty()) {
        csv.reset(std::fopen(options.csv.c_str(), "w"));
        if (!csv) throw std::runtime_error("cannot write " + options.csv + ": " + std::strerror(errno));
    }
    int device = 0, runtime = 0, driver = 0;
    cudaDeviceProp prop{};
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    SC_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    SC_CUDA_CHECK(cudaDriverGetVersion(&driver));
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));

    Report report(csv.get());
    const bench::Sink sink = [&report](const bench::Measurement &m) { report.add(m); };
    auto benchmark = std::make_unique<bench::Benchmark>(options, sink);
    const bench::Measurement copy = benchmark->largest_copy();

    const std::string machine = std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
                                std::to_string(prop.minor) + "), " + std::to_string(prop.multiProcessorCount) +
                                " SMs, L2 " + fixed(prop.l2CacheSize / 1048576.0, 1) + " MiB, " +
                                fixed(prop.totalGlobalMem / 1073741824.0, 1) + " GiB";
    const std::string software = "CUDA runtime " + version(runtime) + ", driver " + version(driver);
    std::printf("sc_bench on GPU %d: %s\n%s, %s\n", device, machine.c_str(), date, software.c_str());
    std::printf("copy bandwidth at n = %s: %.1f GB/s (cudaMemcpyAsync device to device, %.2f GB moved)\n",
                copy.size.label.c_str(), copy.bytes / (copy.median_ms * 1e6), copy.bytes / 1e9);
    std::printf("median of %d runs after %d warm-ups; runs under %zu MiB rotate through copies of their data\n",
                options.runs, bench::kWarmups, bench::kRotateBelowBytes >> 20);
    if (csv) {
        std::fprintf(csv.get(), "# gpu: %s, %s\n# %s; %s; median of %d runs\n", prop.name, date, machine.c_str(),
                     software.c_str(), options.runs);
        std::fprintf(csv.get(), "operation,implementation,n,param,median_ms,gbps,items_per_s,gflops,ratio_to_anchor,pct_of_copy,block_size,anchor,ok\n");
    }

    if (bench::runs_part(options, "scan")) {
        benchmark->run_sizes();
        if (options.sweep) benchmark->run_sweep();
    } else {
        sink(copy);  // the bandwidth limit that the other parts' rows are compared with
    }
    benchmark.reset();  // its pools: the other parts allocate their own
    if (bench::runs_part(options, "radix")) bench::run_radix(options, sink);
    if (bench::runs_part(options, "segmented")) bench::run_segmented(options, sink);
    if (bench::runs_part(options, "spmv")) bench::run_spmv(options, sink);
    if (report.mismatches() > 0) {
        std::fprintf(stderr, "sc_bench: %d results differ from their anchor's (rows marked MISMATCH, ok=0)\n",
                     report.mismatches());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    bench::Options options;
    bool help = false;
    const std::string error = parse_args(argc, argv, options, help);
    if (!error.empty()) {
        std::fprintf(stderr, "sc_bench: %s\n", error.c_str());
        return 2;
    }
    if (help) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    const StreamCompaction::DeviceStatus device = StreamCompaction::probe_device();
    if (!device.usable) {
        std::fprintf(stderr, "sc_bench: %s\n", device.reason.c_str());
        return kExitNoDevice;
    }
    try {
        return run(options);
    } catch (const std::exception &e) {  // cuda_error, and thrust's system_error, included
        std::fprintf(stderr, "sc_bench: %s\n", e.what());
        return 1;
    }
}

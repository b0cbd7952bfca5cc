#pragma once
// sc_bench's command line, shared with the anchor programs (bench/anchors/), which take the same
// flags so that one set of arguments drives every program of a run. Plain C++: nothing here pulls
// in CUDA or CCCL headers.
#include "parts.h"

#include <stream_compaction/support/device_probe.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

namespace bench {

// sc_bench's parts, in the order they run (--only picks some): parts.h's names, each once.
inline const std::vector<std::string> kPartNames = [] {
    std::vector<std::string> names;
#define SC_BENCH_PART_NAME(name, runner, help) \
    if (names.empty() || names.back() != name) names.push_back(name);
    SC_BENCH_PARTS(SC_BENCH_PART_NAME)
#undef SC_BENCH_PART_NAME
    return names;
}();

struct Options {
    int runs = 25;        // timed runs per median
    int max_log2 = 28;    // largest size 2^max_log2
    bool all = false;     // also the naive scan above 2^26
    bool sweep = true;    // block-size sweep after the size loop
    std::string csv;      // CSV path; empty: none
    std::vector<std::string> parts = kPartNames;  // what to run (--only)
    std::string matrix_dir;  // SpMV's and BFS's .mtx files (--matrix-dir); empty: the default places
};

namespace options_detail {

// Whole-string decimal integer in [lo, hi].
inline bool parse_int(const char *text, long lo, long hi, int &value) {
    char *end = nullptr;
    errno = 0;
    const long parsed = std::strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || parsed < lo || parsed > hi) return false;
    value = static_cast<int>(parsed);
    return true;
}

// "scan,spmv" -> {"scan", "spmv"}; an error for an empty list or an unknown part.
inline std::string parse_parts(const std::string &list, std::vector<std::string> &parts) {
    parts.clear();
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string part = list.substr(start, comma - start);
        if (std::find(kPartNames.begin(), kPartNames.end(), part) == kPartNames.end()) {
            std::string names;
            for (const std::string &name : kPartNames) names += (names.empty() ? "" : ", ") + name;
            return "--only takes a comma-separated list of " + names + "; got '" + list + "'";
        }
        parts.push_back(part);
        start = comma + 1;
    }
    return "";
}

}  // namespace options_detail

// Fills `options` from argv; returns a one-line error, or "" when the command line is valid.
inline std::string parse_args(int argc, char **argv, Options &options, bool &help) {
    using options_detail::parse_int;
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
                const std::string error = options_detail::parse_parts(value, options.parts);
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

// The main() of a benchmark program `name`: reads the flags with `parse(argc, argv, options, help)`
// (exit 2 on a bad one, `usage` for --help), refuses without a usable CUDA device (exit 77, CTest's
// and Automake's "skipped", as the harness's: nothing measured), then returns run(options), an
// exception from it (cuda_error, thrust's system_error, nccl_error) reported in one line as 1.
template <class ProgramOptions, class Run>
int program_main(const char *name, const char *usage, int argc, char **argv,
                 std::string (*parse)(int, char **, ProgramOptions &, bool &), Run run) {
    ProgramOptions options;
    bool help = false;
    const std::string error = parse(argc, argv, options, help);
    if (!error.empty()) {
        std::fprintf(stderr, "%s: %s\n", name, error.c_str());
        return 2;
    }
    if (help) {
        std::fputs(usage, stdout);
        return 0;
    }
    const StreamCompaction::DeviceStatus device = StreamCompaction::probe_device();
    if (!device.usable) {
        std::fprintf(stderr, "%s: %s\n", name, device.reason.c_str());
        return 77;
    }
    if (!device.no_code_for_device.empty()) {
        std::fprintf(stderr, "%s: %s\n", name, device.no_code_for_device.c_str());
        return StreamCompaction::kExitNoCodeForDevice;
    }
    try {
        return run(options);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", name, e.what());
        return 1;
    }
}

// sc_bench's and its anchor programs' main(): their common flags.
template <class Run>
int program_main(const char *name, const char *usage, int argc, char **argv, Run run) {
    return program_main<Options>(name, usage, argc, argv, parse_args, run);
}

}  // namespace bench

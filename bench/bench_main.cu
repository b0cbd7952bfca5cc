// sc_bench: times every scan, compaction, partition and reduction of the project against CUB, Thrust and a
// device-to-device copy, on one GPU, and reports a table on stdout and optionally a CSV.
#include "cases.h"
#include "run_header.h"


#include <cub/version.cuh>  // the toolkit's CCCL, which every "cub" and "thrust" row runs

#include <cstdio>
#include <memory>
#include <string>

namespace {

// "  name: help" wrapped at 100 columns, continuation lines indented as the flags' texts are.
std::string part_help(const std::string &name, const std::string &help) {
    const std::string indent(16, ' ');
    std::string text, line = indent + name + ":";
    std::size_t start = 0;
    while (start < help.size()) {
        std::size_t end = help.find(' ', start);
        if (end == std::string::npos) end = help.size();
        const std::string word = help.substr(start, end - start);
        if (line.size() + 1 + word.size() > 100) {
            text += line + "\n";
            line = indent + "  " + word;
        } else {
            line += " " + word;
        }
        start = end + 1;
    }
    return text + line + "\n";
}

// --help: the parts' lines come from parts.h.
std::string usage() {
    std::string text =
        "usage: sc_bench [--only PARTS] [--runs N] [--max-log2 N] [--all] [--sweep | --no-sweep]\n"
        "                [--matrix-dir DIR] [--csv FILE] [--help]\n"
        "Times the project's primitives against CUB, Thrust, cuSPARSE and a device-to-device copy on the\n"
        "same inputs in one process: CUDA events, median of N runs after 3 warm-ups.\n"
        "  --only PARTS  comma-separated subset of the parts below (default: all)\n";
#define SC_BENCH_PART_HELP(name, runner, help) \
    if (*help) text += part_help(name, help);
    SC_BENCH_PARTS(SC_BENCH_PART_HELP)
#undef SC_BENCH_PART_HELP
    return text +
           "  --runs N      timed runs per median, 20..100000 (default 25)\n"
           "  --max-log2 N  largest size 2^N, 10..30 (default 28). Sizes: the even powers of two from 2^10,\n"
           "                2^N, and 2^20-3, 2^28-3 up to 2^N\n"
           "  --all         also time the naive scan above 2^26 (O(n log n) work)\n"
           "  --sweep       block sizes 64..1024 for each project scan at 2^24 and 2^28 (default)\n"
           "  --no-sweep    skip the sweep\n"
           "  --matrix-dir DIR  where the .mtx files are (default: $SC_MATRIX_DIR, else .data/matrices, else\n"
           "                ../shared/data/matrices, from the current directory)\n"
           "  --csv FILE    also write every result as CSV, for bench/plot/plot.py\n"
           "  --help        this text\n"
           "The \"vs best\" column: the fastest library (cub, thrust, cusparse_*) measured at the same point / this\n"
           "row's time (> 1: faster); bench/plot/anchors.py recomputes it over the rows of an anchor program\n"
           "(sc_bench_cccl_next: another CCCL's CUB) merged into the same CSV.\n"
           "Exit code: 0 done; 1 a result differs from its CPU reference or its anchor, or an error; 2 bad\n"
           "command line; 4 this binary holds no GPU code for the device (built for other CUDA architectures:\n"
           "the line names them and the configure flag); 77 no usable CUDA device (no NVIDIA driver or GPU\n"
           "found, or a driver too old): nothing measured in either case.\n";
}

int run(const bench::Options &options) {
    const bench::CsvFile csv = bench::start_report(
        "sc_bench", options,
        "CUB " + bench::major_minor(CUB_VERSION, 100000, 100) + "." + std::to_string(CUB_VERSION % 100) +
            " (the toolkit's CCCL: \"cub\")");
    bench::Report report(csv.get());
    const bench::Sink sink = [&report](const bench::Measurement &m) { report.add(m); };
    auto benchmark = std::make_unique<bench::Benchmark>(options, sink);
    const bench::Measurement copy = benchmark->largest_copy();
    std::printf("copy bandwidth at n = %s: %.1f GB/s (cudaMemcpyAsync device to device, %.2f GB moved)\n",
                copy.size.label.c_str(), copy.bytes / (copy.median_ms * 1e6), copy.bytes / 1e9);

    if (bench::runs_part(options, "scan")) {
        benchmark->run_sizes();
        if (options.sweep) benchmark->run_sweep();
    } else {
        sink(copy);  // the bandwidth limit that the other parts' rows are compared with
    }
    benchmark.reset();  // its pools: the other parts allocate their own
#define SC_BENCH_PART_RUN(name, runner, help) \
    if (bench::runs_part(options, name)) bench::runner(options, sink);
    SC_BENCH_PARTS(SC_BENCH_PART_RUN)
#undef SC_BENCH_PART_RUN
    if (report.mismatches() > 0) {
        std::fprintf(stderr, "sc_bench: %d results differ from their anchor's (rows marked MISMATCH, ok=0)\n",
                     report.mismatches());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    const std::string text = usage();
    return bench::program_main("sc_bench", text.c_str(), argc, argv, run);
}

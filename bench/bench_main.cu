// sc_bench: times every scan, compaction, partition and reduction of the project against CUB, Thrust and a
// device-to-device copy, on one GPU, and reports a table on stdout and optionally a CSV.
#include "cases.h"
#include "run_header.h"


#include <cub/version.cuh>  // the toolkit's CCCL, which every "cub" and "thrust" row runs

#include <cstdio>
#include <memory>
#include <string>

namespace {

const char kUsage[] =
    "usage: sc_bench [--only PARTS] [--runs N] [--max-log2 N] [--all] [--sweep | --no-sweep]\n"
    "                [--matrix-dir DIR] [--csv FILE] [--help]\n"
    "Times the project's primitives against CUB, Thrust, cuSPARSE and a device-to-device copy on the\n"
    "same inputs in one process: CUDA events, median of N runs after 3 warm-ups.\n"
    "  --only PARTS  comma-separated subset of scan,radix,segmented,spmv,reduce,by-key,merge,load-balance,\n"
    "                segmented-sort,bfs,neighbors (default: all)\n"
    "                scan: scans (int32; int64, float, double exclusive sums), compactions, partitions,\n"
    "                block-size sweep; radix: sorts at 2^20, 2^24,\n"
    "                2^28 on seven key distributions, and of int64 and double keys at 2^20, 2^24,\n"
    "                2^27; segmented: segmented scans at 2^26; spmv: every\n"
    "                .mtx in the matrix directory and three generated matrices; reduce: the four\n"
    "                reduction strategies and the maximum segment sum of int32 against CUB's\n"
    "                DeviceReduce (sum and max) at the scan part's sizes, GB/s of input read\n"
    "                by-key: reduce-by-key, unique, run-length encode (mean runs 4, 64), even\n"
    "                histogram (256, 4096 bins), 2^10 .. 2^N\n"
    "                merge: sorted search (against thrust::lower_bound), merge keys and pairs\n"
    "                (against cub::DeviceMerge), 2^20 .. 2^N; the inner join of two 2^24-key arrays\n"
    "                load-balance: interval expand (against Thrust's upper_bound + gather) and the\n"
    "                load-balancing search, uniform and power-law segments, 2^24 .. 2^N outputs\n"
    "                segmented-sort: keys and pairs at 2^24 in tiny, mixed and huge segments, against\n"
    "                cub::DeviceSegmentedSort\n"
    "                bfs: breadth-first search from vertex 0 on luxembourg_osm and soc-Epinions1 (matrix\n"
    "                directory) and a generated power-law graph (2^22 vertices, about 2^26 edges),\n"
    "                against the CPU BFS on one thread and on every core; an empty kernel's launch latency\n"
    "                neighbors: the 3 nearest towns in their state of each of 2^20 towns in 16,384 states,\n"
    "                against the CPU on every core\n"
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
    if (bench::runs_part(options, "scan")) bench::run_scan_types(options, sink);
    if (bench::runs_part(options, "radix")) {
        bench::run_radix(options, sink);
        bench::run_radix_wide(options, sink);
    }
    if (bench::runs_part(options, "segmented")) bench::run_segmented(options, sink);
    if (bench::runs_part(options, "spmv")) bench::run_spmv(options, sink);
    if (bench::runs_part(options, "reduce")) bench::run_reduce(options, sink);
    if (bench::runs_part(options, "by-key")) bench::run_by_key(options, sink);
    if (bench::runs_part(options, "merge")) bench::run_merge(options, sink);
    if (bench::runs_part(options, "load-balance")) bench::run_load_balance(options, sink);
    if (bench::runs_part(options, "segmented-sort")) bench::run_segmented_sort(options, sink);
    if (bench::runs_part(options, "bfs")) bench::run_bfs(options, sink);
    if (bench::runs_part(options, "neighbors")) bench::run_neighbors(options, sink);
    if (report.mismatches() > 0) {
        std::fprintf(stderr, "sc_bench: %d results differ from their anchor's (rows marked MISMATCH, ok=0)\n",
                     report.mismatches());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) { return bench::program_main("sc_bench", kUsage, argc, argv, run); }

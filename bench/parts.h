#pragma once
// sc_bench's parts, in the order they run: the one list a new family's benchmark is added to (its
// cases/<family>.cu is picked up by bench/CMakeLists.txt's glob). Each entry is
//   X(name, runner, help)
// where `name` is what --only takes, `runner` is bench::runner(const Options &, const Sink &) in
// cases/ (entries of one name run one after the other; the scan part's Benchmark class, which
// also measures the copy that every row is compared with, runs first, in bench_main.cu), and
// `help` is its line of --help (empty for a second runner of a name). Plain C++: options.h, which
// the anchor programs share, takes the names from here.
#define SC_BENCH_PARTS(X)                                                                                        \
    X("scan", run_scan_types,                                                                                    \
      "scans (int32; int64, float, double exclusive sums), compactions, partitions, block-size sweep")           \
    X("radix", run_radix, "sorts at 2^20, 2^24, 2^28 on seven key distributions, and of int64, double and "     \
                          "__half keys at 2^20, 2^24, 2^27")                                                     \
    X("radix", run_radix_key_types, "")                                                                          \
    X("segmented", run_segmented, "segmented scans and reductions at 2^26")                                      \
    X("spmv", run_spmv, "every .mtx in the matrix directory and three generated matrices")                       \
    X("reduce", run_reduce,                                                                                      \
      "the four reduction strategies and the maximum segment sum of int32 against CUB's DeviceReduce (sum and "  \
      "max) at the scan part's sizes, GB/s of input read")                                                       \
    X("by-key", run_by_key,                                                                                      \
      "reduce-by-key, unique, run-length encode (mean runs 4, 64), even histogram (256, 4096 bins), "           \
      "2^10 .. 2^N")                                                                                             \
    X("merge", run_merge,                                                                                        \
      "sorted search (against thrust::lower_bound), merge keys and pairs (against cub::DeviceMerge), "          \
      "2^20 .. 2^N; the inner join of two 2^24-key arrays")                                                      \
    X("load-balance", run_load_balance,                                                                          \
      "interval expand (against Thrust's upper_bound + gather) and the load-balancing search, uniform and "      \
      "power-law segments, 2^24 .. 2^N outputs")                                                                 \
    X("segmented-sort", run_segmented_sort,                                                                      \
      "keys and pairs at 2^24 in tiny, mixed and huge segments, against cub::DeviceSegmentedSort")               \
    X("bfs", run_bfs,                                                                                            \
      "breadth-first search from vertex 0 on luxembourg_osm and soc-Epinions1 (matrix directory) and a "         \
      "generated power-law graph (2^22 vertices, about 2^26 edges), against the CPU BFS on one thread and on "   \
      "every core; an empty kernel's launch latency")                                                            \
    X("neighbors", run_neighbors,                                                                                \
      "the 3 nearest towns in their state of each of 2^20 towns in 16,384 states, against the CPU on every "     \
      "core")

#pragma once
// The harness's test groups: each prints its tests in the classic format through the Harness,
// which skips GPU tests without a device and counts the results. --only selects groups by name.
#include "harness.h"

#include <stream_compaction/io/matrix_market.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

extern long long SIZE;  // the power-of-two tests' size (main.cpp; --size)
extern long long NPOT;  // SIZE - 3
extern int BFS_SOURCE;  // the bfs group's source vertex (main.cpp; --bfs-source)

// Names --only accepts; a test belongs to one of them.
inline const std::vector<std::string> kTestGroups = {"cpu", "naive", "efficient", "thrust", "shared", "single-pass", "radix",
                                                     "segmented", "spmv", "reduce", "by-key", "distributed",
                                                     "merge", "load-balance", "bfs", "neighbors"};

void scanTests(Harness &h, std::mt19937 &rng);        // scan_tests.cpp
void compactionTests(Harness &h, std::mt19937 &rng);  // scan_tests.cpp
void partitionTests(Harness &h, std::mt19937 &rng);   // scan_tests.cpp
void radixTests(Harness &h, std::mt19937 &rng);       // radix_tests.cpp
void segmentedTests(Harness &h, std::mt19937 &rng);   // segmented_tests.cpp
void reduceTests(Harness &h, std::mt19937 &rng);      // reduce_tests.cpp
void byKeyTests(Harness &h, std::mt19937 &rng);       // by_key_tests.cpp
void mergeTests(Harness &h, std::mt19937 &rng);       // merge_tests.cpp
void loadBalanceTests(Harness &h, std::mt19937 &rng);  // load_balance_tests.cpp
void bfsTests(Harness &h, std::mt19937 &rng);          // bfs_tests.cu
void neighborsTests(Harness &h, std::mt19937 &rng);    // neighbors_tests.cu
// The vertices of the bfs group's generated graph at the current SIZE.
int bfsGraphVertices();                                // bfs_tests.cu
// SpMV on `fileMatrix` (already read from `matrixPath` and validated by main), or, when it is
// empty, on a generated matrix.
void spmvTests(Harness &h, std::mt19937 &rng, const std::optional<StreamCompaction::CsrMatrix<double>> &fileMatrix,
               const std::string &matrixPath);  // spmv_tests.cpp
// The NCCL primitives on every visible GPU (distributed_tests.cu); in a build without NCCL nothing,
// the group being listed in groupsNotBuilt() (distributed_not_built.cpp).
void distributedTests(Harness &h, std::mt19937 &rng);

#pragma once
// The harness's test groups. Each tests file registers its runner once, at namespace scope:
//   const RegisterTests kRadix(40, {"radix"}, [](Harness &h, const GroupContext &c) { radixTests(h, c.rng); });
// and that is all a new family adds to the harness (the file itself is picked up by src/CMakeLists.txt's
// glob): main runs the runners by rank, and --only accepts the groups they name. Each runner prints
// its tests in the classic format through the Harness, which skips GPU tests without a device and
// counts the results.
#include "harness.h"

#include <stream_compaction/io/matrix_market.h>

#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

extern long long SIZE;  // the power-of-two tests' size (main.cpp; --size)
extern long long NPOT;  // SIZE - 3
extern int BFS_SOURCE;  // the bfs group's source vertex (main.cpp; --bfs-source)

// What every runner gets: the run's random numbers, and the --matrix file (read and validated by
// main; empty without --matrix) with its path.
struct GroupContext {
    std::mt19937 &rng;
    const std::optional<StreamCompaction::CsrMatrix<double>> &fileMatrix;
    const std::string &matrixPath;
};

struct TestRunner {
    int rank;                         // runners run in increasing rank (the order of the output)
    std::vector<std::string> groups;  // the --only names of the tests it prints
    std::function<void(Harness &, const GroupContext &)> run;
};

// Every registered runner, by rank. Complete before main starts (static initialization).
const std::vector<TestRunner> &testRunners();

// The groups of every runner, by rank, each once: the names --only accepts.
std::vector<std::string> testGroupNames();

struct RegisterTests {
    RegisterTests(int rank, std::vector<std::string> groups, std::function<void(Harness &, const GroupContext &)> run);
};

// The vertices of the bfs group's generated graph at the current SIZE (bfs_tests.cu): main checks
// --bfs-source against it.
int bfsGraphVertices();

#pragma once
// CPU breadth-first search, the references of the GPU BFS (issue #15): one thread, and every core.
// A graph is a CSR adjacency: vertex v's out-neighbours are neighbors[row_offsets[v] ..
// row_offsets[v + 1]) (a square matrix's pattern: entry (v, w) is the edge v -> w). Self-loops and
// duplicate edges are allowed; they change nothing.
#include <vector>

namespace StreamCompaction {
namespace CPU {

// The BFS level of every vertex from `source`: 0 for the source, d for a vertex whose shortest
// path from it has d edges, -1 when none reaches it.
// Throws std::invalid_argument for vertices < 0, a null array with edges to read, or a source
// outside [0, vertices); row_offsets must be non-decreasing from 0 and neighbours in range
// (validate_csr checks a matrix read from a file).
std::vector<int> bfsLevels(int vertices, const int *row_offsets, const int *neighbors, int source);

// The same levels, level by level over `threads` threads (0: every core the machine has): the
// frontier is split in equal chunks, a vertex is claimed by the first thread to set its level
// (compare-and-swap), and the threads wait for each other at the end of a level. Frontiers
// smaller than kSerialFrontier are expanded by one thread, level after level, while the others
// wait once: thin levels cost no hand-offs.
std::vector<int> bfsLevelsParallel(int vertices, const int *row_offsets, const int *neighbors, int source,
                                   int threads = 0);

// Frontiers below this many vertices are expanded by one thread (bfsLevelsParallel).
constexpr int kSerialFrontier = 4096;

}  // namespace CPU
}  // namespace StreamCompaction

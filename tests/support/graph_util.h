#pragma once
// Small graphs for the BFS tests (CPU and GPU): a CSR adjacency from an edge list.
#include <algorithm>
#include <utility>
#include <vector>

struct Graph {
    int vertices = 0;
    std::vector<int> row_offsets, neighbors;  // vertex v's neighbours: neighbors[row_offsets[v] .. row_offsets[v + 1])
};

// Edges in any order; duplicates and self-loops kept.
inline Graph fromEdges(int vertices, std::vector<std::pair<int, int>> edges) {
    std::stable_sort(edges.begin(), edges.end(), [](auto a, auto b) { return a.first < b.first; });
    Graph g{vertices, std::vector<int>(vertices + 1, 0), {}};
    for (const auto &[from, to] : edges) {
        ++g.row_offsets[from + 1];
        g.neighbors.push_back(to);
    }
    for (int v = 0; v < vertices; ++v) g.row_offsets[v + 1] += g.row_offsets[v];
    return g;
}

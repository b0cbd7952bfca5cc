#pragma once
// A square matrix's pattern as a directed graph, for breadth-first search (issue #15): entry (v, w)
// is the edge v -> w; a symmetric file (read with both triangles) gives both directions.
#include <stream_compaction/io/matrix_market.h>

#include <stdexcept>
#include <string>

namespace StreamCompaction {

// Throws std::invalid_argument naming the matrix (`name`) unless it is a valid CSR matrix
// (validate_csr) with as many columns as rows: a graph's adjacency maps vertices to vertices.
template <class V, class Offset>
void require_adjacency(const CsrMatrix<V, Offset> &matrix, const std::string &name) {
    validate_csr(matrix);
    if (matrix.rows != matrix.cols)
        throw std::invalid_argument(name + ": a graph's adjacency matrix must be square, this one is " +
                                    std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols));
}

}  // namespace StreamCompaction

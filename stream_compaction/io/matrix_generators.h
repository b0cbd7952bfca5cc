#pragma once
// Generated CSR test matrices: finite-difference Poisson stencils (regular rows) and power-law
// matrices (Pareto-distributed row lengths: a few very long rows among many short ones).
#include <stream_compaction/io/matrix_market.h>

#include <cstdint>

namespace StreamCompaction {

// The 5-point Laplacian on a grid x grid mesh: grid^2 rows, 4 on the diagonal, -1 for each
// neighbour inside the mesh. Throws std::invalid_argument if grid < 0 or grid^2 overflows int.
CsrMatrix<double> poisson_2d(int grid);

// The 7-point Laplacian on a grid^3 mesh: 6 on the diagonal, -1 for each neighbour.
CsrMatrix<double> poisson_3d(int grid);

// rows x cols with row lengths drawn from a Pareto distribution: length = floor(min_length * U^(-1/alpha))
// capped at cols (U uniform in (0, 1]); smaller alpha means heavier skew. Columns are distinct and
// ascending within a row, values uniform in [-1, 1). The same seed gives the same matrix.
// Throws std::invalid_argument for bad shapes or parameters, or more than 2^31 - 1 entries.
CsrMatrix<double> power_law(int rows, int cols, double alpha, int min_length, std::uint64_t seed);

}  // namespace StreamCompaction

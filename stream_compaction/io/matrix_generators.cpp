#include <stream_compaction/io/matrix_generators.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <random>
#include <string>

namespace StreamCompaction {

namespace {

// Appends row entries (column, value) in ascending column order, then closes the row.
struct RowBuilder {
    CsrMatrix<double> &matrix;
    void add(int col, double value) {
        matrix.column_indices.push_back(col);
        matrix.values.push_back(value);
    }
    void endRow() { matrix.row_offsets.push_back(static_cast<int>(matrix.column_indices.size())); }
};

// rows = grid^dimensions, checked against int and the entry count against 2^31 - 1.
int stencilRows(const char *name, int grid, int dimensions, int entriesPerRow) {
    if (grid < 0) throw std::invalid_argument(std::string(name) + ": negative grid size");
    double rows = std::pow(double(grid), dimensions);
    if (rows * entriesPerRow > double(INT_MAX))
        throw std::invalid_argument(std::string(name) + ": grid " + std::to_string(grid) + " is too large for 32-bit offsets");
    return static_cast<int>(rows);
}

}  // namespace

CsrMatrix<double> poisson_2d(int grid) {
    const int rows = stencilRows("poisson_2d", grid, 2, 5);
    CsrMatrix<double> matrix;
    matrix.rows = matrix.cols = rows;
    matrix.row_offsets.reserve(rows + 1);
    matrix.column_indices.reserve(std::size_t(rows) * 5);
    matrix.values.reserve(std::size_t(rows) * 5);
    RowBuilder builder{matrix};
    for (int y = 0; y < grid; ++y)
        for (int x = 0; x < grid; ++x) {
            const int r = y * grid + x;
            if (y > 0) builder.add(r - grid, -1);
            if (x > 0) builder.add(r - 1, -1);
            builder.add(r, 4);
            if (x + 1 < grid) builder.add(r + 1, -1);
            if (y + 1 < grid) builder.add(r + grid, -1);
            builder.endRow();
        }
    return matrix;
}

CsrMatrix<double> poisson_3d(int grid) {
    const int rows = stencilRows("poisson_3d", grid, 3, 7);
    const int plane = grid * grid;
    CsrMatrix<double> matrix;
    matrix.rows = matrix.cols = rows;
    matrix.row_offsets.reserve(rows + 1);
    matrix.column_indices.reserve(std::size_t(rows) * 7);
    matrix.values.reserve(std::size_t(rows) * 7);
    RowBuilder builder{matrix};
    for (int z = 0; z < grid; ++z)
        for (int y = 0; y < grid; ++y)
            for (int x = 0; x < grid; ++x) {
                const int r = z * plane + y * grid + x;
                if (z > 0) builder.add(r - plane, -1);
                if (y > 0) builder.add(r - grid, -1);
                if (x > 0) builder.add(r - 1, -1);
                builder.add(r, 6);
                if (x + 1 < grid) builder.add(r + 1, -1);
                if (y + 1 < grid) builder.add(r + grid, -1);
                if (z + 1 < grid) builder.add(r + plane, -1);
                builder.endRow();
            }
    return matrix;
}

CsrMatrix<double> power_law(int rows, int cols, double alpha, int min_length, std::uint64_t seed) {
    if (rows < 0 || cols < 0) throw std::invalid_argument("power_law: negative dimensions");
    if (!(alpha > 0) || min_length < 0) throw std::invalid_argument("power_law: need alpha > 0 and min_length >= 0");
    const auto tooMany = [](long long entries) {
        return std::invalid_argument("power_law: " + std::to_string(entries) + " or more entries, more than 2^31 - 1");
    };
    if (static_cast<long long>(rows) * std::min(min_length, cols) > INT_MAX)
        throw tooMany(static_cast<long long>(rows) * std::min(min_length, cols));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> column(0, cols > 0 ? cols - 1 : 0);
    std::uniform_real_distribution<double> value(-1.0, 1.0);

    // Lengths first, so that the total is checked before anything large is allocated.
    std::vector<int> lengths(rows);
    long long total = 0;
    for (int &length : lengths) {
        const double u = 1.0 - unit(rng);  // (0, 1]
        // pow may overflow to infinity for a small alpha; 0 * infinity would be NaN, whose
        // conversion to int is undefined, so a zero minimum length is handled apart.
        const double pareto = min_length == 0 ? 0.0 : std::floor(min_length * std::pow(u, -1.0 / alpha));
        length = static_cast<int>(std::min(pareto, double(cols)));
        total += length;
        if (total > INT_MAX) throw tooMany(total);
    }

    CsrMatrix<double> matrix;
    matrix.rows = rows;
    matrix.cols = cols;
    matrix.row_offsets.reserve(std::size_t(rows) + 1);
    matrix.column_indices.reserve(total);
    matrix.values.reserve(total);
    RowBuilder builder{matrix};
    std::vector<int> picked;
    for (int length : lengths) {
        if (2LL * length >= cols) {
            // Long rows: selection sampling, each column kept with the probability that leaves
            // exactly `length` of them.
            int needed = length;
            for (int c = 0; c < cols && needed > 0; ++c)
                if (unit(rng) * (cols - c) < needed) {
                    builder.add(c, value(rng));
                    --needed;
                }
        } else {
            picked.clear();
            while (static_cast<int>(picked.size()) < length) {
                for (int k = static_cast<int>(picked.size()); k < length; ++k) picked.push_back(column(rng));
                std::sort(picked.begin(), picked.end());
                picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
            }
            for (int c : picked) builder.add(c, value(rng));
        }
        builder.endRow();
    }
    return matrix;
}

}  // namespace StreamCompaction

#pragma once
// Host sparse matrices: the CSR type the SpMV and the tests share, its validation, and a reader of
// Matrix Market coordinate files. Plain C++: no CUDA here.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace StreamCompaction {

// Compressed sparse rows: row r's entries are column_indices[k], values[k] for k in
// [row_offsets[r], row_offsets[r + 1]). 32-bit row and column indices; row offsets of 32 bits
// (nnz <= 2^31 - 1, the default) or 64 bits (CsrMatrix<V, std::int64_t>, any nnz).
template <class V, class Offset = int>
struct CsrMatrix {
    static_assert(std::is_same_v<Offset, int> || std::is_same_v<Offset, std::int64_t>,
                  "row offsets are int or std::int64_t");
    int rows = 0;
    int cols = 0;
    std::vector<Offset> row_offsets{0};  // rows + 1 entries
    std::vector<int> column_indices;
    std::vector<V> values;

    std::size_t nnz() const { return column_indices.size(); }
};

// Throws std::invalid_argument naming the first broken rule: negative dimensions, row_offsets
// not of rows + 1 entries, first offset not 0, offsets decreasing, more nonzeros than 32-bit
// offsets can count, last offset not equal to the number of column indices and of values, a
// column index outside [0, cols).
template <class V, class Offset>
void validate_csr(const CsrMatrix<V, Offset> &matrix);

// The same matrix with values converted to U.
template <class U, class V, class Offset>
CsrMatrix<U, Offset> convert_values(const CsrMatrix<V, Offset> &matrix) {
    CsrMatrix<U, Offset> out;
    out.rows = matrix.rows;
    out.cols = matrix.cols;
    out.row_offsets = matrix.row_offsets;
    out.column_indices = matrix.column_indices;
    out.values.assign(matrix.values.begin(), matrix.values.end());
    return out;
}

// The same matrix with 64-bit row offsets.
template <class V>
CsrMatrix<V, std::int64_t> widen_offsets(const CsrMatrix<V> &matrix) {
    CsrMatrix<V, std::int64_t> out;
    out.rows = matrix.rows;
    out.cols = matrix.cols;
    out.row_offsets.assign(matrix.row_offsets.begin(), matrix.row_offsets.end());
    out.column_indices = matrix.column_indices;
    out.values = matrix.values;
    return out;
}

// A malformed Matrix Market file: what() is "path:line: message".
class matrix_market_error : public std::runtime_error {
public:
    matrix_market_error(const std::string &path, long long line, const std::string &message)
        : std::runtime_error(path + ":" + std::to_string(line) + ": " + message), line_(line) {}
    long long line() const noexcept { return line_; }

private:
    long long line_;
};

// Reads "%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>": pattern
// entries are 1; a symmetric file's entries (on or below the diagonal, as the format requires) are
// mirrored. Entries are sorted by column within each row (duplicates kept, in file order).
// Throws matrix_market_error for a file that cannot be opened (line 0), a bad or unsupported
// header, a missing or bad size line, an entry that does not parse, an index out of range, an
// entry above the diagonal of a symmetric matrix, or fewer or more entries than the size line states.
CsrMatrix<double> read_matrix_market(const std::string &path);

}  // namespace StreamCompaction

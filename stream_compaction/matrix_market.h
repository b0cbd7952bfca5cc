#pragma once
// Host sparse matrices: the CSR type the SpMV and the tests share, its validation, and a reader of
// Matrix Market coordinate files. Plain C++: no CUDA here.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace StreamCompaction {

// Compressed sparse rows: row r's entries are column_indices[k], values[k] for k in
// [row_offsets[r], row_offsets[r + 1]). 32-bit indices and offsets (nnz <= 2^31 - 1).
template <class V>
struct CsrMatrix {
    int rows = 0;
    int cols = 0;
    std::vector<int> row_offsets{0};  // rows + 1 entries
    std::vector<int> column_indices;
    std::vector<V> values;

    std::size_t nnz() const { return column_indices.size(); }
};

// Throws std::invalid_argument naming the first broken rule: negative dimensions, row_offsets
// not of rows + 1 entries, first offset not 0, offsets decreasing, last offset not equal to the
// number of column indices and of values, a column index outside [0, cols).
template <class V>
void validate_csr(const CsrMatrix<V> &matrix);

// The same matrix with values converted to U.
template <class U, class V>
CsrMatrix<U> convert_values(const CsrMatrix<V> &matrix) {
    CsrMatrix<U> out;
    out.rows = matrix.rows;
    out.cols = matrix.cols;
    out.row_offsets = matrix.row_offsets;
    out.column_indices = matrix.column_indices;
    out.values.assign(matrix.values.begin(), matrix.values.end());
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

#pragma once
// Host sparse matrices: the CSR type the SpMV and the tests share, its validation, and a reader of
// Matrix Market coordinate files. Plain C++: no CUDA here.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
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
// column index outside [0, cols). Any value type: only the sizes and indices are checked.
namespace detail {
template <class Offset>
void validate_csr_structure(int rows, int cols, const std::vector<Offset> &row_offsets,
                            const std::vector<int> &column_indices, std::size_t values);
}  // namespace detail
template <class V, class Offset>
void validate_csr(const CsrMatrix<V, Offset> &matrix) {
    detail::validate_csr_structure(matrix.rows, matrix.cols, matrix.row_offsets, matrix.column_indices,
                                   matrix.values.size());
}

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

// Why a Matrix Market file could not be read: malformed or unsupported content, a file that cannot
// be opened or read, a matrix past the reader's limits, or memory that ran out. what() is
// "path:line: message" (line 0: before the first line, e.g. the file cannot be opened); path(),
// line() and message() give the parts, for callers that print their own prefix.
class matrix_market_error : public std::runtime_error {
public:
    matrix_market_error(const std::string &path, long long line, const std::string &message)
        : std::runtime_error(path + ":" + std::to_string(line) + ": " + message), path_(path), line_(line),
          message_(message) {}
    const std::string &path() const noexcept { return path_; }
    long long line() const noexcept { return line_; }
    const std::string &message() const noexcept { return message_; }

private:
    std::string path_;
    long long line_;
    std::string message_;
};

// What the reader accepts beyond the format itself.
struct MatrixMarketOptions {
    // NaN and infinite values are refused by default (an SpMV input holding them is nearly always a
    // broken file); true accepts them. Values too large for a double are refused either way;
    // values too small for one (underflow, e.g. 1e-310 or 1e-400) are read as the nearest double.
    bool allow_non_finite = false;

    // The CSR holds rows + 1 row offsets whatever the file holds, so a few bytes declaring 2^31 - 2
    // rows would cost 8 GiB. The reader therefore refuses a matrix with more empty rows (rows
    // without any entry, after mirroring) than this; the default, 2^24 (64 MiB of offsets), is far
    // above the empty rows of real matrices. Raise it for hypersparse matrices.
    long long max_empty_rows = 1LL << 24;
};

// Reads "%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>": pattern
// entries are 1; a symmetric file's entries (on or below the diagonal, as the format requires) are
// mirrored. Entries are sorted by column within each row (duplicates kept, in file order). The
// result always passes validate_csr.
// Memory follows what the file holds: the entries actually read, and the rows + 1 row offsets
// (bounded by options.max_empty_rows); the entry count of the size line reserves nothing.
// Throws matrix_market_error for: a path that cannot be opened (with errno's reason) or is a
// directory, a read error, a bad or unsupported header, a missing or bad size line, dimensions or
// an entry count past 2^31 - 1, a symmetric matrix that is not square, an entry that does not
// parse, an index out of range, an entry above the diagonal of a symmetric matrix, a NaN or
// infinite value (unless allowed), a value too large for a double, fewer or more entries than the
// size line states, too many empty rows, and memory that runs out (naming the bytes and their use).
CsrMatrix<double> read_matrix_market(const std::string &path, const MatrixMarketOptions &options = {});

// The same from a stream (a file already open, a string, a fuzzer's bytes); `name` stands for the
// path in error messages.
CsrMatrix<double> read_matrix_market(std::istream &in, const std::string &name,
                                     const MatrixMarketOptions &options = {});

}  // namespace StreamCompaction

#include <stream_compaction/io/matrix_market.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>

namespace StreamCompaction {

template <class V, class Offset>
void validate_csr(const CsrMatrix<V, Offset> &matrix) {
    const auto fail = [](const std::string &message) { throw std::invalid_argument("invalid CSR matrix: " + message); };
    if (matrix.rows < 0 || matrix.cols < 0)
        fail("negative dimensions " + std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols));
    if (matrix.row_offsets.size() != static_cast<std::size_t>(matrix.rows) + 1)
        fail(std::to_string(matrix.row_offsets.size()) + " row offsets for " + std::to_string(matrix.rows) +
             " rows (rows + 1 needed)");
    if (matrix.row_offsets[0] != 0) fail("row_offsets[0] = " + std::to_string(matrix.row_offsets[0]) + ", not 0");
    for (int r = 0; r < matrix.rows; ++r)
        if (matrix.row_offsets[r + 1] < matrix.row_offsets[r])
            fail("row offsets decrease at row " + std::to_string(r) + " (" + std::to_string(matrix.row_offsets[r]) +
                 " then " + std::to_string(matrix.row_offsets[r + 1]) + ")");
    if (matrix.column_indices.size() > static_cast<std::size_t>(std::numeric_limits<Offset>::max()))
        fail(std::to_string(matrix.column_indices.size()) +
             " nonzeros do not fit 32-bit row offsets (use CsrMatrix<V, std::int64_t>)");
    const long long last = matrix.row_offsets[matrix.rows];
    if (static_cast<std::size_t>(last) != matrix.column_indices.size() ||
        matrix.column_indices.size() != matrix.values.size())
        fail("last row offset " + std::to_string(last) + ", " + std::to_string(matrix.column_indices.size()) +
             " column indices, " + std::to_string(matrix.values.size()) + " values (all must be equal: nnz)");
    for (std::size_t k = 0; k < matrix.column_indices.size(); ++k)
        if (matrix.column_indices[k] < 0 || matrix.column_indices[k] >= matrix.cols)
            fail("column index " + std::to_string(matrix.column_indices[k]) + " of entry " + std::to_string(k) +
                 " outside [0, " + std::to_string(matrix.cols) + ")");
}

template void validate_csr<float, int>(const CsrMatrix<float, int> &);
template void validate_csr<double, int>(const CsrMatrix<double, int> &);
template void validate_csr<float, std::int64_t>(const CsrMatrix<float, std::int64_t> &);
template void validate_csr<double, std::int64_t>(const CsrMatrix<double, std::int64_t> &);

namespace {

std::string lowered(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

std::vector<std::string> tokens(const std::string &line) {
    std::istringstream stream(line);
    std::vector<std::string> out;
    for (std::string token; stream >> token;) out.push_back(token);
    return out;
}

bool isBlank(const std::string &line) {
    return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c); });
}

// Whole-token parses; false on anything else (trailing characters, overflow).
bool parseInteger(const std::string &token, long long &value) {
    char *end = nullptr;
    errno = 0;
    value = std::strtoll(token.c_str(), &end, 10);
    return errno == 0 && end != token.c_str() && *end == '\0';
}

bool parseReal(const std::string &token, double &value) {
    char *end = nullptr;
    errno = 0;
    value = std::strtod(token.c_str(), &end);
    return errno != ERANGE && end != token.c_str() && *end == '\0';
}

struct Entry {
    int row, col;
    double value;
};

}  // namespace

CsrMatrix<double> read_matrix_market(const std::string &path) {
    std::ifstream file(path);
    if (!file) throw matrix_market_error(path, 0, "cannot open the file");
    long long lineNumber = 0;
    std::string line;
    const auto fail = [&](const std::string &message) { throw matrix_market_error(path, lineNumber, message); };

    lineNumber = 1;
    if (!std::getline(file, line)) fail("empty file: no %%MatrixMarket header");
    const std::vector<std::string> header = tokens(line);
    if (header.size() != 5 || header[0] != "%%MatrixMarket" || lowered(header[1]) != "matrix")
        fail("bad header '" + line + "': expected %%MatrixMarket matrix coordinate <field> <symmetry>");
    const std::string format = lowered(header[2]), field = lowered(header[3]), symmetry = lowered(header[4]);
    if (format != "coordinate") fail("format '" + header[2] + "' is not supported: only coordinate");
    if (field != "real" && field != "integer" && field != "pattern")
        fail("field '" + header[3] + "' is not supported: real, integer or pattern");
    if (symmetry != "general" && symmetry != "symmetric")
        fail("symmetry '" + header[4] + "' is not supported: general or symmetric");
    const bool pattern = field == "pattern", integer = field == "integer", symmetric = symmetry == "symmetric";

    // Comments, then the size line.
    std::vector<std::string> size;
    while (std::getline(file, line)) {
        ++lineNumber;
        if (line.empty() || line[0] == '%' || isBlank(line)) continue;
        size = tokens(line);
        break;
    }
    if (size.empty()) fail("no size line (rows cols entries)");
    long long rows = 0, cols = 0, stated = 0;
    if (size.size() != 3 || !parseInteger(size[0], rows) || !parseInteger(size[1], cols) ||
        !parseInteger(size[2], stated) || rows < 0 || cols < 0 || stated < 0)
        fail("bad size line '" + line + "': expected three non-negative integers: rows cols entries");
    if (rows > INT_MAX || cols > INT_MAX) fail("dimensions past 2^31 - 1 are not supported");
    if (stated > INT_MAX) fail(std::to_string(stated) + " entries: more than 2^31 - 1 are not supported");

    std::vector<Entry> entries;
    entries.reserve(static_cast<std::size_t>(symmetric ? 2 * stated : stated));
    long long read = 0;
    const std::size_t expectedTokens = pattern ? 2 : 3;
    while (std::getline(file, line)) {
        ++lineNumber;
        if (isBlank(line)) continue;
        if (read == stated) fail("more entries than the " + std::to_string(stated) + " the size line states");
        const std::vector<std::string> t = tokens(line);
        long long row = 0, col = 0, whole = 0;
        double value = 1.0;
        if (t.size() != expectedTokens || !parseInteger(t[0], row) || !parseInteger(t[1], col))
            fail("bad entry '" + line + "': expected " + (pattern ? "row col" : "row col value"));
        if (!pattern) {
            if (integer ? !parseInteger(t[2], whole) : !parseReal(t[2], value))
                fail("bad value '" + t[2] + "' for a " + field + " matrix");
            if (integer) value = static_cast<double>(whole);
        }
        if (row < 1 || row > rows || col < 1 || col > cols)
            fail("index (" + t[0] + ", " + t[1] + ") out of range: the matrix is " + std::to_string(rows) + " x " +
                 std::to_string(cols) + " (indices start at 1)");
        if (symmetric && col > row)
            fail("entry (" + t[0] + ", " + t[1] + ") above the diagonal of a symmetric matrix");
        entries.push_back({static_cast<int>(row - 1), static_cast<int>(col - 1), value});
        if (symmetric && row != col) entries.push_back({static_cast<int>(col - 1), static_cast<int>(row - 1), value});
        ++read;
    }
    if (read < stated)
        fail("the file ends after " + std::to_string(read) + " of the " + std::to_string(stated) + " entries");
    if (entries.size() > static_cast<std::size_t>(INT_MAX))
        fail("more than 2^31 - 1 entries after mirroring the symmetric entries");

    // Counting sort by row, then by column within each row (stable: duplicates keep the file's order).
    CsrMatrix<double> matrix;
    matrix.rows = static_cast<int>(rows);
    matrix.cols = static_cast<int>(cols);
    matrix.row_offsets.assign(matrix.rows + 1, 0);
    for (const Entry &e : entries) ++matrix.row_offsets[e.row + 1];
    std::partial_sum(matrix.row_offsets.begin(), matrix.row_offsets.end(), matrix.row_offsets.begin());
    std::vector<Entry> sorted(entries.size());
    std::vector<int> next(matrix.row_offsets.begin(), matrix.row_offsets.end() - 1);
    for (const Entry &e : entries) sorted[next[e.row]++] = e;
    for (int r = 0; r < matrix.rows; ++r)
        std::stable_sort(sorted.begin() + matrix.row_offsets[r], sorted.begin() + matrix.row_offsets[r + 1],
                         [](const Entry &a, const Entry &b) { return a.col < b.col; });
    matrix.column_indices.resize(sorted.size());
    matrix.values.resize(sorted.size());
    for (std::size_t k = 0; k < sorted.size(); ++k) {
        matrix.column_indices[k] = sorted[k].col;
        matrix.values[k] = sorted[k].value;
    }
    return matrix;
}

}  // namespace StreamCompaction

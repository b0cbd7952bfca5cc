#include <stream_compaction/io/matrix_market.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <numeric>
#include <sstream>
#include <system_error>

namespace StreamCompaction {

namespace detail {

// validate_csr on the parts of a matrix that do not depend on its value type.
template <class Offset>
void validate_csr_structure(int rows, int cols, const std::vector<Offset> &row_offsets,
                            const std::vector<int> &column_indices, std::size_t values) {
    const auto fail = [](const std::string &message) { throw std::invalid_argument("invalid CSR matrix: " + message); };
    if (rows < 0 || cols < 0) fail("negative dimensions " + std::to_string(rows) + " x " + std::to_string(cols));
    if (row_offsets.size() != static_cast<std::size_t>(rows) + 1)
        fail(std::to_string(row_offsets.size()) + " row offsets for " + std::to_string(rows) +
             " rows (rows + 1 needed)");
    if (row_offsets[0] != 0) fail("row_offsets[0] = " + std::to_string(row_offsets[0]) + ", not 0");
    for (int r = 0; r < rows; ++r)
        if (row_offsets[r + 1] < row_offsets[r])
            fail("row offsets decrease at row " + std::to_string(r) + " (" + std::to_string(row_offsets[r]) +
                 " then " + std::to_string(row_offsets[r + 1]) + ")");
    if (column_indices.size() > static_cast<std::size_t>(std::numeric_limits<Offset>::max()))
        fail(std::to_string(column_indices.size()) +
             " nonzeros do not fit 32-bit row offsets (use CsrMatrix<V, std::int64_t>)");
    const long long last = row_offsets[rows];
    if (static_cast<std::size_t>(last) != column_indices.size() || column_indices.size() != values)
        fail("last row offset " + std::to_string(last) + ", " + std::to_string(column_indices.size()) +
             " column indices, " + std::to_string(values) + " values (all must be equal: nnz)");
    for (std::size_t k = 0; k < column_indices.size(); ++k)
        if (column_indices[k] < 0 || column_indices[k] >= cols)
            fail("column index " + std::to_string(column_indices[k]) + " of entry " + std::to_string(k) +
                 " outside [0, " + std::to_string(cols) + ")");
}

template void validate_csr_structure(int, int, const std::vector<int> &, const std::vector<int> &, std::size_t);
template void validate_csr_structure(int, int, const std::vector<std::int64_t> &, const std::vector<int> &,
                                     std::size_t);

}  // namespace detail

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

// File text for an error message, in quotes: at most 80 characters, bytes outside printable ASCII
// as \xNN, so that a message stays one printable line whatever the file holds.
std::string shown(const std::string &text) {
    constexpr std::size_t kMaxShown = 80;
    std::string out = "'";
    for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            static const char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xF];
        }
    }
    if (text.size() > kMaxShown) out += "...";
    return out + "'";
}

// "8589934592 bytes (8.0 GiB)".
std::string describeBytes(std::uint64_t bytes) {
    std::ostringstream out;
    out << bytes << " bytes";
    if (bytes >= (1u << 20)) {
        out.setf(std::ios::fixed);
        out.precision(1);
        if (bytes >= (1ull << 30))
            out << " (" << double(bytes) / double(1ull << 30) << " GiB)";
        else
            out << " (" << double(bytes) / double(1u << 20) << " MiB)";
    }
    return out.str();
}

// Whole-token decimal integer; false on anything else (trailing characters, overflow). A token
// with an embedded NUL byte is not whole.
bool parseInteger(const std::string &token, long long &value) {
    char *end = nullptr;
    errno = 0;
    value = std::strtoll(token.c_str(), &end, 10);
    return errno == 0 && end != token.c_str() && end == token.c_str() + token.size();
}

enum class RealParse { Ok, NotANumber, TooLarge };

// Whole-token real number. Underflow is not an error: strtod gives the nearest double (a subnormal
// or zero) and sets ERANGE, which only counts when the result is infinite (overflow).
RealParse parseReal(const std::string &token, double &value) {
    char *end = nullptr;
    errno = 0;
    value = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || end != token.c_str() + token.size()) return RealParse::NotANumber;
    if (errno == ERANGE && std::isinf(value)) return RealParse::TooLarge;
    return RealParse::Ok;
}

struct Entry {
    int row, col;
    double value;
};

struct Header {
    bool pattern = false, integer = false, symmetric = false;
};

// The size line, checked: 0 <= rows, cols, stated <= 2^31 - 1, and rows == cols when symmetric.
struct Size {
    long long rows = 0, cols = 0, stated = 0;
};

constexpr long long kMaxIndex = std::numeric_limits<int>::max();  // CsrMatrix's int rows, columns, offsets

// One pass over the text: the header, comments, the size line, the entries; then the CSR. Every
// error names the line it stands on (the last line read, for errors found at the end).
class Reader {
public:
    Reader(std::istream &in, const std::string &name, const MatrixMarketOptions &options)
        : in_(in), name_(name), options_(options) {}

    CsrMatrix<double> read() {
        const Header header = readHeader();
        const Size size = readSize(header);
        std::vector<Entry> entries = readEntries(header, size);
        return toCsr(entries, size);
    }

private:
    [[noreturn]] void fail(const std::string &message) const { throw matrix_market_error(name_, line_, message); }

    // The next line into text_; false at the end of the text. A stream error is not an end.
    bool nextLine() {
        errno = 0;  // so that a failed read's errno is its own
        if (!std::getline(in_, text_)) {
            if (in_.bad()) {
                const int error = errno;
                fail("read error" + (error != 0 ? ": " + std::generic_category().message(error) : ""));
            }
            return false;
        }
        ++line_;
        return true;
    }

    // Runs `allocate`; memory that runs out becomes an error naming the bytes and their use.
    template <class Allocate>
    void allocating(std::uint64_t bytes, const std::string &purpose, Allocate &&allocate) const {
        try {
            allocate();
        } catch (const std::bad_alloc &) {
            fail("out of memory: cannot allocate " + describeBytes(bytes) + " for " + purpose);
        } catch (const std::length_error &) {
            fail("out of memory: cannot allocate " + describeBytes(bytes) + " for " + purpose);
        }
    }

    Header readHeader() {
        if (!nextLine()) {
            line_ = 1;
            fail("empty file: no %%MatrixMarket header");
        }
        const std::vector<std::string> t = tokens(text_);
        if (t.size() != 5 || t[0] != "%%MatrixMarket" || lowered(t[1]) != "matrix")
            fail("bad header " + shown(text_) + ": expected %%MatrixMarket matrix coordinate <field> <symmetry>");
        const std::string format = lowered(t[2]), field = lowered(t[3]), symmetry = lowered(t[4]);
        if (format != "coordinate") fail("format " + shown(t[2]) + " is not supported: only coordinate");
        if (field != "real" && field != "integer" && field != "pattern")
            fail("field " + shown(t[3]) + " is not supported: real, integer or pattern");
        if (symmetry != "general" && symmetry != "symmetric")
            fail("symmetry " + shown(t[4]) + " is not supported: general or symmetric");
        Header header;
        header.pattern = field == "pattern";
        header.integer = field == "integer";
        header.symmetric = symmetry == "symmetric";
        return header;
    }

    // Comments and blank lines, then "rows cols entries".
    Size readSize(const Header &header) {
        std::vector<std::string> t;
        while (t.empty()) {
            if (!nextLine()) fail("no size line (rows cols entries)");
            if (!text_.empty() && text_[0] == '%') continue;
            t = tokens(text_);
        }
        Size size;
        if (t.size() != 3 || !parseInteger(t[0], size.rows) || !parseInteger(t[1], size.cols) ||
            !parseInteger(t[2], size.stated) || size.rows < 0 || size.cols < 0 || size.stated < 0)
            fail("bad size line " + shown(text_) + ": expected three non-negative integers: rows cols entries");
        if (size.rows > kMaxIndex || size.cols > kMaxIndex) fail("dimensions past 2^31 - 1 are not supported");
        if (size.stated > kMaxIndex)
            fail(std::to_string(size.stated) + " entries: more than 2^31 - 1 are not supported");
        if (header.symmetric && size.rows != size.cols)
            fail("a symmetric matrix must be square, but the size line states " + std::to_string(size.rows) + " x " +
                 std::to_string(size.cols));
        return size;
    }

    // The entry of the current line (not mirrored).
    Entry parseEntry(const Header &header, const Size &size) const {
        const std::vector<std::string> t = tokens(text_);
        long long row = 0, col = 0;
        if (t.size() != (header.pattern ? 2u : 3u) || !parseInteger(t[0], row) || !parseInteger(t[1], col))
            fail("bad entry " + shown(text_) + ": expected " + (header.pattern ? "row col" : "row col value"));
        if (row < 1 || row > size.rows || col < 1 || col > size.cols)
            fail("index (" + t[0] + ", " + t[1] + ") out of range: the matrix is " + std::to_string(size.rows) + " x " +
                 std::to_string(size.cols) + " (indices start at 1)");
        if (header.symmetric && col > row)
            fail("entry (" + t[0] + ", " + t[1] + ") above the diagonal of a symmetric matrix");
        return {static_cast<int>(row - 1), static_cast<int>(col - 1), header.pattern ? 1.0 : parseValue(header, t[2])};
    }

    double parseValue(const Header &header, const std::string &token) const {
        if (header.integer) {
            long long whole = 0;
            if (!parseInteger(token, whole)) fail("bad value " + shown(token) + " for an integer matrix");
            return static_cast<double>(whole);
        }
        double value = 0;
        switch (parseReal(token, value)) {
        case RealParse::NotANumber: fail("bad value " + shown(token) + " for a real matrix");
        case RealParse::TooLarge: fail("value " + shown(token) + " is too large for a double");
        case RealParse::Ok: break;
        }
        if (!std::isfinite(value) && !options_.allow_non_finite)
            fail("value " + shown(token) +
                 " is not finite: NaN and infinity are refused (MatrixMarketOptions::allow_non_finite accepts them)");
        return value;
    }

    // Appends without reallocating behind the caller's back: capacity grows here, in steps whose
    // size an out-of-memory error can name. Grows by what the file holds, never by its stated count.
    void append(std::vector<Entry> &entries, const Entry &entry) const {
        if (entries.size() == static_cast<std::size_t>(kMaxIndex)) fail("more than 2^31 - 1 entries after mirroring the symmetric entries");
        if (entries.size() == entries.capacity()) {
            const std::size_t capacity = std::max<std::size_t>(1024, 2 * entries.capacity());
            allocating(capacity * sizeof(Entry), "the entries read (" + std::to_string(entries.size()) + " so far)",
                       [&] { entries.reserve(capacity); });
        }
        entries.push_back(entry);
    }

    std::vector<Entry> readEntries(const Header &header, const Size &size) {
        std::vector<Entry> entries;
        long long read = 0;
        while (nextLine()) {
            if (isBlank(text_)) continue;
            if (read == size.stated)
                fail("more entries than the " + std::to_string(size.stated) + " the size line states");
            const Entry entry = parseEntry(header, size);
            append(entries, entry);
            if (header.symmetric && entry.row != entry.col) append(entries, {entry.col, entry.row, entry.value});
            ++read;
        }
        if (read < size.stated)
            fail("the file ends after " + std::to_string(read) + " of the " + std::to_string(size.stated) + " entries");
        return entries;
    }

    // Sorted by row, then column (stable: duplicates keep the file's order); the row offsets, whose
    // rows + 1 entries are the one allocation not bounded by the file's size, after the empty-row
    // limit is checked.
    CsrMatrix<double> toCsr(std::vector<Entry> &entries, const Size &size) const {
        std::stable_sort(entries.begin(), entries.end(),
                         [](const Entry &a, const Entry &b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
        long long filledRows = 0;
        for (std::size_t k = 0; k < entries.size(); ++k) filledRows += k == 0 || entries[k].row != entries[k - 1].row;
        const long long emptyRows = size.rows - filledRows;
        const std::uint64_t offsetBytes = (static_cast<std::uint64_t>(size.rows) + 1) * sizeof(int);
        if (emptyRows > options_.max_empty_rows)
            fail(std::to_string(size.rows) + " rows of which " + std::to_string(emptyRows) +
                 " hold no entry: their CSR row offsets would take " + describeBytes(offsetBytes) + "; more than " +
                 std::to_string(options_.max_empty_rows) +
                 " empty rows are refused (MatrixMarketOptions::max_empty_rows)");

        CsrMatrix<double> matrix;
        matrix.rows = static_cast<int>(size.rows);
        matrix.cols = static_cast<int>(size.cols);
        allocating(offsetBytes, "the CSR row offsets of " + std::to_string(size.rows) + " rows",
                   [&] { matrix.row_offsets.assign(static_cast<std::size_t>(size.rows) + 1, 0); });
        const std::size_t nnz = entries.size();
        allocating(nnz * (sizeof(int) + sizeof(double)),
                   "the column indices and values of " + std::to_string(nnz) + " entries", [&] {
                       matrix.column_indices.resize(nnz);
                       matrix.values.resize(nnz);
                   });
        // Counts per row, then their running sum: row_offsets[r + 1] = entries in rows 0..r (<= nnz < 2^31).
        for (const Entry &e : entries) ++matrix.row_offsets[static_cast<std::size_t>(e.row) + 1];
        std::partial_sum(matrix.row_offsets.begin(), matrix.row_offsets.end(), matrix.row_offsets.begin());
        for (std::size_t k = 0; k < nnz; ++k) {
            matrix.column_indices[k] = entries[k].col;
            matrix.values[k] = entries[k].value;
        }
        return matrix;
    }

    std::istream &in_;
    const std::string &name_;
    const MatrixMarketOptions &options_;
    std::string text_;     // the current line
    long long line_ = 0;  // its number, from 1
};

}  // namespace

CsrMatrix<double> read_matrix_market(std::istream &in, const std::string &name, const MatrixMarketOptions &options) {
    return Reader(in, name, options).read();
}

CsrMatrix<double> read_matrix_market(const std::string &path, const MatrixMarketOptions &options) {
    // A directory opens as a stream on Linux and then reads as nothing: say what it is instead.
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored))
        throw matrix_market_error(path, 0, "is a directory, not a Matrix Market file");
    errno = 0;
    std::ifstream file(path);
    if (!file) {
        const int error = errno;  // set by the open(2) under the stream
        throw matrix_market_error(path, 0, "cannot open the file: " + (error != 0 ? std::generic_category().message(error)
                                                                                  : std::string("reason unknown")));
    }
    return read_matrix_market(file, path, options);
}

}  // namespace StreamCompaction

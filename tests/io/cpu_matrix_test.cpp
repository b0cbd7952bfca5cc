// The Matrix Market reader, CSR validation and the matrix generators: CPU only (these run in CI).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>

#include "matrix_files.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace SC = StreamCompaction;

namespace {

// Writes `text` to a fresh file in the temporary directory; removes it when the test ends.
class MatrixMarketFile {
public:
    explicit MatrixMarketFile(const std::string &text) {
        char name[] = "/tmp/sc_matrix_XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0) throw std::runtime_error("mkstemp failed");
        close(fd);
        path_ = name;
        std::ofstream(path_) << text;
    }
    ~MatrixMarketFile() { std::remove(path_.c_str()); }
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

// The error's line, or -1 when reading succeeds; the message goes to `message`.
long long errorLine(const std::string &text, std::string &message, const SC::MatrixMarketOptions &options = {}) {
    MatrixMarketFile file(text);
    try {
        SC::read_matrix_market(file.path(), options);
    } catch (const SC::matrix_market_error &e) {
        message = e.what();
        return e.line();
    }
    return -1;
}

const char *kGeneralHeader = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

TEST(MatrixMarket, ReadsGeneralRealIntoSortedCsr) {
    MatrixMarketFile file(std::string(kGeneralHeader) +
                          "% a comment\n%\n3 4 5\n3 4 -2.5\n1 2 1e1\n1 1 1\n3 1 0.5\n2 3 7\n");
    const SC::CsrMatrix<double> m = SC::read_matrix_market(file.path());
    EXPECT_EQ(m.rows, 3);
    EXPECT_EQ(m.cols, 4);
    EXPECT_EQ(m.row_offsets, (std::vector<int>{0, 2, 3, 5}));
    EXPECT_EQ(m.column_indices, (std::vector<int>{0, 1, 2, 0, 3}));
    EXPECT_EQ(m.values, (std::vector<double>{1, 10, 7, 0.5, -2.5}));
    EXPECT_NO_THROW(SC::validate_csr(m));
}

TEST(MatrixMarket, MirrorsSymmetricPatternAndReadsIntegers) {
    MatrixMarketFile pattern("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n1 1\n3 1\n3 2\n");
    const SC::CsrMatrix<double> p = SC::read_matrix_market(pattern.path());
    EXPECT_EQ(p.row_offsets, (std::vector<int>{0, 2, 3, 5}));
    EXPECT_EQ(p.column_indices, (std::vector<int>{0, 2, 2, 0, 1}));
    EXPECT_EQ(p.values, (std::vector<double>(5, 1.0)));

    MatrixMarketFile integer("%%MatrixMarket matrix coordinate integer general\n2 2 2\n2 2 -7\n1 2 3\n");
    const SC::CsrMatrix<double> i = SC::read_matrix_market(integer.path());
    EXPECT_EQ(i.values, (std::vector<double>{3, -7}));
}

TEST(MatrixMarket, EmptyMatricesAndEmptyRows) {
    MatrixMarketFile empty(std::string(kGeneralHeader) + "4 2 0\n");
    const SC::CsrMatrix<double> m = SC::read_matrix_market(empty.path());
    EXPECT_EQ(m.rows, 4);
    EXPECT_EQ(m.row_offsets, (std::vector<int>(5, 0)));
    MatrixMarketFile none(std::string(kGeneralHeader) + "0 0 0\n");
    EXPECT_EQ(SC::read_matrix_market(none.path()).rows, 0);
}

TEST(MatrixMarket, MalformedFilesNameTheLine) {
    std::string message;
    EXPECT_EQ(errorLine("", message), 1) << message;
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n", message), 1) << message;
    EXPECT_EQ(errorLine("%MatrixMarket matrix coordinate real general\n", message), 1) << message;
    EXPECT_EQ(errorLine("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", message), 1) << message;
    EXPECT_NE(message.find("array"), std::string::npos) << message;
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", message), 1);
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", message), 1);
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "% only comments\n", message), 2) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "%\n3 3\n", message), 3) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 -3 1\n1 1 1\n", message), 2) << message;
    // Counts that do not match: too few (reported at the last line), too many.
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 3\n1 1 1\n2 2 2\n", message), 4) << message;
    EXPECT_NE(message.find("2 of the 3"), std::string::npos) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 1\n1 1 1\n2 2 2\n", message), 4) << message;
    // Indices out of range, 1-based.
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 2\n1 1 1\n4 1 1\n", message), 4) << message;
    EXPECT_NE(message.find("out of range"), std::string::npos) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 1\n1 0 1\n", message), 3) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 1\n1 4 1\n", message), 3) << message;
    // Entries that do not parse.
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 1\n1 1 abc\n", message), 3) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 1\n1 1\n", message), 3) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 1\n1.5 1 1\n", message), 3) << message;
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 2.5\n", message), 3);
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 2\n", message), 3);
    // Upper-triangle entry in a symmetric file.
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", message), 3) << message;
    EXPECT_NE(message.find("above the diagonal"), std::string::npos) << message;
}

TEST(MatrixMarket, MissingFileIsAClearError) {
    try {
        SC::read_matrix_market("/nonexistent/dir/matrix.mtx");
        FAIL() << "no exception";
    } catch (const SC::matrix_market_error &e) {
        EXPECT_EQ(e.line(), 0);
        EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/matrix.mtx"), std::string::npos) << e.what();
    }
}

TEST(MatrixMarket, ReadsEverySharedMatrix) {
    const MatrixFiles files = findMatrixFiles(sharedMatrixNames());
    REQUIRE_MATRIX_FILES(files);
    for (std::size_t i = 0; i < std::size(kSharedMatrices); ++i) {
        const SharedMatrix &shared = kSharedMatrices[i];
        const std::string &path = files.paths[i];
        SCOPED_TRACE(path);
        const SC::CsrMatrix<double> m = SC::read_matrix_market(path);
        EXPECT_NO_THROW(SC::validate_csr(m));
        EXPECT_EQ(m.rows, shared.rows);
        EXPECT_EQ(m.cols, shared.cols);
        EXPECT_EQ(static_cast<long long>(m.nnz()), shared.nnz);
        int empty = 0;
        for (int r = 0; r < m.rows; ++r) empty += m.row_offsets[r] == m.row_offsets[r + 1];
        EXPECT_EQ(empty, shared.emptyRows);
    }
}

// ---- hostile and odd files: sizes, memory, values, paths ----

namespace {

bool contains(const std::string &text, const std::string &fragment) { return text.find(fragment) != std::string::npos; }

// The process's peak resident memory so far, in MiB: a reader that touched gigabytes raises it.
long peakResidentMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;  // KiB on Linux
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// rows + 1 at rows = 2^31 - 1 used to overflow int (UBSan); now the size is 64-bit arithmetic and
// the matrix, almost all empty rows, is refused by the empty-row limit.
TEST(MatrixMarketLimits, SizeLineAtIntMaxDoesNotOverflow) {
    std::string message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "2147483647 2147483647 0\n", message), 2) << message;
    EXPECT_TRUE(contains(message, "2147483647 rows of which 2147483647 hold no entry")) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "2147483647 2147483647 1\n2147483647 2147483647 5\n", message), 3)
        << message;
    EXPECT_TRUE(contains(message, "max_empty_rows")) << message;
    // Past int, and past long long.
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "2147483648 1 0\n", message), 2) << message;
    EXPECT_TRUE(contains(message, "past 2^31 - 1")) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "9223372036854775808 1 0\n", message), 2) << message;
    EXPECT_TRUE(contains(message, "bad size line")) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "1 1 2147483648\n", message), 2) << message;
}

// A 60-byte file declaring 2^31 - 2 rows once took a minute and 16.8 GB before it was accepted.
TEST(MatrixMarketLimits, TinyFileDeclaringHugeRowsFailsFastWithoutAllocating) {
    const long peakBefore = peakResidentMiB();
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "2147483646 2 1\n1 1 1\n", message), 3) << message;
    EXPECT_LT(secondsSince(start), 5.0);
    EXPECT_LT(peakResidentMiB() - peakBefore, 256);
    EXPECT_TRUE(contains(message, "2147483646 rows of which 2147483645 hold no entry")) << message;
    EXPECT_TRUE(contains(message, "8589934588 bytes (8.0 GiB)")) << message;
    EXPECT_TRUE(contains(message, "MatrixMarketOptions::max_empty_rows")) << message;
}

// The entry count of the size line reserves nothing: memory follows the entries actually read.
TEST(MatrixMarketLimits, HugeDeclaredEntryCountReservesNothing) {
    const long peakBefore = peakResidentMiB();
    std::string message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "3 3 2147483647\n1 1 1\n2 2 2\n", message), 4) << message;
    EXPECT_TRUE(contains(message, "the file ends after 2 of the 2147483647 entries")) << message;
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2147483647\n2 1\n", message), 3)
        << message;
    EXPECT_TRUE(contains(message, "ends after 1 of the 2147483647")) << message;
    EXPECT_LT(peakResidentMiB() - peakBefore, 256);
}

// Up to max_empty_rows rows without entries are read; one more is refused.
TEST(MatrixMarketLimits, EmptyRowsUpToTheLimitAreRead) {
    SC::MatrixMarketOptions options;
    options.max_empty_rows = 10;
    std::string message;
    // 12 rows with entries in rows 1 and 12 only: 10 empty.
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "12 3 3\n1 1 1\n12 3 2\n1 2 3\n", message, options), -1)
        << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "13 3 3\n1 1 1\n12 3 2\n1 2 3\n", message, options), 5)
        << message;
    EXPECT_TRUE(contains(message, "13 rows of which 11 hold no entry")) << message;
    // A symmetric entry fills two rows.
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate real symmetric\n12 12 1\n12 1 1\n", message, options), -1)
        << message;

    // The default limit, 2^24 empty rows, reads a 2^22-row matrix of one entry.
    MatrixMarketFile tall(std::string(kGeneralHeader) + "4194304 1 1\n4194304 1 7\n");
    const SC::CsrMatrix<double> m = SC::read_matrix_market(tall.path());
    EXPECT_EQ(m.rows, 4194304);
    EXPECT_EQ(m.row_offsets.size(), 4194305u);
    EXPECT_EQ(m.row_offsets[4194303], 0);
    EXPECT_EQ(m.row_offsets[4194304], 1);
    EXPECT_NO_THROW(SC::validate_csr(m));
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SC_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SC_TEST_SANITIZED 1
#endif
#endif

#ifndef SC_TEST_SANITIZED
namespace {

// In a death test's child: reads `path` with the address space capped at what the process has now
// plus 1 GiB, so that 4 GiB of row offsets cannot be allocated; exits 0 after printing the
// reader's error, 1 on anything else.
[[noreturn]] void readUnderAddressSpaceLimit(const std::string &path) {
    long pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    rlimit limit{};
    getrlimit(RLIMIT_AS, &limit);
    limit.rlim_cur = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t(1) << 30);
    if (setrlimit(RLIMIT_AS, &limit) != 0) {
        std::fprintf(stderr, "setrlimit failed\n");
        std::_Exit(1);
    }
    SC::MatrixMarketOptions options;
    options.max_empty_rows = LLONG_MAX;
    try {
        SC::read_matrix_market(path, options);
        std::fprintf(stderr, "read without an error\n");
    } catch (const SC::matrix_market_error &e) {
        std::fprintf(stderr, "%s\n", e.what());
        std::_Exit(0);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "not a matrix_market_error: %s\n", e.what());
    }
    std::_Exit(1);
}

}  // namespace
#endif

// A legitimate allocation that fails says which file, how many bytes and what for, instead of a
// bare std::bad_alloc.
TEST(MatrixMarketLimits, OutOfMemoryNamesFileBytesAndPurpose) {
#ifdef SC_TEST_SANITIZED
    GTEST_SKIP() << "a sanitizer's allocator reserves more address space than the cap leaves";
#else
    MatrixMarketFile file(std::string(kGeneralHeader) + "1073741824 1 1\n1 1 1\n");
    EXPECT_EXIT(readUnderAddressSpaceLimit(file.path()), ::testing::ExitedWithCode(0),
                file.path() + ":3: out of memory: cannot allocate 4294967300 bytes \\(4\\.0 GiB\\) for the CSR row "
                              "offsets of 1073741824 rows");
#endif
}

TEST(MatrixMarket, SymmetricMustBeSquare) {
    std::string message;
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate real symmetric\n% c\n3 4 1\n1 1 1\n", message), 3) << message;
    EXPECT_TRUE(contains(message, "a symmetric matrix must be square, but the size line states 3 x 4")) << message;
    EXPECT_EQ(errorLine("%%MatrixMarket matrix coordinate pattern symmetric\n4 3 0\n", message), 2) << message;
}

// NaN and infinity are refused with their line unless allowed; a value too large for a double is
// refused either way.
TEST(MatrixMarket, NonFiniteValuesAreRefusedWithTheirLine) {
    for (const char *value : {"nan", "NaN", "-nan", "inf", "-inf", "+Infinity", "INF", "nan(0x1)"}) {
        SCOPED_TRACE(value);
        const std::string text = std::string(kGeneralHeader) + "2 2 2\n1 1 1\n2 2 " + value + "\n";
        std::string message;
        EXPECT_EQ(errorLine(text, message), 4) << message;
        EXPECT_TRUE(contains(message, ":4: value '" + std::string(value) + "' is not finite")) << message;
        EXPECT_TRUE(contains(message, "allow_non_finite")) << message;

        SC::MatrixMarketOptions allow;
        allow.allow_non_finite = true;
        MatrixMarketFile file(text);
        const SC::CsrMatrix<double> m = SC::read_matrix_market(file.path(), allow);
        ASSERT_EQ(m.values.size(), 2u);
        EXPECT_FALSE(std::isfinite(m.values[1]));
    }
    std::string message;
    SC::MatrixMarketOptions allow;
    allow.allow_non_finite = true;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "1 1 1\n1 1 1e400\n", message, allow), 3) << message;
    EXPECT_TRUE(contains(message, "too large for a double")) << message;
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "1 1 1\n1 1 -1e309\n", message), 3) << message;
}

// Underflow is not an error: a subnormal is read exactly, a smaller value as zero.
TEST(MatrixMarket, SubnormalAndUnderflowingValuesAreRead) {
    MatrixMarketFile file(std::string(kGeneralHeader) + "4 1 4\n1 1 1e-310\n2 1 -4.9e-324\n3 1 1e-400\n4 1 2.2e-308\n");
    const SC::CsrMatrix<double> m = SC::read_matrix_market(file.path());
    ASSERT_EQ(m.values.size(), 4u);
    EXPECT_EQ(m.values[0], 1e-310);
    EXPECT_EQ(std::fpclassify(m.values[0]), FP_SUBNORMAL);
    EXPECT_EQ(m.values[1], -4.9e-324);
    EXPECT_EQ(m.values[2], 0.0);
    EXPECT_EQ(m.values[3], 2.2e-308);
}

namespace {

// A fresh empty directory in the temporary directory; removed when the test ends.
class TemporaryDirectory {
public:
    TemporaryDirectory() {
        char name[] = "/tmp/sc_matrix_dir_XXXXXX";
        if (!mkdtemp(name)) throw std::runtime_error("mkdtemp failed");
        path_ = name;
    }
    ~TemporaryDirectory() { rmdir(path_.c_str()); }
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

// The directories requireAAndB searches (EXPECT_FATAL_FAILURE's statement may use no local).
std::vector<std::string> gRequireDirectories;

void requireAAndB() {
    const MatrixFiles files = findMatrixFiles({"a.mtx", "b.mtx"}, gRequireDirectories);
    REQUIRE_MATRIX_FILES(files);
}

// The reader's error for `path`, or "" when it reads.
SC::matrix_market_error readError(const std::string &path) {
    try {
        SC::read_matrix_market(path);
    } catch (const SC::matrix_market_error &e) {
        return e;
    }
    return SC::matrix_market_error(path, -1, "");
}

}  // namespace

TEST(MatrixMarket, DirectoryIsRejectedClearly) {
    TemporaryDirectory directory;
    const SC::matrix_market_error e = readError(directory.path());
    EXPECT_EQ(e.line(), 0) << e.what();
    EXPECT_EQ(std::string(e.what()), directory.path() + ":0: is a directory, not a Matrix Market file");
}

// A test's named matrices (matrix_files.h): each missing one is named, and fails the test where a
// matrix directory exists (its copy is incomplete); where none exists, REQUIRE_MATRIX_FILES skips.
// The shared-matrix tests used to pass on whatever subset they found.
TEST(MatrixFiles, MissingNamedMatricesFailWhereADirectoryExists) {
    TemporaryDirectory directory;
    const std::string a = directory.path() + "/a.mtx", b = directory.path() + "/b.mtx";
    std::ofstream(a) << kGeneralHeader << "1 1 0\n";
    const MatrixFiles files = findMatrixFiles({"a.mtx", "b.mtx"}, {"/nonexistent/sc_matrices", directory.path()});
    EXPECT_EQ(files.paths, (std::vector<std::string>{a, ""}));
    EXPECT_EQ(files.missing, std::vector<std::string>{"b.mtx"});
    EXPECT_TRUE(files.anyDirectoryExists);
    EXPECT_EQ(files.report(),
              "missing b.mtx (searched: /nonexistent/sc_matrices (absent), " + directory.path() + " (exists))");
    gRequireDirectories = {directory.path()};
    EXPECT_FATAL_FAILURE(requireAAndB(), "missing b.mtx");
    std::ofstream(b) << kGeneralHeader << "1 1 0\n";
    EXPECT_NO_FATAL_FAILURE(requireAAndB());

    const MatrixFiles nowhere = findMatrixFiles({"a.mtx"}, {"/nonexistent/sc_matrices"});
    EXPECT_EQ(nowhere.missing, std::vector<std::string>{"a.mtx"});
    EXPECT_FALSE(nowhere.anyDirectoryExists);  // REQUIRE_MATRIX_FILES skips, naming a.mtx
    std::remove(a.c_str());
    std::remove(b.c_str());
}

TEST(MatrixMarket, OpenErrorsGiveErrnosReason) {
    const SC::matrix_market_error missing = readError("/nonexistent/dir/matrix.mtx");
    EXPECT_EQ(std::string(missing.what()), "/nonexistent/dir/matrix.mtx:0: cannot open the file: No such file or directory");
    EXPECT_EQ(missing.path(), "/nonexistent/dir/matrix.mtx");
    EXPECT_EQ(missing.message(), "cannot open the file: No such file or directory");
}

TEST(MatrixMarket, UnreadableFileGivesErrnosReason) {
    MatrixMarketFile file(std::string(kGeneralHeader) + "1 1 0\n");
    ASSERT_EQ(chmod(file.path().c_str(), 0), 0);
    // Root (and CAP_DAC_OVERRIDE) reads a mode-000 file all the same: nothing to test there.
    if (std::ifstream(file.path()).good()) GTEST_SKIP() << "mode 000 does not stop this user from reading (root?)";
    const SC::matrix_market_error e = readError(file.path());
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(e.message(), "cannot open the file: Permission denied");
}

TEST(MatrixMarket, ReadsFromAStreamNamedInErrors) {
    std::istringstream good(std::string(kGeneralHeader) + "2 2 1\n2 1 3.5\n");
    const SC::CsrMatrix<double> m = SC::read_matrix_market(good, "<memory>");
    EXPECT_EQ(m.row_offsets, (std::vector<int>{0, 0, 1}));
    EXPECT_EQ(m.values, (std::vector<double>{3.5}));
    std::istringstream bad(std::string(kGeneralHeader) + "2 2 1\n3 1 3.5\n");
    try {
        SC::read_matrix_market(bad, "<memory>");
        FAIL() << "no exception";
    } catch (const SC::matrix_market_error &e) {
        EXPECT_EQ(std::string(e.what()).rfind("<memory>:3: index (3, 1) out of range", 0), 0u) << e.what();
    }
}

// A message quotes the file's text as one printable line, however long or binary that text is.
TEST(MatrixMarket, MessagesStayOnePrintableLine) {
    std::string message;
    EXPECT_EQ(errorLine(std::string("%%MatrixMarket matrix coordinate real general\x01\x7f") + std::string(200, 'x') +
                            "\r\n",
                        message),
              1);
    EXPECT_TRUE(contains(message, "\\x01\\x7f")) << message;
    EXPECT_TRUE(contains(message, "...")) << message;
    EXPECT_LT(message.size(), 300u) << message;
    for (const char c : message) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << int(c);
    // A NUL byte inside a token does not cut it short into a valid number.
    EXPECT_EQ(errorLine(std::string(kGeneralHeader) + "1 1 1\n1 1 2" + std::string(1, '\0') + "junk\n", message), 3)
        << message;
    EXPECT_TRUE(contains(message, "bad value '2\\x00junk'")) << message;
    // Windows line ends read as any other white space.
    MatrixMarketFile crlf("%%MatrixMarket matrix coordinate real general\r\n2 2 1\r\n1 2 5\r\n");
    EXPECT_EQ(SC::read_matrix_market(crlf.path()).values, (std::vector<double>{5}));
}

// ---- CSR validation ----

namespace {

SC::CsrMatrix<float> smallCsr() {
    SC::CsrMatrix<float> m;
    m.rows = 3;
    m.cols = 4;
    m.row_offsets = {0, 2, 2, 3};
    m.column_indices = {0, 3, 1};
    m.values = {1, 2, 3};
    return m;
}

template <class Offset>
void expectInvalid(const SC::CsrMatrix<float, Offset> &m, const std::string &fragment) {
    try {
        SC::validate_csr(m);
        ADD_FAILURE() << "accepted; expected an error about '" << fragment << "'";
    } catch (const std::invalid_argument &e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

}  // namespace

TEST(MatrixMarketCsrValidation, AcceptsValidAndNamesEachBrokenRule) {
    EXPECT_NO_THROW(SC::validate_csr(smallCsr()));
    EXPECT_NO_THROW(SC::validate_csr(SC::CsrMatrix<float>{}));
    auto m = smallCsr();
    m.row_offsets = {0, 2, 1, 3};
    expectInvalid(m, "decrease at row 1");
    m = smallCsr();
    m.row_offsets = {0, 2, 2, 2};
    expectInvalid(m, "last row offset 2");
    m = smallCsr();
    m.row_offsets = {1, 2, 2, 3};
    expectInvalid(m, "row_offsets[0]");
    m = smallCsr();
    m.row_offsets = {0, 2, 3};
    expectInvalid(m, "rows + 1");
    m = smallCsr();
    m.column_indices[1] = 4;
    expectInvalid(m, "column index 4");
    m = smallCsr();
    m.column_indices[0] = -1;
    expectInvalid(m, "column index -1");
    m = smallCsr();
    m.values.pop_back();
    expectInvalid(m, "values");
    m = smallCsr();
    m.cols = -1;
    expectInvalid(m, "negative");
}

// The same rules with 64-bit row offsets, whose values may pass 2^31.
TEST(MatrixMarketCsrValidation, SixtyFourBitOffsetsFollowTheSameRules) {
    EXPECT_NO_THROW(SC::validate_csr(SC::widen_offsets(smallCsr())));
    EXPECT_NO_THROW(SC::validate_csr(SC::CsrMatrix<float, std::int64_t>{}));
    auto m = SC::widen_offsets(smallCsr());
    m.row_offsets = {0, 2, 1, 3};
    expectInvalid(m, "decrease at row 1");
    m.row_offsets = {0, 2, 2, std::int64_t(1) << 40};
    expectInvalid(m, "last row offset 1099511627776");
    m.row_offsets = {std::int64_t(1) << 33, 2, 2, 3};
    expectInvalid(m, "row_offsets[0] = 8589934592");
    m = SC::widen_offsets(smallCsr());
    m.column_indices[1] = 4;
    expectInvalid(m, "column index 4");
}

// ---- generators ----

TEST(MatrixMarketGenerators, PoissonStencils) {
    const SC::CsrMatrix<double> p2 = SC::poisson_2d(3);
    ASSERT_NO_THROW(SC::validate_csr(p2));
    EXPECT_EQ(p2.rows, 9);
    EXPECT_EQ(p2.nnz(), 33u);  // 5 per row less the 12 neighbours outside the mesh
    // The centre row: -1 at 1, 3, 5, 7 and 4 at 4; every row sums to 4 - its neighbour count.
    EXPECT_EQ(std::vector<int>(p2.column_indices.begin() + p2.row_offsets[4], p2.column_indices.begin() + p2.row_offsets[5]),
              (std::vector<int>{1, 3, 4, 5, 7}));
    for (int r = 0; r < p2.rows; ++r) {
        double sum = 0;
        for (int k = p2.row_offsets[r]; k < p2.row_offsets[r + 1]; ++k) sum += p2.values[k];
        EXPECT_EQ(sum, 4.0 - (p2.row_offsets[r + 1] - p2.row_offsets[r] - 1));
    }
    const SC::CsrMatrix<double> p3 = SC::poisson_3d(3);
    ASSERT_NO_THROW(SC::validate_csr(p3));
    EXPECT_EQ(p3.rows, 27);
    EXPECT_EQ(p3.nnz(), 135u);  // 7 * 27 - 6 * 9
    EXPECT_EQ(SC::poisson_2d(0).rows, 0);
    EXPECT_EQ(SC::poisson_2d(1).nnz(), 1u);
    EXPECT_THROW(SC::poisson_2d(-1), std::invalid_argument);
    EXPECT_THROW(SC::poisson_3d(2000), std::invalid_argument);
}

TEST(MatrixMarketGenerators, PowerLawIsSkewedValidAndReproducible) {
    const SC::CsrMatrix<double> m = SC::power_law(20000, 5000, 1.2, 2, 42);
    ASSERT_NO_THROW(SC::validate_csr(m));
    int longest = 0;
    for (int r = 0; r < m.rows; ++r) {
        const int length = m.row_offsets[r + 1] - m.row_offsets[r];
        EXPECT_GE(length, 2);
        longest = std::max(longest, length);
        // Distinct, ascending columns.
        for (int k = m.row_offsets[r] + 1; k < m.row_offsets[r + 1]; ++k)
            ASSERT_LT(m.column_indices[k - 1], m.column_indices[k]) << "row " << r;
    }
    const double mean = double(m.nnz()) / m.rows;
    EXPECT_GT(longest, 50 * mean) << "mean " << mean;
    const SC::CsrMatrix<double> again = SC::power_law(20000, 5000, 1.2, 2, 42);
    EXPECT_EQ(again.column_indices, m.column_indices);
    EXPECT_EQ(again.values, m.values);
    EXPECT_NE(SC::power_law(20000, 5000, 1.2, 2, 43).column_indices, m.column_indices);

    // Rows capped at the column count, full rows included; zero-length rows; degenerate shapes.
    const SC::CsrMatrix<double> capped = SC::power_law(100, 8, 0.3, 4, 7);
    ASSERT_NO_THROW(SC::validate_csr(capped));
    int full = 0;
    for (int r = 0; r < capped.rows; ++r) full += capped.row_offsets[r + 1] - capped.row_offsets[r] == 8;
    EXPECT_GT(full, 0);
    EXPECT_EQ(SC::power_law(10, 10, 1.0, 0, 1).nnz(), 0u);
    EXPECT_EQ(SC::power_law(0, 10, 1.0, 3, 1).rows, 0);
    EXPECT_THROW(SC::power_law(10, 10, 0.0, 1, 1), std::invalid_argument);
    EXPECT_THROW(SC::power_law(1 << 30, 1 << 20, 1.0, 8, 1), std::invalid_argument);
}

// The Matrix Market reader, CSR validation and the matrix generators: CPU only (these run in CI).
#include <gtest/gtest.h>

#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>

#include "matrix_files.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
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
long long errorLine(const std::string &text, std::string &message) {
    MatrixMarketFile file(text);
    try {
        SC::read_matrix_market(file.path());
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
    int found = 0;
    for (const SharedMatrix &shared : kSharedMatrices) {
        const std::string path = findMatrixFile(shared.file);
        if (path.empty()) continue;
        ++found;
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
    if (found == 0) GTEST_SKIP() << "no shared matrices found (set SC_MATRIX_DIR)";
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

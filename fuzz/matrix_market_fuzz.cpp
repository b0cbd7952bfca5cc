// Fuzz target of the Matrix Market reader: the input bytes are a file's contents. Built with
// libFuzzer (clang -fsanitize=fuzzer) or with random_mutation_driver.cpp, always under ASan+UBSan
// (fuzz/CMakeLists.txt; run by .ci/sanitize.sh).
//
// Besides the sanitizers' findings, an input is a finding when it breaks one of the reader's
// promises (stream_compaction/io/matrix_market.h):
//  - it returns a matrix, or throws matrix_market_error; nothing else escapes;
//  - a returned matrix passes validate_csr, holds no NaN or infinity unless allowed, and has at
//    most max_empty_rows rows without entries (its row offsets stay bounded by its content);
//  - an error's message is one line of printable ASCII.
#include <stream_compaction/io/matrix_market.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>

namespace SC = StreamCompaction;

namespace {

[[noreturn]] void finding(const std::string &what) {
    std::fprintf(stderr, "matrix_market_fuzz: broken promise: %s\n", what.c_str());
    std::abort();
}

bool printableLine(const std::string &text) {
    for (const char c : text)
        if (c < 0x20 || c > 0x7E) return false;
    return true;
}

void checkMatrix(const SC::CsrMatrix<double> &m, const SC::MatrixMarketOptions &options) {
    try {
        SC::validate_csr(m);
    } catch (const std::exception &e) {
        finding(std::string("accepted a matrix that validate_csr rejects: ") + e.what());
    }
    if (!options.allow_non_finite)
        for (const double v : m.values)
            if (!std::isfinite(v)) finding("accepted a non-finite value");
    long long emptyRows = 0;
    for (int r = 0; r < m.rows; ++r) emptyRows += m.row_offsets[r] == m.row_offsets[r + 1];
    if (emptyRows > options.max_empty_rows) finding("accepted " + std::to_string(emptyRows) + " empty rows");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    SC::MatrixMarketOptions options;
    options.allow_non_finite = size % 2 == 1;  // both settings, chosen by the input itself
    options.max_empty_rows = 1 << 16;          // small row-offset arrays keep each run fast
    std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
    try {
        checkMatrix(SC::read_matrix_market(in, "<fuzz>", options), options);
    } catch (const SC::matrix_market_error &e) {
        if (!printableLine(e.what())) finding(std::string("error message not one printable line: ") + e.what());
    } catch (const std::exception &e) {
        finding(std::string("threw something other than matrix_market_error: ") + e.what());
    }
    return 0;
}

// The host side of SpMV's 16-bit values (detail/spmv/value_types.h, io/matrix_market.h): the types
// alpha and beta take, the rounding a DeviceCsr<__half> or <__nv_bfloat16> applies to a float or
// double host matrix (to nearest, once), and validate_csr on a 16-bit host matrix.
#include <gtest/gtest.h>

#include <stream_compaction/detail/spmv/value_types.h>
#include <stream_compaction/io/matrix_market.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace SC = StreamCompaction;

static_assert(std::is_same_v<SC::spmv_scalar_t<float>, float> && std::is_same_v<SC::spmv_scalar_t<double>, double>,
              "float and double compute in themselves");
static_assert(std::is_same_v<SC::spmv_scalar_t<__half>, float> &&
                  std::is_same_v<SC::spmv_scalar_t<__nv_bfloat16>, float>,
              "16-bit values compute in float");
static_assert(SC::is_half_precision_v<__half> && SC::is_half_precision_v<__nv_bfloat16> &&
              !SC::is_half_precision_v<float>);

namespace {

template <class V>
unsigned short bits(V v) {
    static_assert(sizeof(V) == 2);
    unsigned short out = 0;
    std::memcpy(&out, &v, sizeof out);
    return out;
}

}  // namespace

// Just above the midpoint of 1 and the next value (1 + 2^-11 for half, 1 + 2^-8 for bfloat16, plus
// 2^-40): to nearest from the double is up; through a float the 2^-40 is lost, leaving a tie that
// goes to even, 1. The double is rounded once, straight to 16 bits.
TEST(SpmvHalf, DoublesRoundOnceToNearest) {
    const double above_half_midpoint = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    EXPECT_EQ(bits(SC::detail::spmv_round<__half>(above_half_midpoint)), 0x3C01);
    EXPECT_EQ(bits(SC::detail::spmv_round<__half>(static_cast<float>(above_half_midpoint))), 0x3C00);
    const double above_bfloat16_midpoint = 1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
    EXPECT_EQ(bits(SC::detail::spmv_round<__nv_bfloat16>(above_bfloat16_midpoint)), 0x3F81);
    EXPECT_EQ(bits(SC::detail::spmv_round<__nv_bfloat16>(static_cast<float>(above_bfloat16_midpoint))), 0x3F80);
}

TEST(SpmvHalf, RoundingAndWideningAreExactWhereTheyCanBe) {
    for (const double v : {0.0, -0.125, 1.0, 65504.0, std::ldexp(1.0, -24)})  // representable in half
        EXPECT_EQ(static_cast<double>(SC::detail::spmv_widen(SC::detail::spmv_round<__half>(v))), v);
    EXPECT_TRUE(std::isinf(SC::detail::spmv_widen(SC::detail::spmv_round<__half>(70000.0))));  // past 65504
    EXPECT_EQ(SC::detail::spmv_widen(SC::detail::spmv_round<__nv_bfloat16>(70000.0)), 70144.0f);  // 8 bits kept
    EXPECT_EQ(SC::detail::spmv_round<float>(0.1), 0.1f);
    EXPECT_EQ(SC::detail::spmv_round<double>(0.1f), static_cast<double>(0.1f));
}

TEST(SpmvHalf, ValidateCsrTakesAnyValueType) {
    SC::CsrMatrix<__half> m;
    m.rows = 2;
    m.cols = 3;
    m.row_offsets = {0, 1, 2};
    m.column_indices = {2, 0};
    m.values = {SC::detail::spmv_round<__half>(1.0), SC::detail::spmv_round<__half>(-2.0)};
    EXPECT_NO_THROW(SC::validate_csr(m));
    m.values.pop_back();
    EXPECT_THROW(SC::validate_csr(m), std::invalid_argument);
    SC::CsrMatrix<__nv_bfloat16, std::int64_t> wide;
    wide.rows = 1;
    wide.cols = 1;
    wide.row_offsets = {0, 1};
    wide.column_indices = {1};  // outside [0, cols)
    wide.values = {SC::detail::spmv_round<__nv_bfloat16>(1.0)};
    EXPECT_THROW(SC::validate_csr(wide), std::invalid_argument);
}

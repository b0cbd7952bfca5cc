// The benchmark's report (bench/report.h): rows before any copy was measured (an anchor program
// timing only the merge or segmented-sort part) have no % of copy, and rows after one are
// measured against it.
#include "report.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

namespace {

std::string csvOf(const std::function<void(bench::Report &)> &add) {
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::tmpfile(), std::fclose);
    bench::Report report(file.get());
    add(report);
    std::rewind(file.get());
    std::string text;
    for (int c = std::fgetc(file.get()); c != EOF; c = std::fgetc(file.get())) text += static_cast<char>(c);
    return text;
}

TEST(BenchReport, RowsBeforeAnyCopyHaveNoPercentOfCopy) {
    const bench::Measurement merge{"merge_keys", "cub_3.6", bench::power_of_two(20), "", 0.5, 8e6, 0, true, true};
    const std::string csv = csvOf([&](bench::Report &report) { report.add(merge); });
    // operation, implementation, n, param, median_ms, gbps, items_per_s, gflops, ratio, pct_of_copy, ...
    EXPECT_EQ(csv.rfind("merge_keys,cub_3.6,1048576,,0.500000,16.00,2097152000,,1.0000,,0,1,1,cub_3.6", 0), 0u) << csv;
}

TEST(BenchReport, RowsAfterACopyArePercentOfIt) {
    const bench::Measurement copy{"copy", "cudaMemcpyAsync", bench::power_of_two(20), "", 1.0, 32e6, 0, true, false};
    const bench::Measurement scan{"scan", "ours", bench::power_of_two(20), "", 2.0, 32e6, 256, true, false};
    const std::string csv = csvOf([&](bench::Report &report) {
        report.add(copy, false);
        report.add(scan);
    });
    EXPECT_NE(csv.find(",50.00,256,"), std::string::npos) << csv;
}

}  // namespace

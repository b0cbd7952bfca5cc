// The harness's command line: every bad flag is a one-line error, never a crash.
#include <gtest/gtest.h>

#include "cli.h"

namespace {

const std::vector<std::string> kGroups = {"cpu", "naive"};

ParsedArgs parse(std::vector<const char *> args) {
    args.insert(args.begin(), "harness");
    return parseArgs(int(args.size()), args.data(), 1 << 24, kGroups);
}

}  // namespace

TEST(Cli, DefaultsAndOverrides) {
    ParsedArgs none = parse({});
    EXPECT_TRUE(none.error.empty());
    EXPECT_EQ(none.options.size, 1 << 24);
    EXPECT_FALSE(none.options.seedGiven);

    ParsedArgs all = parse({"--size", "1000", "--block-size", "256", "--seed", "7", "--only", "cpu,naive",
                            "--matrix", "m.mtx", "--bfs-source", "12", "--scan-staging", "portable"});
    ASSERT_TRUE(all.error.empty()) << all.error;
    EXPECT_EQ(all.options.size, 1000);
    EXPECT_EQ(all.options.blockSize, 256);
    EXPECT_EQ(all.options.seed, 7u);
    EXPECT_TRUE(all.options.seedGiven);
    EXPECT_EQ(all.options.only, (std::vector<std::string>{"cpu", "naive"}));
    EXPECT_EQ(all.options.matrixPath, "m.mtx");
    EXPECT_EQ(all.options.bfsSource, 12);
    EXPECT_EQ(none.options.bfsSource, 0);
    EXPECT_EQ(all.options.scanStaging, "portable");
    EXPECT_EQ(none.options.scanStaging, "");
    EXPECT_TRUE(parse({"--help"}).options.help);
}

TEST(Cli, RejectsBadInputWithOneLine) {
    for (const auto &args : std::vector<std::vector<const char *>>{
             {"--size"}, {"--size", "abc"}, {"--size", "3"}, {"--size", "12x"}, {"--size", "-5"},
             {"--size", "99999999999"}, {"--block-size", "100"}, {"--block-size", "2048"},
             {"--seed", "-1"}, {"--only", "gpu"}, {"--only", ""}, {"--frobnicate"}, {"--matrix"},
             {"--bfs-source", "-1"}, {"--bfs-source", "x"}, {"--bfs-source"}, {"--scan-staging", "tma"},
             {"--scan-staging"}}) {
        const ParsedArgs r = parse(args);
        EXPECT_FALSE(r.error.empty()) << args[0];
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
}

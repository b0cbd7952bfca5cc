// The harness's command line: every bad flag is a one-line error, never a crash; a group this build
// left out is refused when asked for, and named when every group runs.
#include <gtest/gtest.h>

#include "cli.h"
#include "harness.h"

#include <string>
#include <vector>

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
             {"--seed", "-1"}, {"--only", "gpu"}, {"--only", ""}, {"--frobnicate"}, {"--matrix"}, {"--matrix", ""},
             {"--bfs-source", "-1"}, {"--bfs-source", "x"}, {"--bfs-source"}, {"--scan-staging", "tma"},
             {"--scan-staging"}}) {
        const ParsedArgs r = parse(args);
        EXPECT_FALSE(r.error.empty()) << args[0];
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
}

namespace {

const std::vector<GroupNotBuilt> kDistributedLeftOut = {{"distributed", "built without NCCL (configure with NCCL)"}};

DeviceStatus noDevice() {
    DeviceStatus status;
    status.reason = "no GPU here";
    return status;
}

}  // namespace

// --only naming a group this build left out is refused with one line naming the group, why and
// how to build it (main exits kExitNotBuilt); the groups that are built pass.
TEST(HarnessGroups, OnlyALeftOutGroupIsRefused) {
    const std::string error = notBuiltError({"cpu", "distributed"}, kDistributedLeftOut);
    EXPECT_NE(error.find("--only distributed"), std::string::npos) << error;
    EXPECT_NE(error.find("built without NCCL (configure with NCCL)"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_EQ(notBuiltError({"cpu", "naive"}, kDistributedLeftOut), "");
    EXPECT_EQ(notBuiltError({}, kDistributedLeftOut), "");  // every group: named by finish(), not refused
    EXPECT_EQ(notBuiltError({"distributed"}, {}), "");      // a build with NCCL
    EXPECT_EQ(kExitNotBuilt, 3);  // documented in usage(); 0, 1, 2 and 77 keep their meanings
    const std::string help = usage("harness", {"cpu"});
    EXPECT_NE(help.find("3 --only names a group this build"), std::string::npos) << help;
}

// A run of every group passes without the groups this build left out, naming each on a line of
// its own; a run of chosen groups does not mention them.
TEST(HarnessGroups, EveryGroupRunNamesTheGroupsLeftOutAndPasses) {
    DeviceStatus device;
    device.usable = true;
    ::testing::internal::CaptureStdout();
    const int everyGroup = Harness({}, device, kDistributedLeftOut).finish();
    const std::string everyGroupOut = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(everyGroup, kExitPassed);
    EXPECT_NE(everyGroupOut.find("\ndistributed: not in this build, not run: built without NCCL (configure with NCCL)\n"),
              std::string::npos)
        << everyGroupOut;

    ::testing::internal::CaptureStdout();
    const int chosen = Harness({"cpu"}, device, kDistributedLeftOut).finish();
    const std::string chosenOut = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(chosen, kExitPassed);
    EXPECT_EQ(chosenOut.find("distributed"), std::string::npos) << chosenOut;

    ::testing::internal::CaptureStdout();
    Harness withoutDevice({}, noDevice(), kDistributedLeftOut);
    withoutDevice.gpuTest("naive", "naive scan", [] { return true; });
    const int skipped = withoutDevice.finish();
    const std::string skippedOut = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(skipped, kExitGpuSkipped) << skippedOut;
    EXPECT_NE(skippedOut.find("1 GPU tests did not run: no GPU here"), std::string::npos) << skippedOut;
}

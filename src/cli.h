#pragma once
// Command line of the harness: flags override the constants at the top of main.cpp.
#include <cstdint>
#include <string>
#include <vector>

struct Options {
    long long size = 0;          // --size N: the power-of-two tests' size (NPOT = size - 3)
    int blockSize = 0;           // --block-size B: every GPU implementation; 0 keeps tuning.h's defaults
    std::uint32_t seed = 0;      // --seed S
    bool seedGiven = false;
    std::vector<std::string> only;  // --only a,b: run just these groups; empty runs all
    std::string matrixPath;         // --matrix FILE.mtx: the SpMV tests' matrix instead of a generated one
                                    // (empty: not given; an empty value is a usage error)
    int bfsSource = 0;              // --bfs-source V: the bfs group's source vertex (checked against its graph in main)
    std::string scanStaging;        // --scan-staging auto|staged|portable; empty keeps the default (auto)
    bool help = false;
};

struct ParsedArgs {
    Options options;
    std::string error;  // one line; empty when the command line is valid
};

// `groups` are the names --only accepts: every group, built or not (main refuses the ones this
// build left out with notBuiltError, harness.h, and its own exit code).
ParsedArgs parseArgs(int argc, const char *const *argv, long long defaultSize,
                     const std::vector<std::string> &groups);

std::string usage(const char *program, const std::vector<std::string> &groups);

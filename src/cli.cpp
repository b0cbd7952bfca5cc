#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <sstream>

namespace {

constexpr long long kMinSize = 4;  // NPOT = SIZE - 3 must leave at least one element

// Whole-string decimal integer in [lo, hi]; false on anything else.
bool parseInteger(const std::string &text, long long lo, long long hi, long long &value) {
    if (text.empty()) return false;
    char *end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || parsed < lo || parsed > hi) return false;
    value = parsed;
    return true;
}

std::string joined(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &name : names) out += (out.empty() ? "" : ", ") + name;
    return out;
}

}  // namespace

ParsedArgs parseArgs(int argc, const char *const *argv, long long defaultSize,
                     const std::vector<std::string> &groups) {
    ParsedArgs result;
    Options &opt = result.options;
    opt.size = defaultSize;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            opt.help = true;
            continue;
        }
        if (flag != "--size" && flag != "--block-size" && flag != "--seed" && flag != "--only" && flag != "--matrix" &&
            flag != "--bfs-source" && flag != "--scan-staging") {
            result.error = "unknown option '" + flag + "' (try --help)";
            return result;
        }
        if (i + 1 >= argc) {
            result.error = "option " + flag + " needs a value";
            return result;
        }
        const std::string value = argv[++i];
        long long number = 0;
        if (flag == "--size") {
            if (!parseInteger(value, kMinSize, INT_MAX, number)) {
                result.error = "--size must be an integer in [4, " + std::to_string(INT_MAX) + "], got '" + value + "'";
                return result;
            }
            opt.size = number;
        } else if (flag == "--block-size") {
            const bool ok = parseInteger(value, 32, 1024, number) && (number & (number - 1)) == 0;
            if (!ok) {
                result.error = "--block-size must be a power of two in [32, 1024], got '" + value + "'";
                return result;
            }
            opt.blockSize = static_cast<int>(number);
        } else if (flag == "--seed") {
            if (!parseInteger(value, 0, UINT32_MAX, number)) {
                result.error = "--seed must be an integer in [0, 4294967295], got '" + value + "'";
                return result;
            }
            opt.seed = static_cast<std::uint32_t>(number);
            opt.seedGiven = true;
        } else if (flag == "--matrix") {
            if (value.empty()) {  // else taken for "no --matrix": the generated matrix, silently
                result.error = "--matrix needs a Matrix Market file name, got ''";
                return result;
            }
            opt.matrixPath = value;
        } else if (flag == "--bfs-source") {
            if (!parseInteger(value, 0, INT_MAX, number)) {
                result.error = "--bfs-source must be a vertex number in [0, " + std::to_string(INT_MAX) + "], got '" +
                               value + "'";
                return result;
            }
            opt.bfsSource = static_cast<int>(number);
        } else if (flag == "--scan-staging") {
            if (value != "auto" && value != "staged" && value != "portable") {
                result.error = "--scan-staging must be auto, staged or portable, got '" + value + "'";
                return result;
            }
            opt.scanStaging = value;
        } else {  // --only
            std::stringstream list(value);
            std::string group;
            while (std::getline(list, group, ',')) {
                if (std::find(groups.begin(), groups.end(), group) == groups.end()) {
                    result.error = "--only: unknown group '" + group + "' (groups: " + joined(groups) + ")";
                    return result;
                }
                opt.only.push_back(group);
            }
            if (opt.only.empty()) {
                result.error = "--only needs at least one group (groups: " + joined(groups) + ")";
                return result;
            }
        }
    }
    return result;
}

std::string usage(const char *program, const std::vector<std::string> &groups) {
    return std::string("usage: ") + program +
           " [--size N] [--block-size B] [--seed S] [--only GROUP[,GROUP...]] [--matrix FILE.mtx]\n"
           "       [--bfs-source V] [--scan-staging MODE] [--help]\n"
           "  --size N        power-of-two test size (default SIZE in src/main.cpp); NPOT = N - 3\n"
           "  --block-size B  threads per block for every GPU implementation (power of two, 32..1024)\n"
           "  --seed S        seed of the random inputs (default: random, printed)\n"
           "  --only GROUPS   run only these groups: " + joined(groups) + "\n"
           "  --matrix FILE   Matrix Market file for the SpMV tests (default: a generated matrix); read\n"
           "                  and checked before any test runs\n"
           "  --bfs-source V  the bfs group's source vertex (default 0); a vertex of its graph\n"
           "  --scan-staging MODE  how the single-pass scan, select_if, select_flagged, unique and the\n"
           "                  by-key scans (reduce_by_key, unique_by_key, run_length_encode) load\n"
           "                  their tiles: auto (default: staged in shared memory by bulk copies on\n"
           "                  sm_90 and later, from part of a wave of tiles: tuning/policies.h),\n"
           "                  staged (at any size, where compiled for sm_90), portable (in registers)\n"
           "Exit code: 0 every test of the selected groups in this build ran and passed (without --only,\n"
           "  a line names each group this build left out, e.g. distributed without NCCL); 1 a test\n"
           "  failed; 2 bad command line or an unusable --matrix file; 3 --only names a group this build\n"
           "  left out (one line says why and how to build it); 4 this binary holds no GPU code for the\n"
           "  device (built for other CUDA architectures: one line names them and the configure flag;\n"
           "  no test ran); 77 nothing failed but GPU tests were skipped (no usable CUDA device).\n";
}

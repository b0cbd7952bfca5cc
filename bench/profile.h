#pragma once
// Which points a run of the benchmarks measures, from SC_BENCH_PROFILE (tools/gpu_check.sh's
// BENCH_PROFILE): "quick" (or unset), the headline points of every family, so that every program
// runs in one 10-minute device command; "full", also the smaller sizes of the sweeps (2^10 up) and
// SpMV on every matrix of the matrix directory, over several commands. An environment variable,
// not a flag: the axes are fixed when the benchmarks register, at static initialisation, before
// NVBench reads its command line (whose --axis still overrides any axis). Plain C++.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {

enum class Profile { Quick, Full };

// The profile asked for; any other value than quick or full ends the program (exit 2), naming it.
inline Profile profile() {
    const char *asked = std::getenv("SC_BENCH_PROFILE");
    if (asked == nullptr || *asked == '\0' || std::strcmp(asked, "quick") == 0) return Profile::Quick;
    if (std::strcmp(asked, "full") == 0) return Profile::Full;
    std::fprintf(stderr, "SC_BENCH_PROFILE must be quick or full, got '%s'\n", asked);
    std::exit(2);
}

// The log2 sizes of an axis n in this profile.
inline std::vector<std::int64_t> profile_log2(std::vector<std::int64_t> quick, std::vector<std::int64_t> full) {
    return profile() == Profile::Full ? full : quick;
}

// 2^first, 2^(first + 2), ..., 2^last: the even steps of a full sweep.
inline std::vector<std::int64_t> every_other_log2(std::int64_t first, std::int64_t last) {
    std::vector<std::int64_t> log2;
    for (std::int64_t k = first; k <= last; k += 2) log2.push_back(k);
    return log2;
}

}  // namespace bench

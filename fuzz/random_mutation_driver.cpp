// A bounded random-mutation driver for a libFuzzer target (LLVMFuzzerTestOneInput), for compilers
// without libFuzzer and as a second, blind search beside it. No coverage feedback: it replays
// every file of the corpus directories unchanged, then applies a few random mutations to random
// corpus files (bit flips, byte edits, cut and copied ranges, dictionary tokens, numbers at the
// edges of int, long long and double) until its time or run budget is spent.
//
// usage: driver [-max_total_time=S] [-runs=N] [-seed=N] [-max_len=N] [-dict=FILE]
//               [-artifact_prefix=PATH] DIR...
// Flags take libFuzzer's spelling so that one command line serves both; others are ignored.
// Exit code 0 when the budget is spent without a finding. A finding (a sanitizer report, an abort,
// an uncaught exception) ends the process as it would under libFuzzer, after the input at fault is
// written to <artifact_prefix>crash-driver.
#include <sanitizer/common_interface_defs.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <exception>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

using Bytes = std::string;

struct Settings {
    double maxSeconds = 60;
    long long maxRuns = -1;  // < 0: no limit but the time
    std::uint64_t seed = 0;  // 0: from the clock (printed, to repeat a run)
    std::size_t maxLength = 4096;
    std::string dictionary;
    std::string artifactPrefix = "./";
    std::vector<std::string> corpusDirs;
};

// The input being run, for the crash handlers.
Bytes g_current;
std::string g_crashPath;

void saveCurrentInput() {
    if (std::FILE *f = std::fopen(g_crashPath.c_str(), "wb")) {
        std::fwrite(g_current.data(), 1, g_current.size(), f);
        std::fclose(f);
        std::fprintf(stderr, "random_mutation_driver: the input at fault is in %s\n", g_crashPath.c_str());
    }
}

void onSanitizerDeath() { saveCurrentInput(); }

[[noreturn]] void onTerminate() {
    std::fprintf(stderr, "random_mutation_driver: uncaught exception\n");
    saveCurrentInput();
    std::abort();
}

bool startsWith(const std::string &text, const char *prefix) { return text.rfind(prefix, 0) == 0; }

Settings parseSettings(int argc, char **argv) {
    Settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const std::string value = arg.substr(arg.find('=') + 1);
        if (startsWith(arg, "-max_total_time=")) s.maxSeconds = std::atof(value.c_str());
        else if (startsWith(arg, "-runs=")) s.maxRuns = std::atoll(value.c_str());
        else if (startsWith(arg, "-seed=")) s.seed = std::strtoull(value.c_str(), nullptr, 10);
        else if (startsWith(arg, "-max_len=")) s.maxLength = std::strtoull(value.c_str(), nullptr, 10);
        else if (startsWith(arg, "-dict=")) s.dictionary = value;
        else if (startsWith(arg, "-artifact_prefix=")) s.artifactPrefix = value;
        else if (startsWith(arg, "-")) std::fprintf(stderr, "random_mutation_driver: ignoring %s\n", arg.c_str());
        else s.corpusDirs.push_back(arg);
    }
    return s;
}

Bytes readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<Bytes> readCorpus(const std::vector<std::string> &dirs) {
    std::vector<Bytes> corpus;
    for (const std::string &dir : dirs) {
        DIR *d = opendir(dir.c_str());
        if (!d) continue;
        std::vector<std::string> names;
        while (const dirent *e = readdir(d))
            if (e->d_name[0] != '.') names.push_back(e->d_name);
        closedir(d);
        std::sort(names.begin(), names.end());  // the same order, hence the same run, for a seed
        for (const std::string &name : names) corpus.push_back(readFile(dir + "/" + name));
    }
    return corpus;
}

// libFuzzer dictionary lines: name="value" or "value", with \\, \" and \xNN escapes; # comments.
std::vector<Bytes> readDictionary(const std::string &path) {
    std::vector<Bytes> tokens;
    if (path.empty()) return tokens;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        const std::size_t open = line.find('"'), close = line.rfind('"');
        if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open) continue;
        Bytes token;
        for (std::size_t i = open + 1; i < close; ++i) {
            if (line[i] != '\\' || i + 1 >= close) {
                token += line[i];
            } else if (line[i + 1] == 'x' && i + 3 < close) {
                token += static_cast<char>(std::strtol(line.substr(i + 2, 2).c_str(), nullptr, 16));
                i += 3;
            } else {
                token += line[++i];
            }
        }
        tokens.push_back(token);
    }
    return tokens;
}

// Values at the edges of what the reader parses: int and long long limits, doubles that
// overflow, underflow and are not finite, signs and malformed numbers.
const char *const kInterestingNumbers[] = {
    "0", "1", "-1", "2", "2147483646", "2147483647", "2147483648", "-2147483648", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e-310", "4.9e-324", "1e-400",
    "1.7976931348623157e308", "1e309", "-1e309", "nan", "-inf", "infinity", "0x1p-1074", "+", "-", ".", "1e", "--1"};

class Mutator {
public:
    Mutator(std::uint64_t seed, std::vector<Bytes> dictionary, std::size_t maxLength)
        : rng_(seed), dictionary_(std::move(dictionary)), maxLength_(maxLength) {}

    Bytes mutate(const std::vector<Bytes> &corpus) {
        Bytes data = corpus[below(corpus.size())];
        const int edits = 1 + static_cast<int>(below(6));
        for (int i = 0; i < edits; ++i) mutateOnce(data, corpus);
        if (data.size() > maxLength_) data.resize(maxLength_);
        return data;
    }

private:
    std::size_t below(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

    // Start of a whitespace-separated number in `data`, or npos.
    std::size_t someNumber(const Bytes &data) {
        std::vector<std::size_t> starts;
        for (std::size_t i = 0; i < data.size(); ++i)
            if (std::isdigit(static_cast<unsigned char>(data[i])) && (i == 0 || std::isspace(static_cast<unsigned char>(data[i - 1]))))
                starts.push_back(i);
        return starts.empty() ? Bytes::npos : starts[below(starts.size())];
    }

    void mutateOnce(Bytes &data, const std::vector<Bytes> &corpus) {
        const std::size_t at = below(data.size() + 1);
        switch (below(9)) {
        case 0:  // flip a bit
            if (!data.empty()) data[below(data.size())] ^= static_cast<char>(1u << below(8));
            break;
        case 1:  // a byte the format cares about
            if (!data.empty()) data[below(data.size())] = " \n\t%-+.e0912"[below(12)];
            break;
        case 2:  // insert a random byte
            data.insert(at, 1, static_cast<char>(below(256)));
            break;
        case 3:  // erase a range
            if (!data.empty()) data.erase(below(data.size()), 1 + below(16));
            break;
        case 4: {  // copy a range elsewhere
            if (data.empty()) break;
            const std::size_t from = below(data.size());
            data.insert(at, data.substr(from, 1 + below(64)));
            break;
        }
        case 5:  // a dictionary token
            if (!dictionary_.empty()) data.insert(at, dictionary_[below(dictionary_.size())]);
            break;
        case 6:  // an interesting number in place of one
        case 7: {
            const std::size_t start = someNumber(data);
            const char *number = kInterestingNumbers[below(std::size(kInterestingNumbers))];
            if (start == Bytes::npos) {
                data.insert(at, number);
                break;
            }
            std::size_t end = start;
            while (end < data.size() && !std::isspace(static_cast<unsigned char>(data[end]))) ++end;
            data.replace(start, end - start, number);
            break;
        }
        default: {  // splice: this input's head, another's tail
            const Bytes &other = corpus[below(corpus.size())];
            data = data.substr(0, at) + other.substr(below(other.size() + 1));
            break;
        }
        }
    }

    std::mt19937_64 rng_;
    std::vector<Bytes> dictionary_;
    std::size_t maxLength_;
};

void run(const Bytes &input) {
    g_current = input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(g_current.data()), g_current.size());
}

}  // namespace

int main(int argc, char **argv) {
    Settings settings = parseSettings(argc, argv);
    if (settings.seed == 0)
        settings.seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    g_crashPath = settings.artifactPrefix + "crash-driver";
    __sanitizer_set_death_callback(onSanitizerDeath);
    std::set_terminate(onTerminate);

    std::vector<Bytes> corpus = readCorpus(settings.corpusDirs);
    if (corpus.empty()) corpus.push_back("");
    for (const Bytes &input : corpus) run(input);

    Mutator mutator(settings.seed, readDictionary(settings.dictionary), settings.maxLength);
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    long long runs = 0;
    while ((settings.maxRuns < 0 || runs < settings.maxRuns) && elapsed() < settings.maxSeconds) {
        run(mutator.mutate(corpus));
        ++runs;
    }
    std::printf("random_mutation_driver: %zu corpus inputs, %lld mutated runs in %.1f s (seed %llu), no finding\n",
                corpus.size(), runs, elapsed(), static_cast<unsigned long long>(settings.seed));
    return 0;
}

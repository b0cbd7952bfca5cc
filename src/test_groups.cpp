#include "test_groups.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace {

// Built up during static initialization by the RegisterTests objects, kept sorted by rank;
// read-only after.
std::vector<TestRunner> &registry() {
    static std::vector<TestRunner> runners;
    return runners;
}

}  // namespace

const std::vector<TestRunner> &testRunners() { return registry(); }

std::vector<std::string> testGroupNames() {
    std::vector<std::string> names;
    for (const TestRunner &runner : registry())
        for (const std::string &group : runner.groups)
            if (std::find(names.begin(), names.end(), group) == names.end()) names.push_back(group);
    return names;
}

RegisterTests::RegisterTests(int rank, std::vector<std::string> groups,
                             std::function<void(Harness &, const GroupContext &)> run) {
    std::vector<TestRunner> &runners = registry();
    for (const TestRunner &runner : runners)
        if (runner.rank == rank) throw std::logic_error("two harness test runners of rank " + std::to_string(rank));
    const auto after = std::find_if(runners.begin(), runners.end(), [&](const TestRunner &r) { return r.rank > rank; });
    runners.insert(after, TestRunner{rank, std::move(groups), std::move(run)});
}

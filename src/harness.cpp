#include "harness.h"

#include <string>
#include <utility>
#include <vector>

namespace {

// Built up during static initialization by the LeftOutOfThisBuild objects; read-only after.
std::vector<GroupNotBuilt> &notBuiltRegistry() {
    static std::vector<GroupNotBuilt> groups;
    return groups;
}

}  // namespace

const std::vector<GroupNotBuilt> &groupsNotBuilt() { return notBuiltRegistry(); }

LeftOutOfThisBuild::LeftOutOfThisBuild(std::string name, std::string reason) {
    notBuiltRegistry().push_back({std::move(name), std::move(reason)});
}

std::string notBuiltError(const std::vector<std::string> &only, const std::vector<GroupNotBuilt> &notBuilt) {
    for (const std::string &group : only)
        for (const GroupNotBuilt &left : notBuilt)
            if (left.name == group) return "--only " + group + ": this build left the group out: " + left.reason;
    return "";
}

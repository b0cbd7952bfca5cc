#pragma once
// Where the tests find the shared SuiteSparse matrices: $SC_MATRIX_DIR, else the repository's
// .data/matrices (the copy a GPU machine receives), else ../shared/data/matrices beside the
// repository. A test names the matrices it needs (findMatrixFiles) and REQUIRE_MATRIX_FILES
// fails when one of them is missing while any of these directories exists (the matrices are
// meant to be there), and skips, naming the missing ones, where none exists.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

// The directories searched, in order; an unset $SC_MATRIX_DIR is left out.
inline std::vector<std::string> matrixDirectories() {
    std::vector<std::string> dirs;
    if (const char *fromEnvironment = std::getenv("SC_MATRIX_DIR"); fromEnvironment && *fromEnvironment)
        dirs.push_back(fromEnvironment);
    dirs.push_back(SC_MATRIX_DIR);
    dirs.push_back(SC_SHARED_MATRIX_DIR);
    return dirs;
}

// The path of `name` in the first of `dirs` that holds it; empty when none does.
inline std::string findMatrixFile(const std::string &name, const std::vector<std::string> &dirs = matrixDirectories()) {
    for (const std::string &dir : dirs) {
        const std::string path = dir + "/" + name;
        if (std::ifstream(path).good()) return path;
    }
    return "";
}

// The matrices a test names, looked up together.
struct MatrixFiles {
    std::vector<std::string> paths;    // each name's path, in the order named; empty where missing
    std::vector<std::string> missing;  // the names no directory holds
    bool anyDirectoryExists = false;   // then a missing name is a failure, not a skip
    std::string searched;              // the directories, each marked whether it exists

    // "missing a.mtx, b.mtx (searched: DIR (exists), DIR (absent))"
    std::string report() const {
        std::string names;
        for (const std::string &name : missing) names += (names.empty() ? "" : ", ") + name;
        return "missing " + names + " (searched: " + searched + ")";
    }
};

inline MatrixFiles findMatrixFiles(const std::vector<std::string> &names,
                                   const std::vector<std::string> &dirs = matrixDirectories()) {
    MatrixFiles files;
    for (const std::string &dir : dirs) {
        std::error_code error;
        const bool exists = std::filesystem::is_directory(dir, error);
        files.anyDirectoryExists = files.anyDirectoryExists || exists;
        files.searched += (files.searched.empty() ? "" : ", ") + dir + (exists ? " (exists)" : " (absent)");
    }
    for (const std::string &name : names) {
        files.paths.push_back(findMatrixFile(name, dirs));
        if (files.paths.back().empty()) files.missing.push_back(name);
    }
    return files;
}

// In a test body, after findMatrixFiles: unless every matrix was found, returns from the test,
// failing when a matrix directory exists and skipping when none does, with the missing names. A
// test with other inputs too checks those and the matrices found first, then this.
#define REQUIRE_MATRIX_FILES(files)                                       \
    do {                                                                  \
        if ((files).missing.empty()) break;                               \
        if ((files).anyDirectoryExists) FAIL() << (files).report();       \
        GTEST_SKIP() << (files).report();                                 \
    } while (0)

// The shared matrices with their statistics from SOURCES.md (nnz after mirroring symmetric files).
struct SharedMatrix {
    const char *file;
    int rows, cols;
    long long nnz;
    int emptyRows;
};

inline const SharedMatrix kSharedMatrices[] = {
    {"bcsstk13.mtx", 2003, 2003, 83883, 0},
    {"bcsstk33.mtx", 8738, 8738, 591904, 0},
    {"memplus.mtx", 17758, 17758, 126150, 0},
    {"orani678.mtx", 2529, 2529, 90158, 0},
    {"cage10.mtx", 11397, 11397, 150645, 0},
    {"luxembourg_osm.mtx", 114599, 114599, 239332, 0},
    {"soc-Epinions1.mtx", 75888, 75888, 508837, 15547},
    {"ca-AstroPh.mtx", 18772, 18772, 396160, 0},
    {"Oregon-2.mtx", 11806, 11806, 65460, 345},
    {"vsp_model1_crew1_cr42_south31.mtx", 45101, 45101, 379952, 0},
    {"lp_ship04l.mtx", 402, 2166, 6380, 42},
    {"D6-6.mtx", 120576, 23740, 146880, 69816},
};

// The names of kSharedMatrices, for the tests that run on every one of them.
inline std::vector<std::string> sharedMatrixNames() {
    std::vector<std::string> names;
    for (const SharedMatrix &shared : kSharedMatrices) names.push_back(shared.file);
    return names;
}

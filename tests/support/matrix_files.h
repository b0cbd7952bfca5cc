#pragma once
// Where the tests find the shared SuiteSparse matrices: $SC_MATRIX_DIR, else the repository's
// .data/matrices (the copy a GPU machine receives), else ../shared/data/matrices beside the
// repository. Empty when none of them holds `name`: the test skips.
#include <cstdlib>
#include <fstream>
#include <string>

inline std::string findMatrixFile(const std::string &name) {
    const char *fromEnvironment = std::getenv("SC_MATRIX_DIR");
    for (const std::string &dir : {std::string(fromEnvironment ? fromEnvironment : ""), std::string(SC_MATRIX_DIR),
                                  std::string(SC_SHARED_MATRIX_DIR)}) {
        if (dir.empty()) continue;
        const std::string path = dir + "/" + name;
        if (std::ifstream(path).good()) return path;
    }
    return "";
}

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

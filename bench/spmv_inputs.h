#pragma once
// The SpMV part's inputs (sc_nvbench_spmv, nvbench/spmv.cu): the matrices, every .mtx file of a
// directory by file name (each named for its stem), then three generated ones, each made (read or
// generated) only when asked for; and x, uniform in [-1, 1) from std::mt19937(2024).
#include <stream_compaction/io/matrix_generators.h>
#include <stream_compaction/io/matrix_market.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace bench {

// A matrix by name, made only when its turn comes, so that one at a time need be in memory.
struct MatrixSource {
    std::string name;
    std::function<StreamCompaction::CsrMatrix<double>()> make;
};

// Every .mtx file of `dir` (none when dir is empty or not a directory), then the generated matrices.
inline std::vector<MatrixSource> spmv_matrix_sources(const std::string &dir) {
    std::vector<std::filesystem::path> files;
    std::error_code error;
    if (!dir.empty() && std::filesystem::is_directory(dir, error))
        for (const auto &entry : std::filesystem::directory_iterator(dir))
            if (entry.is_regular_file() && entry.path().extension() == ".mtx") files.push_back(entry.path());
    std::sort(files.begin(), files.end(), [](const auto &a, const auto &b) { return a.filename() < b.filename(); });
    std::vector<MatrixSource> sources;
    for (const auto &path : files)
        sources.push_back(
            {path.stem().string(), [path] { return StreamCompaction::read_matrix_market(path.string()); }});
    sources.push_back({"poisson_2d_2048", [] { return StreamCompaction::poisson_2d(2048); }});
    sources.push_back({"poisson_3d_160", [] { return StreamCompaction::poisson_3d(160); }});
    // As the tests' large power-law matrix: about 12 nonzeros per row, rows up to 2^22 long.
    sources.push_back({"power_law_2^22", [] { return StreamCompaction::power_law(1 << 22, 1 << 22, 1.5, 4, 2024); }});
    return sources;
}

constexpr std::uint32_t kSpmvVectorSeed = 2024;

// x: `count` values uniform in [-1, 1), the same for every algorithm and run.
template <class V>
std::vector<V> spmv_vector(int count) {
    std::mt19937 rng(kSpmvVectorSeed);
    std::uniform_real_distribution<double> unit(-1, 1);
    std::vector<V> v(count);
    for (V &x : v) x = static_cast<V>(unit(rng));
    return v;
}

}  // namespace bench

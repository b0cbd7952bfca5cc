#pragma once
// The start of every benchmark program's report: the CSV of --csv opened, and which GPU runs, with
// what, and how the times are taken, printed and written at the top of the CSV (the "# gpu:" line
// is what the plots and bench/plot/anchors.py read). No CCCL here: each program names its own.
#include "options.h"
#include "report.h"
#include "timing.h"

#include <stream_compaction/support/cuda_check.h>

#include <cuda_runtime.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>

namespace bench {

using CsvFile = std::unique_ptr<std::FILE, int (*)(std::FILE *)>;

// Opens --csv, if given (throws naming the file when it cannot be written), and reports the run:
// "<program> on GPU <d>: <GPU>", "<date>, CUDA runtime and driver, <libraries>", the timing method.
inline CsvFile start_report(const char *program, const Options &options, const std::string &libraries) {
    CsvFile csv(nullptr, std::fclose);
    if (!options.csv.empty()) {
        csv.reset(std::fopen(options.csv.c_str(), "w"));
        if (!csv) throw std::runtime_error("cannot write " + options.csv + ": " + std::strerror(errno));
    }
    int device = 0, runtime = 0, driver = 0;
    cudaDeviceProp prop{};
    SC_CUDA_CHECK(cudaGetDevice(&device));
    SC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    SC_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    SC_CUDA_CHECK(cudaDriverGetVersion(&driver));
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
    const std::string machine = std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
                                std::to_string(prop.minor) + "), " + std::to_string(prop.multiProcessorCount) +
                                " SMs, L2 " + fixed(prop.l2CacheSize / 1048576.0, 1) + " MiB, " +
                                fixed(prop.totalGlobalMem / 1073741824.0, 1) + " GiB";
    const std::string software = "CUDA runtime " + major_minor(runtime, 1000, 10) + ", driver " +
                                 major_minor(driver, 1000, 10) + ", " + libraries;
    std::printf("%s on GPU %d: %s\n%s, %s\n", program, device, machine.c_str(), date, software.c_str());
    std::printf("median of %d runs after %d warm-ups; runs under %zu MiB rotate through copies of their data\n",
                options.runs, kWarmups, kRotateBelowBytes >> 20);
    if (csv) {
        std::fprintf(csv.get(), "# gpu: %s, %s\n# %s; %s; median of %d runs\n", prop.name, date, machine.c_str(),
                     software.c_str(), options.runs);
        std::fputs(kCsvColumns, csv.get());
        std::fflush(csv.get());
    }
    return csv;
}

}  // namespace bench

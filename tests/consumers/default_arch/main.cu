// The primitives whose fast paths need sm_90 (tiles staged by bulk copies, one-cluster reductions),
// called from code compiled for whatever architecture the consumer's build chose, above the sizes
// where those paths are taken on an H100, each compared with the CPU on poisoned outputs. Where the
// code was compiled for an older architecture, the portable paths must run, never an empty kernel.
// Exit codes: 0 pass, 1 fail, 77 no CUDA device.
#include <stream_compaction/device/by_key.cuh>
#include <stream_compaction/device/reduce.cuh>
#include <stream_compaction/device/scan.cuh>
#include <stream_compaction/device/select.cuh>
#include <stream_compaction/support/device_buffer.h>
#include <stream_compaction/support/device_probe.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace SC = StreamCompaction;

namespace {

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

__global__ void compiled_architecture_probe() {}

int passes = 0, failures = 0;

void check(bool ok, const std::string &what) {
    std::printf("%s: %s\n", what.c_str(), ok ? "ok" : "FAIL");
    ++(ok ? passes : failures);
}

template <class T>
SC::DeviceBuffer<T> poisoned(std::size_t n) {
    SC::DeviceBuffer<T> buffer(n);
    SC_CUDA_CHECK(cudaMemset(buffer.get(), 0xA5, n * sizeof(T)));
    return buffer;
}

template <class T>
std::vector<T> download(const SC::DeviceBuffer<T> &buffer, std::size_t n) {
    std::vector<T> out(n);
    buffer.copy_to_host(out.data(), n);
    return out;
}

std::size_t download_count(const SC::DeviceBuffer<std::size_t> &count) { return download(count, 1)[0]; }

// Runs of 1 to 8 equal keys, small values, for the by-key calls; odd and even for the select.
std::vector<int> make_keys(std::size_t n) {
    std::vector<int> keys(n);
    std::uint32_t state = 12345u;
    int key = 0;
    for (std::size_t i = 0; i < n;) {
        state = state * 1664525u + 1013904223u;
        const std::size_t run = 1 + (state >> 29);
        ++key;
        for (std::size_t j = 0; j < run && i < n; ++j) keys[i++] = key % 1000 - 500;
    }
    return keys;
}

void scan_check(const std::vector<int> &in) {
    const std::size_t n = in.size();
    auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
    auto d_out = poisoned<int>(n);
    const std::size_t bytes = SC::scan_temp_bytes<int>(n);
    SC::DeviceBuffer<char> d_temp(bytes);
    SC::exclusive_scan(d_in.get(), d_out.get(), n, SC::Sum{}, 0, d_temp.get(), bytes);
    std::vector<int> expected(n);
    int running = 0;
    for (std::size_t i = 0; i < n; ++i) expected[i] = running, running += in[i];
    check(download(d_out, n) == expected, "exclusive_scan of " + std::to_string(n) + " ints");
}

// A call that keeps some of `in` (select_if, unique): `call(d_in, d_out, d_count, n, d_temp, bytes)`
// with `bytes` of temporary storage must write `expected` and its count.
template <class Call>
void selection_check(const char *name, const std::vector<int> &in, std::size_t bytes, Call call,
                     const std::vector<int> &expected) {
    const std::size_t n = in.size();
    auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
    auto d_out = poisoned<int>(n);
    auto d_count = poisoned<std::size_t>(1);
    SC::DeviceBuffer<char> d_temp(bytes);
    call(d_in.get(), d_out.get(), d_count.get(), n, d_temp.get(), bytes);
    const std::size_t count = download_count(d_count);
    check(count == expected.size() && download(d_out, count) == expected,
          std::string(name) + " of " + std::to_string(n) + " ints (" + std::to_string(count) + " kept)");
}

void select_check(const std::vector<int> &in) {
    std::vector<int> odd;
    std::copy_if(in.begin(), in.end(), std::back_inserter(odd), IsOdd{});
    selection_check("select_if", in, SC::select_temp_bytes<int>(in.size()),
                    [](const int *d_in, int *d_out, std::size_t *d_count, std::size_t n, void *d_temp,
                       std::size_t bytes) { SC::select_if(d_in, d_out, d_count, n, IsOdd{}, d_temp, bytes); },
                    odd);
}

void unique_check(const std::vector<int> &in) {
    std::vector<int> firsts(in);
    firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
    selection_check("unique", in, SC::unique_temp_bytes<int>(in.size()),
                    [](const int *d_in, int *d_out, std::size_t *d_count, std::size_t n, void *d_temp,
                       std::size_t bytes) { SC::unique(d_in, d_out, d_count, n, SC::EqualTo{}, d_temp, bytes); },
                    firsts);
}

void by_key_check(const std::vector<int> &keys) {
    const std::size_t n = keys.size();
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i % 7) - 3;
    std::vector<int> unique_keys, sums, lengths;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1]) {
            unique_keys.push_back(keys[i]);
            sums.push_back(0);
            lengths.push_back(0);
        }
        sums.back() += values[i];
        ++lengths.back();
    }
    const std::size_t runs = unique_keys.size();
    auto d_keys = SC::DeviceBuffer<int>::from_host(keys.data(), n);
    auto d_values = SC::DeviceBuffer<int>::from_host(values.data(), n);
    auto d_keys_out = poisoned<int>(n);
    auto d_values_out = poisoned<int>(n);
    auto d_count = poisoned<std::size_t>(1);
    const std::size_t bytes =
        std::max(SC::reduce_by_key_temp_bytes<int, int>(n), SC::run_length_encode_temp_bytes<int>(n));
    SC::DeviceBuffer<char> d_temp(bytes);
    SC::reduce_by_key(d_keys.get(), d_values.get(), d_keys_out.get(), d_values_out.get(), d_count.get(), n, SC::Sum{},
                      SC::EqualTo{}, d_temp.get(), bytes);
    std::size_t count = download_count(d_count);
    check(count == runs && download(d_keys_out, count) == unique_keys && download(d_values_out, count) == sums,
          "reduce_by_key of " + std::to_string(n) + " ints (" + std::to_string(count) + " runs)");

    d_keys_out = poisoned<int>(n);
    d_values_out = poisoned<int>(n);
    d_count = poisoned<std::size_t>(1);
    SC::run_length_encode(d_keys.get(), d_keys_out.get(), d_values_out.get(), d_count.get(), n, d_temp.get(), bytes);
    count = download_count(d_count);
    check(count == runs && download(d_keys_out, count) == unique_keys && download(d_values_out, count) == lengths,
          "run_length_encode of " + std::to_string(n) + " ints (" + std::to_string(count) + " runs)");
}

void reduce_check(const std::vector<int> &all, std::size_t n) {
    const std::vector<int> in(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    auto d_in = SC::DeviceBuffer<int>::from_host(in.data(), n);
    auto d_out = poisoned<int>(1);
    const std::size_t bytes = SC::reduce_temp_bytes<int>(n);
    SC::DeviceBuffer<char> d_temp(bytes);
    SC::reduce(d_in.get(), d_out.get(), n, SC::Sum{}, 0, d_temp.get(), bytes);
    long long expected = 0;
    for (int x : in) expected += x;
    check(download(d_out, 1)[0] == static_cast<int>(expected), "reduce (sum) of " + std::to_string(n) + " ints");
}

}  // namespace

int main() {
    try {
        const SC::DeviceStatus device = SC::probe_device();
        if (!device.usable) {
            std::printf("skipped: %s\n", device.reason.c_str());
            return 77;
        }
        cudaFuncAttributes attributes{};
        SC_CUDA_CHECK(cudaFuncGetAttributes(&attributes, compiled_architecture_probe));
        std::printf("GPU: %s; this program's kernels: PTX for compute_%d, running as sm_%d code\n",
                    device.description.c_str(), attributes.ptxVersion, attributes.binaryVersion);
        // Above every staging threshold on an H100 or H200 (half a wave of staged tiles for the
        // scan, one for the select and unique, 0.4 for the by-key scans: tuning/policies.h).
        const std::vector<int> keys = make_keys((std::size_t{1} << 26) + 5);
        scan_check(keys);
        select_check(keys);
        unique_check(keys);
        by_key_check(keys);
        by_key_check(std::vector<int>(keys.begin(), keys.begin() + (1 << 22) + 5));
        reduce_check(keys, 10000);  // one block of up to 1024 threads
        reduce_check(keys, 60000);  // one thread block cluster where compiled for sm_90
        reduce_check(keys, std::size_t{1} << 24);
        std::printf("%d passed, %d failed\n", passes, failures);
        return failures == 0 ? 0 : 1;
    } catch (const std::exception &e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}

#pragma once
// Shared by the distributed GPU tests: the ranks of this process (one per visible GPU, made once),
// shard shapes, shards of a global array, and per-rank streams.
#include <gtest/gtest.h>

#include <stream_compaction/distributed/local_group.h>
#include <stream_compaction/support/cuda_check.h>

#include "gpu_test_util.h"
#include "robustness_util.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace dist_test {

namespace D = StreamCompaction::distributed;

// NVLink SHARP (NVLS) stays off in every program of the project that starts NCCL, unless the
// environment says otherwise: it needs multicast objects some machines do not lend.
inline void keep_nvls_off() { setenv("NCCL_NVLS_ENABLE", "0", 0); }

// The ranks of this process: one per visible GPU, communicators made once by ncclCommInitAll.
inline std::unique_ptr<D::LocalGroup> &group_storage() {
    static std::unique_ptr<D::LocalGroup> made;
    return made;
}

inline D::LocalGroup &group() {
    std::unique_ptr<D::LocalGroup> &made = group_storage();
    if (!made) {
        keep_nvls_off();
        made = std::make_unique<D::LocalGroup>();
    }
    return *made;
}

// Destroys the communicators while CUDA is still up (main calls it before returning; a static
// destructor would run after the runtime's own teardown may have begun).
inline void release_group() { group_storage().reset(); }

// Skips without a device; otherwise the ranks are ready.
class Distributed : public ::testing::Test {
protected:
    void SetUp() override {
        SKIP_WITHOUT_GPU();
        ranks_ = group().size();
    }
    int ranks_ = 0;
};

// A named split of a global array over the ranks.
struct Shape {
    std::string name;
    std::vector<std::size_t> sizes;
};

// The shapes every primitive is checked on, for `ranks` ranks: balanced, very different sizes
// with empty shards, everything on one rank (the last), nothing at all, one item.
inline std::vector<Shape> shard_shapes(int ranks, std::size_t scale = 20000) {
    std::vector<Shape> shapes;
    shapes.push_back({"balanced", std::vector<std::size_t>(ranks, scale + 3)});
    std::vector<std::size_t> ragged(ranks);
    for (int r = 0; r < ranks; ++r) ragged[r] = r % 3 == 0 ? 8 * scale + 1 : r % 3 == 1 ? 0 : 17;
    shapes.push_back({"ragged", ragged});
    std::vector<std::size_t> one(ranks, 0);
    one[ranks - 1] = 5 * scale;
    shapes.push_back({"all on the last rank", one});
    shapes.push_back({"empty", std::vector<std::size_t>(ranks, 0)});
    std::vector<std::size_t> single(ranks, 0);
    single[0] = 1;
    shapes.push_back({"one item", single});
    return shapes;
}

// Shard r of `global` under `sizes` (the concatenation in rank order).
template <class T>
std::vector<T> shard_of(const std::vector<T> &global, const std::vector<std::size_t> &sizes, int rank) {
    std::size_t begin = 0;
    for (int r = 0; r < rank; ++r) begin += sizes[r];
    return std::vector<T>(global.begin() + begin, global.begin() + begin + sizes[rank]);
}

template <class T>
std::vector<T> concatenate(const std::vector<std::vector<T>> &parts) {
    std::vector<T> all;
    for (const auto &p : parts) all.insert(all.end(), p.begin(), p.end());
    return all;
}

// A non-blocking stream and the poison byte of the single-GPU robustness tests.
using robustness::kPoisonByte;
using robustness::Stream;

}  // namespace dist_test

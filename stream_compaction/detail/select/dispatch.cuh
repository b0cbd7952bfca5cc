#pragma once
// Select and partition dispatch: temporary storage, block size, the stable partition's count pass
// and the launch.
#include <stream_compaction/detail/scan/dispatch.cuh>
#include <stream_compaction/detail/select/kernels.cuh>
#include <stream_compaction/detail/util/input.cuh>
#include <stream_compaction/support/call_environment.h>
#include <stream_compaction/support/cuda_check.h>
#include <stream_compaction/support/device_api.h>
#include <stream_compaction/tuning/call_tuning.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

namespace StreamCompaction {
namespace detail {

// Storage: the call state, the stable partition's order, the tile status words (sized for the
// smallest block size).
template <class T>
TempLayout<3> select_layout(std::size_t n) {
    const std::size_t max_tiles = (n + tile_items_for<T>(kWarpThreads) - 1) / tile_items_for<T>(kWarpThreads);
    return temp_layout(sizeof(CallState), sizeof(StableOrder), TileStatus<u64>::bytes(max_tiles));
}

template <class T>
std::size_t select_temp_bytes_for(std::size_t n) {
    return select_layout<T>(n).bytes();
}

// A select or partition launch, planned: its grid, its shared memory and its arguments.
template <class T, class Keep, class Input, class Output>
struct SelectLaunch {
    int threads;
    std::size_t staging_bytes;  // dynamic shared memory: one tile of T
    StableOrder *order;         // the stable partition's (params.order)
    SelectParams<T, Keep, Input, Output> params;
};

// Whether a launch reads T's from a pointer and writes them to a pointer: the staged kernel's and
// the vector loads' condition (any other input or output takes the portable kernel, an item at a
// time; the device API hands pointers over as const T * and T *: read_only_input (util/input.cuh), and
// unwrap_input for the output).
template <class T, class Input, class Output>
constexpr bool pointers_of_items() {
    return std::is_same_v<Input, const T *> && std::is_same_v<Output, T *>;
}

// The checks every select and partition makes, then the plan of its launch; none when n == 0,
// after writing the count (0).
template <class T, class Keep, class Input, class Output>
std::optional<SelectLaunch<T, Keep, Input, Output>> plan_select(const char *name, Input d_in, Output d_out,
                                                                std::size_t *d_count, std::size_t n, Keep keep,
                                                                void *d_temp, std::size_t temp_bytes,
                                                                const CallEnvironment &env) {
    const cudaStream_t stream = env.stream;
    require_device_input(name, n, d_in, "input");
    require_device_input(name, n, d_out, "output");
    if (d_count == nullptr) throw std::invalid_argument(std::string(name) + ": null count pointer");
    if (n == 0) {
        SC_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
        return std::nullopt;
    }
    require_temp_storage(name, d_temp, temp_bytes, select_temp_bytes_for<T>(n));
    const int threads = single_pass_threads(env.tuning);
    const std::size_t tile_items = tile_items_for<T>(threads);
    const auto pieces = select_layout<T>(n).carve(d_temp);
    auto *order = reinterpret_cast<StableOrder *>(pieces[1]);
    bool vectorized = false;
    if constexpr (std::is_same_v<Input, const T *>) vectorized = vector_items<T>() * sizeof(T) == 16 && aligned16(d_in);
    const SelectParams<T, Keep, Input, Output> params{d_in,
                                                      d_out,
                                                      n,
                                                      keep,
                                                      /*status_storage=*/pieces[2],
                                                      /*tiles=*/(n + tile_items - 1) / tile_items,
                                                      /*state=*/reinterpret_cast<CallState *>(pieces[0]),
                                                      /*call_tag=*/0,  // launch_select's, one per launch
                                                      /*look_back_delay=*/{0, 0},  // launch_select's
                                                      vectorized,
                                                      order,
                                                      /*count_out=*/d_count};
    return SelectLaunch<T, Keep, Input, Output>{threads, tile_items * sizeof(T), order, params};
}

// The select kernel of the plan's block size: the tuned policy's, or the one for any block size.
template <StagedFalses Falses, class T, class Keep, class Input, class Output>
auto select_kernel_for(int threads) {
    return threads == kSelectPolicy.threads
               ? select_kernel<Falses, T, Keep, Input, Output, kSelectPolicy.threads, kSelectPolicy.min_blocks_per_sm>
               : select_kernel<Falses, T, Keep, Input, Output, kAnyBlockSize.threads, kAnyBlockSize.min_blocks_per_sm>;
}

// Launches one tile kernel of the plan, under a new call tag.
template <StagedFalses Falses, class T, class Keep, class Input, class Output>
void launch_select(const char *name, SelectLaunch<T, Keep, Input, Output> plan, cudaStream_t stream) {
    const auto kernel = select_kernel_for<Falses, T, Keep, Input, Output>(plan.threads);
    plan.params.call_tag = next_call_tag();
    plan.params.look_back_delay =
        look_back_delay_for(kernel, name, kTileLookBackDelay, plan.params.tiles, plan.threads, plan.staging_bytes);
    const unsigned blocks = blocks_for(plan.params.tiles, 1);
    if constexpr (Falses == StagedFalses::AsOrdered)  // the stable partition's, after its count pass
        launch_dependent(kernel, name, blocks, plan.threads, plan.staging_bytes, stream, plan.params);
    else
        launch(kernel, name, blocks, plan.threads, plan.staging_bytes, stream, plan.params);
}

// select_if, select_flagged, unique: one pass. T's from `d_in` to `d_out` (read_only_input and
// unwrap_input); the staged kernel where both are pointers to T.
template <class T, class Keep, class Input, class Output>
void single_pass_select(const char *name, Input d_in, Output d_out, std::size_t *d_count, std::size_t n, Keep keep,
                        void *d_temp, std::size_t temp_bytes, const CallEnvironment &env) {
    auto plan = plan_select<T>(name, d_in, d_out, d_count, n, keep, d_temp, temp_bytes, env);
    const cudaStream_t stream = env.stream;
    if (!plan) return;
    if constexpr (stageable<T>() && pointers_of_items<T, Input, Output>()) {
        static_assert(kStagedSelectPolicy.threads == kStagedScanPolicy.threads,
                      "runs_staged checks the block size against the staged scan's");
        const auto kernel = staged_select_kernel<T, Keep>;
        constexpr std::size_t tile_items = StagedTile<T, kStagedSelectVectorsPerThread>::kItems;
        const std::size_t staged_tiles = (n + tile_items - 1) / tile_items;
        if (runs_staged(env.tuning.scan_staging, reinterpret_cast<const void *>(kernel), name, plan->threads,
                        plan->params.vectorized, staged_tiles, kStagedSelectFromTenthsOfAWave)) {
            plan->params.tiles = staged_tiles;
            plan->params.call_tag = next_call_tag();
            plan->params.look_back_delay =
                look_back_delay_for(kernel, name, kTileLookBackDelay, staged_tiles, plan->threads, 0);
            launch(kernel, name, blocks_for(staged_tiles, 1), plan->threads, 0, stream, plan->params);
            return;
        }
    }
    launch_select<StagedFalses::Dropped>(name, *plan, stream);
}

// partition: one pass, the falses from the back.
template <class T, class Keep, class Input, class Output>
void single_pass_partition(const char *name, Input d_in, Output d_out, std::size_t *d_count, std::size_t n, Keep keep,
                           void *d_temp, std::size_t temp_bytes, const CallEnvironment &env) {
    const auto plan = plan_select<T>(name, d_in, d_out, d_count, n, keep, d_temp, temp_bytes, env);
    if (plan) launch_select<StagedFalses::Reversed>(name, *plan, env.stream);
}

// stable_partition: a sample of the keep flags chooses where the falses go (StableOrder, in
// select/kernels.cuh): after a count pass, in order behind the trues; or, where more than half the
// sample is kept and the output is a pointer that can be read back, from the back as partition's,
// then turned round in place. Four launches either way, the last three programmatic dependents of
// the one before: the kernels the order leaves out return at once, so a captured graph replays
// right whatever inputs it finds.
template <class T, class Keep, class Input, class Output>
void single_pass_stable_partition(const char *name, Input d_in, Output d_out, std::size_t *d_count, std::size_t n,
                                  Keep keep, void *d_temp, std::size_t temp_bytes, const CallEnvironment &env) {
    const auto plan = plan_select<T>(name, d_in, d_out, d_count, n, keep, d_temp, temp_bytes, env);
    if (!plan) return;
    const cudaStream_t stream = env.stream;
    // The partition pass is checked before anything is enqueued: a configuration it cannot run is
    // refused with nothing written.
    const auto partition_pass = select_kernel_for<StagedFalses::AsOrdered, T, Keep, Input, Output>(plan->threads);
    prepare_launch(reinterpret_cast<const void *>(partition_pass), name, plan->threads, plan->staging_bytes);
    constexpr bool kReversible = std::is_same_v<Output, T *>;
    launch(choose_stable_order_kernel<T, Keep, Input>, name, 1, kStableSamples, 0, stream, d_in, n, keep, kReversible,
           plan->order);
    const auto count_tile = static_cast<int>(kCountKeptThreads * vector_items<T>() * kCountKeptVectorsPerThread);
    launch_dependent(count_kept_kernel<T, Keep, Input>, name,
                     std::min(blocks_for(n, count_tile), kCountKeptMaxBlocks), kCountKeptThreads, 0, stream, d_in, n,
                     keep, plan->params.vectorized, plan->order);
    launch_select<StagedFalses::AsOrdered>(name, *plan, stream);
    if constexpr (kReversible) {
        constexpr int kReverseStep = kReverseThreads * kReversePairsPerThread;
        const unsigned reverse_blocks = std::min(blocks_for(n / 2 + 1, kReverseStep), kReverseMaxBlocks);
        launch_dependent(reverse_falses_kernel<T>, name, reverse_blocks, kReverseThreads, 0, stream, d_out, n,
                         static_cast<const std::size_t *>(d_count), plan->order);
    }
}

}  // namespace detail
}  // namespace StreamCompaction

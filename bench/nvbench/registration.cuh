#pragma once
// How the parts' shared CUB benchmarks (bench/nvbench/<part>_cub.cuh) are registered under a name
// made at static initialisation: sc_nvbench_<part> names them "<operation>/cub", sc_nvbench_cccl_next
// "<operation>/cub_<X.Y>" (cccl_next.cuh), so the name cannot be pasted in by NVBENCH_BENCH. What is
// registered is what NVBENCH_BENCH registers, a benchmark of no type axes whose states call the body.
#include <nvbench/nvbench.cuh>

#include <memory>
#include <string>

namespace bench {

// NVBENCH_BENCH's callable, holding the body (a plain function or a function object) instead of
// naming it.
template <class Body>
struct StateBody {
    Body body;
    void operator()(nvbench::state &state, nvbench::type_list<>) { body(state); }
};

// Registers body under `name`; the caller adds the axes.
template <class Body>
nvbench::benchmark_base &add_benchmark(const std::string &name, Body body) {
    return nvbench::benchmark_manager::get()
        .add(std::make_unique<nvbench::benchmark<StateBody<Body>>>(StateBody<Body>{body}))
        .set_name(name);
}

}  // namespace bench

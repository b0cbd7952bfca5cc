# Sourced by .ci/run before the README's build (issue #48): a CMake new enough for NVBench's package
# (3.30.4) first on PATH, and SC_NVBENCH exported, naming NVBench from the cuda-bench wheel
# (tools/nvbench_wheel.sh), so that the build compiles sc_nvbench too. Both come from PyPI into
# .nvbench/ (ignored), or from wheels already there (the GPU machine has no network: carry
# .nvbench/ with a cmake and a cuda-bench wheel); a run that cannot get them stops with the reason.
# Also sourced by tools/gpu_check.sh's bench and compare phases (and tools/profile.sh).
nvbench_cache="$PWD/.nvbench"
mkdir -p "$nvbench_cache"
cmake_is_new_enough() {  # 3.30.4 or newer
    cmake --version | awk 'NR == 1 { split($3, v, ".");
        exit !(v[1] > 3 || (v[1] == 3 && (v[2] > 30 || (v[2] == 30 && v[3] >= 4)))) }'
}
if ! cmake_is_new_enough; then
    if [ ! -x "$nvbench_cache/cmake/bin/cmake" ]; then
        # A cmake wheel carried in .nvbench/ is installed from there alone (--no-index: a machine
        # without network would otherwise wait on PyPI's retries first); else PyPI's.
        offline=()
        if ls "$nvbench_cache"/cmake-*.whl >/dev/null 2>&1; then offline=(--no-index --find-links "$nvbench_cache"); fi
        python3 -m pip install --quiet "${offline[@]}" --target "$nvbench_cache/cmake" 'cmake>=3.30.4,<4' ||
            { echo "nvbench_env: cannot pip install cmake>=3.30.4 (NVBench's package needs it)" >&2; exit 1; }
    fi
    export PYTHONPATH="$nvbench_cache/cmake${PYTHONPATH:+:$PYTHONPATH}"
    export PATH="$nvbench_cache/cmake/bin:$PATH"
fi
if ! ls "$nvbench_cache"/cuda_bench-*.whl >/dev/null 2>&1; then
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 cuda-bench==0.3.0 \
        -d "$nvbench_cache" || { echo "nvbench_env: cannot download the cuda-bench 0.3.0 wheel" >&2; exit 1; }
fi
SC_NVBENCH=$(tools/nvbench_wheel.sh "$nvbench_cache") || exit 1
export SC_NVBENCH
echo "nvbench_env: $(cmake --version | head -n 1), NVBench from $SC_NVBENCH"

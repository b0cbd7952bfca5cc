#!/usr/bin/env bash
# CI (no GPU needed): the library, harness, tests and the compiled documentation examples
# compiled for sm_75, nvcc 13's default architecture and the oldest it supports, in its own build
# directory. Compile only: nothing runs. The benchmark stays out: it holds no device code of its
# own that depends on the architecture (its kernels are the library's, which the tests
# instantiate, and CUB's), and leaving it out keeps CI within its 30 minutes on 2 cores. CI's main build is for sm_90
# alone, so without this a Hopper-only instruction, or an sm_80 one such as __reduce_or_sync
# outside its `__CUDA_ARCH__ >= 800` branch, would build there and break every older GPU's build
# (and the JIT from compute_75 PTX that a build with CMake's default architecture runs on an
# H100; tools/gpu_check.sh's arch phase runs that one). Environment: SC_OLDER_BUILD_DIR (default
# build-sm75), SC_JOBS (default nproc), SC_CUDA_ARCHITECTURES (default 75; e.g. 86 or "80;86").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SC_OLDER_BUILD_DIR:-build-sm75}
jobs=${SC_JOBS:-$(nproc)}
arch=${SC_CUDA_ARCHITECTURES:-75}
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
if [[ -f "$build/CMakeCache.txt" ]] && ! grep -q "^CMAKE_CUDA_ARCHITECTURES:STRING=$arch\$" "$build/CMakeCache.txt"; then
  rm -rf "$build"  # configured before for other architectures: start clean
fi
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arch" \
  -DSC_BUILD_TESTS=ON -DSC_BUILD_BENCH=OFF -DSC_BUILD_HARNESS=ON
cmake --build "$build" -j "$jobs"
# Every CUDA object was compiled for the requested architectures and no other (a target that pins
# its own CUDA_ARCHITECTURES would escape this check otherwise). Ninja keeps the flags in build.ninja.
if [[ -f "$build/build.ninja" ]]; then
  built=$(grep -o 'arch=compute_[0-9a-z]*' "$build/build.ninja" | sed 's/arch=compute_//' | sort -u | tr '\n' ' ')
  wanted=$(tr ';' '\n' <<<"$arch" | sed 's/-real$//; s/-virtual$//' | sort -u | tr '\n' ' ')
  if [[ "$built" != "$wanted" ]]; then
    echo "older_gpus: FAIL: CUDA code compiled for architectures '$built', wanted '$wanted'" >&2
    exit 1
  fi
fi
echo "older_gpus: the library, harness, tests and examples compile for CUDA architectures $arch in $SECONDS s"

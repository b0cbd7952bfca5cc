#!/usr/bin/env bash
# CI (no GPU needed): the library as other projects consume it.
#   1. configure, build and install the library alone (SC_BUILD_TESTS/BENCH/HARNESS=OFF) into a
#      temporary prefix, and check what the install holds;
#   2. tests/consumers/find_package: find_package(StreamCompaction 0.10 CONFIG) against that prefix;
#   3. tests/consumers/add_subdirectory: the repository pulled in with add_subdirectory, which must
#      build the library targets and none of the repository's tests, benchmark or harness;
#   4. tests/consumers/default_arch, configured with no CUDA architectures (CMake's default): the
#      package's config must warn that its libraries do not cover them;
#   5. tests/consumers/distributed: find_package(StreamCompaction COMPONENTS distributed), where the
#      library was built with NCCL (else said so and left out);
#   6. run every consumer program: exit 0 (passed) or 77 (no CUDA device: skipped) is success.
# Environment: SC_CONSUMERS_DIR (work directory, default a fresh temporary one, removed at the
# end), SC_JOBS (parallel jobs, default nproc), SC_CUDA_ARCHITECTURES (default 90),
# SC_CONSUMERS_LIBRARY_BUILD (a build directory of the repository for those architectures whose
# install step 1 takes instead of building the library again; CI passes its main build).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
jobs=${SC_JOBS:-$(nproc)}
arch=${SC_CUDA_ARCHITECTURES:-90}
if [[ -n "${SC_CONSUMERS_DIR:-}" ]]; then
  work=$SC_CONSUMERS_DIR
  rm -rf "$work/lib" "$work/prefix" "$work/find_package" "$work/add_subdirectory" "$work/version_check" \
    "$work/default_arch" "$work/default_arch.configure.log" "$work/distributed"
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/sc-consumers.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
step() { printf '\n== %s (%ds)\n' "$*" "$SECONDS"; }
fail() { echo "consumers: FAIL: $*" >&2; exit 1; }

if [[ -n "${SC_CONSUMERS_LIBRARY_BUILD:-}" ]]; then
  # An existing build of the repository (CI's main one, for the same architectures): its install
  # holds the same library targets, headers and package files, and nothing is compiled again.
  lib_build=$SC_CONSUMERS_LIBRARY_BUILD
  built_arch=$(sed -n "s/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p" "$lib_build/CMakeCache.txt")
  [[ "$built_arch" == "$arch" ]] || fail "$lib_build was built for CUDA architectures '$built_arch', not '$arch'"
  step "library: install $lib_build into $work/prefix"
  cmake --install "$lib_build" --prefix "$work/prefix"
else
  step "library only: configure, build, install into $work/prefix"
  cmake -S "$repo" -B "$work/lib" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DSC_BUILD_TESTS=OFF -DSC_BUILD_BENCH=OFF -DSC_BUILD_HARNESS=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" -DCMAKE_INSTALL_PREFIX="$work/prefix"
  cmake --build "$work/lib" -j "$jobs"
  cmake --install "$work/lib"
fi

config_dir=$(dirname "$(find "$work/prefix" -name StreamCompactionConfig.cmake | head -n 1)")
[[ -f "$config_dir/StreamCompactionConfig.cmake" ]] || fail "no StreamCompactionConfig.cmake installed"
for f in StreamCompactionConfigVersion.cmake StreamCompactionTargets.cmake StreamCompactionArchitectures.cmake; do
  [[ -f "$config_dir/$f" ]] || fail "$f not installed"
done
for h in device/scan.cuh device/select.cuh device/radix_sort.cuh device/segmented_scan.cuh \
         device/segmented_reduce.cuh device/spmv.cuh cpu.h reference/bfs.h io/matrix_market.h support/device_buffer.h \
         tuning/block_sizes.h tuning/call_tuning.h tuning/policies.h detail/scan/dispatch.cuh \
         support/call_environment.h support/memory_resource.h support/async_resource.cuh \
         support/half_precision.cuh; do
  [[ -f "$work/prefix/include/stream_compaction/$h" ]] || fail "include/stream_compaction/$h not installed"
done
if find "$work/prefix/include" -name '*.cu' -o -name '*.cpp' -o -name 'CMakeLists.txt' | grep -q .; then
  fail "sources installed under include/"
fi
echo "installed: $(find "$work/prefix/include" -type f | wc -l) headers, $(ls "$config_dir" | tr '\n' ' ')"
# The library target that find_package users link holds no course unit or CPU reference and needs
# no Threads: those are StreamCompaction::course's.
core_lib=$(find "$work/prefix" -name 'libsc_core.a' | head -n 1)
[[ -f "$core_lib" ]] || fail "libsc_core.a not installed"
if nm -C "$core_lib" | grep -E ' T StreamCompaction::(CPU|Naive|Efficient|Shared|Thrust|Radix|Common|Bfs|Merge)::' | grep -q .; then
  fail "libsc_core.a holds course units or CPU references"
fi
core_links=$(awk '/set_target_properties\(StreamCompaction::core /,/^\)/' "$config_dir"/StreamCompactionTargets.cmake |
  grep INTERFACE_LINK_LIBRARIES)
[[ -n "$core_links" ]] || fail "StreamCompaction::core's link interface not found"
[[ "$core_links" != *Threads* ]] || fail "StreamCompaction::core links Threads: $core_links"

step "find_package consumer"
cmake -S tests/consumers/find_package -B "$work/find_package" "${generator[@]}" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CUDA_ARCHITECTURES="$arch"
cmake --build "$work/find_package" -j "$jobs"

# Versions: 0.10 and 0.10.0 are accepted; 0.9, 0.11 and 1.0 are refused (0.x: same minor only).
mkdir -p "$work/version_check"
cat > "$work/version_check/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.24)
project(StreamCompactionVersionCheck LANGUAGES CXX)
foreach(version IN ITEMS 0.9 0.11 1.0)
  find_package(StreamCompaction ${version} CONFIG QUIET)
  if(StreamCompaction_FOUND OR NOT "0.10.0" IN_LIST StreamCompaction_CONSIDERED_VERSIONS)
    message(FATAL_ERROR "find_package(StreamCompaction ${version}): found ${StreamCompaction_FOUND}, "
                        "considered '${StreamCompaction_CONSIDERED_VERSIONS}'")
  endif()
endforeach()
find_package(StreamCompaction 0.10.0 EXACT CONFIG REQUIRED COMPONENTS core io sparse course stream_compaction)
message(STATUS "version check: 0.10.0 found; 0.9, 0.11, 1.0 refused")
CMAKE
cmake -S "$work/version_check" -B "$work/version_check/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  | grep 'version check' || fail "package version check"

step "add_subdirectory consumer"
cmake -S tests/consumers/add_subdirectory -B "$work/add_subdirectory" "${generator[@]}" \
  -DSC_SOURCE_DIR="$repo" -DCMAKE_CUDA_ARCHITECTURES="$arch"
cmake --build "$work/add_subdirectory" -j "$jobs"
# Nothing of the repository but its libraries in the build: no test, bench or harness binaries.
built=$(find "$work/add_subdirectory" -type f -perm -u+x \( -name 'cpu_tests' -o -name 'gpu_tests' -o \
        -name 'sc_nvbench_*' -o -name 'sc_dist_bench' -o -name 'stream_compaction_harness' -o -name 'course_client_*' \) | tr '\n' ' ')
[[ -z "$built" ]] || fail "add_subdirectory built the repository's own programs: $built"
if [[ -d "$work/add_subdirectory/sc/tests" || -d "$work/add_subdirectory/sc/bench" || -d "$work/add_subdirectory/sc/src" ]]; then
  fail "add_subdirectory configured the repository's tests/, bench/ or src/"
fi
[[ -f "$work/add_subdirectory/sc/stream_compaction/libsc_core.a" ]] || fail "libsc_core.a not built"

# A consumer configured as a new user's is, with no architectures (CMake's default, sm_75 with
# CUDA 13): a package built for 90 alone must warn that its static libraries do not cover it.
step "default_arch consumer (no CUDA architectures given)"
cmake -S tests/consumers/default_arch -B "$work/default_arch" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/default_arch.configure.log" 2>&1 ||
  { cat "$work/default_arch.configure.log"; fail "default_arch consumer: configure"; }
consumer_arch=$(sed -n "s/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p" "$work/default_arch/CMakeCache.txt")
if [[ "$arch" == 90 && "$consumer_arch" =~ ^[0-9]+$ && "$consumer_arch" -lt 90 ]]; then  # not covered by 90
  # CMake wraps a warning's text: its lines joined, spaces squeezed.
  tr '\n' ' ' <"$work/default_arch.configure.log" | tr -s ' ' | grep -q "does not run on '$consumer_arch'" ||
    { cat "$work/default_arch.configure.log"; fail "no warning that the package ($arch) does not cover '$consumer_arch'"; }
  echo "default_arch consumer: architectures '$consumer_arch', the package's config warned"
fi
cmake --build "$work/default_arch" -j "$jobs"

declare -a programs=("$work/find_package/consumer" "$work/find_package/consumer_umbrella"
                     "$work/add_subdirectory/consumer" "$work/default_arch/default_arch_consumer")
if [[ -f "$config_dir/StreamCompactionDistributedTargets.cmake" ]]; then
  step "distributed consumer (COMPONENTS distributed, NCCL)"
  [[ -f "$config_dir/FindNCCL.cmake" ]] || fail "FindNCCL.cmake not installed beside the distributed targets"
  cmake -S tests/consumers/distributed -B "$work/distributed" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$work/prefix"
  cmake --build "$work/distributed" -j "$jobs"
  programs+=("$work/distributed/distributed_consumer")
else
  echo "consumers: distributed: left out (the library was built without NCCL)"
fi

step "run the consumers"
status=0
for program in "${programs[@]}"; do
  rc=0
  "$program" || rc=$?
  case $rc in
    0)  echo "consumers: ${program#"$work"/}: passed" ;;
    77) echo "consumers: ${program#"$work"/}: skipped (no CUDA device)" ;;
    *)  echo "consumers: ${program#"$work"/}: FAILED (exit $rc)"; status=1 ;;
  esac
done
step "done"
exit $status

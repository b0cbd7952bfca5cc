#!/usr/bin/env bash
# CI, CPU only: what needs no GPU under AddressSanitizer + UndefinedBehaviorSanitizer, then a
# bounded fuzzing run of the Matrix Market reader.
#   1. configure fuzz/ (a CMake project of its own: the io sources, tests/io, the distributed
#      plans and their test, src/cli.cpp and tests/cpu/cli_test.cpp, the fuzz target) with -fsanitize=address,undefined and no UBSan
#      recovery, in $SANITIZE_BUILD_DIR (default build-sanitize);
#   2. run the sanitized unit tests;
#   3. fuzz the reader for $FUZZ_SECONDS (default 60) with libFuzzer where the compiler has it,
#      from the seed corpus fuzz/corpus/matrix_market (new inputs go to the build directory, never
#      into the repository), then $DRIVER_SECONDS (default 10) with the random-mutation driver,
#      which is all there is when the compiler has no libFuzzer (g++).
# Exits non-zero on any failure: a build error, a failed test, a sanitizer report, a fuzzing
# finding (saved under $SANITIZE_BUILD_DIR/artifacts/). About 2 minutes on 2 cores.
# CXX picks the compiler (default clang++, else g++).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
build=${SANITIZE_BUILD_DIR:-build-sanitize}
fuzz_seconds=${FUZZ_SECONDS:-60}
driver_seconds=${DRIVER_SECONDS:-10}
cxx=${CXX:-$(command -v clang++ || command -v g++)}
jobs=$(nproc 2>/dev/null || echo 2)
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi

step() { printf '\n== sanitize: %s (%ds)\n' "$1" $((SECONDS - start)); }

step "configure with $cxx"
cmake -S fuzz -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Debug
step "build"
cmake --build "$build" -j "$jobs"

# Every report is fatal; leaks count. abort_on_error makes a report a non-zero exit everywhere.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

step "unit tests (tests/io, tests/cpu/cli_test.cpp)"
if [[ -x "$build/cpu_io_tests_sanitized" ]]; then
    ctest --test-dir "$build" --output-on-failure
else
    echo "sanitize: no GoogleTest, so no sanitized unit tests: failing, as CI must run them" >&2
    exit 1
fi

corpus=$build/fuzz-corpus  # libFuzzer adds the inputs it finds to its first directory: a scratch one
artifacts=$build/artifacts/
rm -rf "$corpus" "$artifacts"
mkdir -p "$corpus" "$artifacts"
if [[ -x "$build/matrix_market_fuzz" ]]; then
    step "libFuzzer, ${fuzz_seconds} s"
    "$build/matrix_market_fuzz" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -dict=fuzz/matrix_market.dict -artifact_prefix="$artifacts" -print_final_stats=1 \
        "$corpus" fuzz/corpus/matrix_market 2>&1 |
        awk '/^#[0-9]+\t(NEW|REDUCE) / { quiet++; next } { print } END { print quiet + 0 " NEW/REDUCE lines not shown" }'
else
    echo "sanitize: $cxx has no libFuzzer: the random-mutation driver fuzzes for ${fuzz_seconds} s instead"
    driver_seconds=$fuzz_seconds
fi
step "random-mutation driver, ${driver_seconds} s"
"$build/matrix_market_fuzz_driver" -max_total_time="$driver_seconds" -max_len=4096 -dict=fuzz/matrix_market.dict \
    -artifact_prefix="$artifacts" fuzz/corpus/matrix_market

step "done"

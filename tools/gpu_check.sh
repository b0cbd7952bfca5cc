#!/usr/bin/env bash
# Proves the GPU part on a CUDA machine: configure and build, then
#   tests: the harness at 2^24 and on a real matrix, the whole test suite (8 tests at once but those
#          that need most of the memory, time streams or run NCCL ranks; the MPI example under
#          .mpi/'s MPICH when a mpich wheel is carried there: .ci/mpi_env.sh);
#   sanitize: compute-sanitizer memcheck, synccheck and racecheck over the GPU tests (its own phase:
#          with the robustness suites it takes longer than one 10-minute device command with the tests);
#   bench: the NVBench benchmarks (bench/nvbench/) and their plots: .ci/nvbench_env.sh gets a CMake of
#          3.30.4 and NVBench from the wheels carried in .nvbench/ (a cmake and a cuda-bench wheel: no
#          network here); BUILD_DIR-bench builds the sc_nvbench_<part> programs alone and, when a
#          cuda-cccl wheel (or its unpacked headers) is in .cccl/ (or CCCL_NEXT names one), the
#          second CUB anchor sc_nvbench_cccl_next (that CCCL's CUB in a program of its own,
#          bench/anchors/: -DSC_CCCL_NEXT), part cccl_next, run last. Each part of BENCH_PARTS
#          (default every program built, in name order, cccl_next last; e.g. "scan radix_sort") runs
#          in turn (BENCH_ARGS passed on; default "--no-batch --min-time 0.2 --timeout 1": the cold
#          runs alone, every state within about a second), at the points of BENCH_PROFILE (quick,
#          the default: the headline points, every part in one device command; full: the sweeps'
#          smaller sizes and SpMV on every matrix too, over several; bench/profile.h), each within what is
#          left of BENCH_SECONDS (default 540) from the phase's start, the build's time counted (a
#          device command has 600 s; a second call finds the build done). NVBench writes its JSON at
#          the end, so a part cut short loses its own results alone, and a part not started is
#          named; the JSONs go into bench-json.tgz, bench/nvbench/nvbench_to_csv.py turns them into
#          bench.csv (every ratio to the fastest library of its point, over every part and both
#          CUBs), and bench/plot/plot.py that into img/*.png (img.tar);
#   arch:  builds the way users make them (arch.log): (a) gpu_tests built again for compute_75 PTX
#          alone (nvcc 13's default architecture), JIT-compiled for this GPU when loaded: the suite
#          but GpuLarge, then the staged-scan suites with the staging asked for, must pass on the
#          portable paths; (b) the package installed from this build and tests/consumers/default_arch
#          configured without architectures: its config must warn, and the program must pass;
#          (c) the harness and gpu_tests built for sm_80 SASS alone: each must exit 4
#          with one line naming this GPU's sm_XY;
#   compare: a no-regression check: the baseline source in BASE_DIR (default .bench_base, e.g.
#          `git archive <commit> --prefix=.bench_base/ | tar -x`; a tree with bench/nvbench/) and
#          this tree, their NVBench programs built side by side (BUILD_DIR-base, BUILD_DIR-bench) and
#          the parts of COMPARE_PARTS (default scan) run one after the other (baseline, new,
#          baseline, new, ...: COMPARE_ROUNDS rounds, default 2; COMPARE_ARGS passed on, default
#          BENCH_ARGS's), each round's JSONs made one CSV, and tools/compare_bench.py on the median
#          of each build's rounds (rows of n >= COMPARE_MIN_N, when set).
#   dist:  the distributed primitives on every visible GPU (issue #47; a kind of 4 or more GPUs): the
#          library, dist_tests, sc_dist_multiprocess, the harness and sc_dist_bench built; dist_tests
#          on every rank, the multi-process test, the harness's distributed group, sc_dist_bench
#          --runs DIST_RUNS (default 10) into dist.csv, the cost model fitted on its 1- and 2-GPU
#          rows and checked on the others (tools/dist_model.py --validate: model.txt, fails past
#          15%) and the scaling figure (img.tar). With .mpi/'s mpich wheel, as for the tests.
# Usage: tools/gpu_check.sh LOG_DIR [tests|arch|sanitize|bench|compare|dist|all]   (default all =
# tests, arch, sanitize and bench; e.g. "$OUT" on the device machine)
# The build directories (BUILD_DIR, default build-gpu, and those named after it) are reused, so a
# second call builds nothing. SANITIZE_ONLY, SANITIZE_DIST_ONLY, SANITIZE_SHARDS and SANITIZE_TOOLS
# are below.
# The SpMV tests and benchmark read the .mtx files from .data/matrices (copy ../shared/data/matrices there).
# Writes at most 8 files to LOG_DIR and prints a summary table last; exits 1 if any step failed.
set -uo pipefail
logs=${1:?usage: tools/gpu_check.sh LOG_DIR [tests|arch|sanitize|bench|compare|dist|all]}
phase=${2:-all}
case $phase in tests|arch|sanitize|bench|compare|dist|all) ;;
    *) echo "unknown phase '$phase': tests, arch, sanitize, bench, compare, dist or all" >&2; exit 2 ;; esac
mkdir -p "$logs"
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-gpu}
declare -a summary
status=0

step() {  # step NAME LOGFILE COMMAND...: runs COMMAND, appends its output to LOGFILE, records the result
    local name=$1 log=$2
    shift 2
    local start=$SECONDS
    echo ">>> $name: $*" | tee -a "$log"
    "$@" >>"$log" 2>&1
    local rc=$?
    summary+=("$(printf '%-28s %-6s %4ds  %s' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAILED)" $((SECONDS - start)) "$(basename "$log")")")
    [ $rc -eq 0 ] || status=1
    return $rc
}

sharded() {  # sharded LOG_DIR SANITIZER_ARGS...: compute-sanitizer over SANITIZE_SHARDS shards at once
    local dir=$1 shards=${SANITIZE_SHARDS:-8} rc=0 i
    shift
    for ((i = 0; i < shards; ++i)); do
        GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i compute-sanitizer "$@" >"$dir/shard$i.tmp" 2>&1 &
    done
    for ((i = 0; i < shards; ++i)); do wait -n || rc=1; done
    for ((i = 0; i < shards; ++i)); do echo "--- shard $i of $shards"; cat "$dir/shard$i.tmp"; rm -f "$dir/shard$i.tmp"; done
    return $rc
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >"$logs/build.log" 2>&1

bench_args=${BENCH_ARGS:---no-batch --min-time 0.2 --timeout 1}
# Which points the programs register (bench/profile.h): quick, the headline points; full, every size
# of the sweeps and every matrix of the matrix directory.
export SC_BENCH_PROFILE=${BENCH_PROFILE:-quick}
case $SC_BENCH_PROFILE in quick|full) ;; *) echo "BENCH_PROFILE must be quick or full, got '$SC_BENCH_PROFILE'" >&2; exit 2 ;; esac

build_benchmarks() {  # build_benchmarks SOURCE_DIR BUILD_DIR LABEL "TARGETS" [CMAKE_ARGS...]: the library and TARGETS
    local source=$1 dir=$2 label=$3 targets=$4
    shift 4
    step "configure $label" "$logs/build.log" cmake -S "$source" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DSC_BUILD_TESTS=OFF -DSC_BUILD_HARNESS=OFF "-DSC_NVBENCH=$SC_NVBENCH" "$@" &&
        step "build $label" "$logs/build.log" cmake --build "$dir" --parallel --target $targets -- -k 0
}

# BENCH_SECONDS counts from here, the start of the bench or compare phase (in `all`, after the tests,
# the arch builds and the sanitizers): the benchmarks' build is in it.
bench_clock=$SECONDS
run_part() {  # run_part BUILD_DIR PART JSON LOG ARGS: sc_nvbench_<PART> within what BENCH_SECONDS leaves
    local dir=$1 part=$2 json=$3 log=$4 args=$5 left=$((${BENCH_SECONDS:-540} - (SECONDS - bench_clock)))
    if [ $left -le 0 ]; then summary+=("bench $part: not started (BENCH_SECONDS spent)"); status=1; return 1; fi
    step "bench $part" "$log" timeout "$left" "$dir/bin/sc_nvbench_$part" --json "$json" $args
}

# The bench and compare phases build on their own (the library and the NVBench programs alone),
# configured by the newer CMake that NVBench's package needs.
if [ "$phase" = bench ] || [ "$phase" = compare ] || [ "$phase" = all ]; then
    source .ci/nvbench_env.sh >>"$logs/build.log" 2>&1 || { tail -n 5 "$logs/build.log"; exit 1; }
fi
if [ "$phase" = compare ]; then
    base=${BASE_DIR:-.bench_base}
    parts=${COMPARE_PARTS:-scan}
    build_benchmarks "$base" "$build-base" baseline sc_nvbench && build_benchmarks . "$build-bench" new sc_nvbench ||
        { printf '%s\n' "${summary[@]}"; exit 1; }
    runs="$build-bench/compare"
    rm -rf "$runs" && mkdir -p "$runs"
    rounds=${COMPARE_ROUNDS:-2}
    for ((round = 1; round <= rounds; ++round)); do
        for side in base new; do
            dir=$build-bench
            [ $side = base ] && dir=$build-base
            for part in $parts; do
                run_part "$dir" "$part" "$runs/$side$round-$part.json" "$logs/compare.log" "${COMPARE_ARGS:-$bench_args}"
            done
            round_jsons=$(ls "$runs/$side$round"-*.json 2>/dev/null)
            [ -n "$round_jsons" ] && python3 bench/nvbench/nvbench_to_csv.py $round_jsons \
                --out "$runs/$side$round.csv" 2>>"$logs/compare.log"
        done
    done
    compared=1
    for side in base new; do
        ls "$runs/$side"*.csv >/dev/null 2>&1 || { summary+=("compare: no round of $side gave a CSV"); compared=0; status=1; }
    done
    [ $compared = 1 ] && python3 tools/compare_bench.py --merge "$runs"/base*.csv >"$logs/base.csv" &&
        python3 tools/compare_bench.py --merge "$runs"/new*.csv >"$logs/new.csv" &&
        step compare "$logs/compare.txt" python3 tools/compare_bench.py "$logs/base.csv" "$logs/new.csv" \
            ${COMPARE_MIN_N:+--min-n $COMPARE_MIN_N}
    echo; echo "== gpu_check summary =="; printf '%s\n' "${summary[@]}"; tail -1 "$logs/compare.txt"
    exit $status
fi
if [ "$phase" = dist ]; then
    if compgen -G '.mpi/mpich-*.whl' >/dev/null || [ -x .mpi/bin/mpiexec ]; then
        source .ci/mpi_env.sh >>"$logs/build.log" 2>&1 || summary+=("no MPI: .mpi/'s mpich wheel did not install (build.log)")
    fi
    step configure "$logs/build.log" cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release &&
        step "build dist" "$logs/build.log" cmake --build "$build" --parallel --target dist_tests \
            sc_dist_multiprocess stream_compaction_harness sc_dist_bench || { printf '%s\n' "${summary[@]}"; exit 1; }
    gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
    summary+=("$gpus GPUs visible")
    step "dist_tests, $gpus ranks" "$logs/dist.log" "$build/bin/dist_tests"
    step "dist multiprocess" "$logs/dist.log" "$build/bin/sc_dist_multiprocess"
    step "harness distributed" "$logs/dist.log" "$build/bin/stream_compaction_harness" --only distributed
    step "sc_dist_bench" "$logs/dist.log" "$build/bin/sc_dist_bench" --runs "${DIST_RUNS:-10}" --csv "$logs/dist.csv" &&
        step "cost model" "$logs/model.txt" python3 tools/dist_model.py --csv "$logs/dist.csv" --validate "$logs/dist.csv"
    if [ -f "$logs/dist.csv" ] && python3 bench/plot/distributed.py "$logs/dist.csv" --out "$build/img" >>"$logs/dist.log" 2>&1; then
        tar -cf "$logs/img.tar" -C "$build" img
    fi
    echo; echo "== gpu_check summary =="; printf '%s\n' "${summary[@]}"; tail -n 12 "$logs/model.txt" 2>/dev/null
    exit $status
fi
if [ "$phase" != bench ]; then
    # MPI for the MPI bootstrap example, from a mpich wheel carried in .mpi/ alone (no network here:
    # mpi_env.sh would wait on PyPI's retries): without it CMake looks for any MPI the machine has,
    # and the example's tests report Skipped where there is none. (A wheel or an install: `ls` of
    # both failed whenever one of them was missing, so a carried wheel was never used.)
    if compgen -G '.mpi/mpich-*.whl' >/dev/null || [ -x .mpi/bin/mpiexec ]; then
        source .ci/mpi_env.sh >>"$logs/build.log" 2>&1 || summary+=("no MPI: .mpi/'s mpich wheel did not install (build.log)")
    else
        summary+=("no MPICH (.mpi/ holds no mpich wheel): the MPI example runs under the machine's MPI, if any")
    fi
    step configure "$logs/build.log" cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release &&
        step build "$logs/build.log" cmake --build "$build" --parallel || { printf '%s\n' "${summary[@]}"; exit 1; }
fi

if [ "$phase" = tests ] || [ "$phase" = all ]; then
    step "harness 2^24" "$logs/harness.txt" "$build/bin/stream_compaction_harness" --seed 1
    matrix=.data/matrices/bcsstk33.mtx
    if [ -f "$matrix" ]; then
        step "harness --matrix" "$logs/harness.txt" "$build/bin/stream_compaction_harness" --seed 1 --only spmv \
            --matrix "$matrix"
    fi
    if grep -q "FAIL\|skipped:" "$logs/harness.txt"; then summary+=("harness printed FAIL or skipped lines"); status=1; fi
    # One process per test (~0.3 s of CUDA start-up each, 665 tests): run 8 at a time, but the tests
    # that need most of the GPU's memory (they skip when it is short, which must not happen here),
    # time overlapping streams or run NCCL ranks, which run alone afterwards.
    alone='GpuLarge|GpuConcurrency|Past2To31|^Distributed|^dist'
    step "ctest, 8 at once" "$logs/ctest.log" ctest --test-dir "$build" --output-on-failure -j 8 -E "$alone"
    step "ctest, one at a time" "$logs/ctest.log" ctest --test-dir "$build" --output-on-failure -R "$alone"
fi
if [ "$phase" = arch ] || [ "$phase" = all ]; then
    arch_log="$logs/arch.log"
    grep "CUDA architectures:" "$logs/build.log" >>"$arch_log"
    # (a) and (c) build at once: compute_75 PTX only, and sm_80 SASS only (no code for Hopper).
    ptx="$build-compute75" sass80="$build-sm80"
    step "configure compute_75, sm_80" "$arch_log" sh -c "cmake -S . -B '$ptx' -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=75-virtual -DSC_BUILD_BENCH=OFF -DSC_DISTRIBUTED=OFF &&
        cmake -S . -B '$sass80' -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80-real -DSC_DISTRIBUTED=OFF" &&
        step "build compute_75, sm_80" "$arch_log" sh -c "cmake --build '$ptx' --parallel --target gpu_tests &
        cmake --build '$sass80' --parallel --target gpu_tests stream_compaction_harness; s=\$?; wait \$! && exit \$s"
    # The JIT's cache must hold every module of the suite, or each process compiles them again.
    export CUDA_CACHE_MAXSIZE=4294967296
    if [ -x "$ptx/bin/gpu_tests" ]; then
        "$ptx/bin/gpu_tests" --gtest_filter=GpuMerge.DependentLaunchSeesThePriorKernelsWrites >>"$arch_log" 2>&1  # warms the JIT cache
        step "compute_75 PTX: gpu_tests" "$arch_log" "$ptx/bin/gpu_tests" --gtest_filter='*-GpuLarge*' --gtest_brief=1
        step "compute_75 PTX: staged asked" "$arch_log" env SC_SCAN_STAGING=staged "$ptx/bin/gpu_tests" --gtest_brief=1 \
            --gtest_filter='SinglePass.*:GpuGraph.*:*GpuAlignment.*:GpuConcurrency.*:GpuShapes.*:GpuOperator.*:GpuByKey.*:GpuReduce*'
    fi
    # (b) the installed package and a consumer configured as a new user's is.
    # The configure output has a file of its own: the warning is looked for there alone (arch.log
    # also holds this script's commands), its lines joined (CMake wraps a warning's text).
    prefix="$PWD/$build-prefix" consumer="$build-default-arch" configured="$build-default-arch.configure.log"
    step "install package" "$arch_log" cmake --install "$build" --prefix "$prefix" &&
        step "configure default_arch consumer" "$arch_log" sh -c "cmake -S tests/consumers/default_arch -B '$consumer' \
            -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH='$prefix' >'$configured' 2>&1; s=\$?; cat '$configured'; exit \$s" &&
        step "config warns of sm_75" "$arch_log" sh -c "tr '\\n' ' ' <'$configured' | tr -s ' ' | grep -q \"does not run on '75'\"" &&
        step "build default_arch consumer" "$arch_log" cmake --build "$consumer" --parallel &&
        step "default_arch consumer" "$arch_log" "$consumer/default_arch_consumer"
    # (c) no code for this GPU: exit 4 and one line on stderr naming its sm_XY, from each program.
    sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '.')
    for program in stream_compaction_harness gpu_tests; do
        step "sm_80 only: $program exits 4" "$arch_log" sh -c "'$sass80/bin/$program' >'$logs/nocode.out' 2>'$logs/nocode.err';
            rc=\$?; cat '$logs/nocode.err'; test \$rc -eq 4 && test \$(wc -l <'$logs/nocode.err') -eq 1 &&
            grep -q 'sm_$sm' '$logs/nocode.err'"
    done
    rm -f "$logs/nocode.out" "$logs/nocode.err"
fi
if [ "$phase" = sanitize ] || [ "$phase" = all ]; then
    # Sanitizers slow kernels 10-100x: the large-size tests stay out (every code path runs at smaller
    # sizes), and so do the tests that make a CUDA call fail on purpose. Racecheck also leaves out
    # the tests of cuSPARSE alone (32- and 16-bit): they report hazards inside cuSPARSE's own kernels, not ours; and,
    # being 25-50x slower than memcheck, the sweeps that repeat kernels other tests already run
    # at every block size and element size (GpuShapes, GpuAlignment, GpuGraph) over more sizes,
    # types and predicates, and the concurrency tests, which keep the same kernels running for
    # seconds to overlap them: together about 45 s under memcheck, about 30 minutes under racecheck.
    # SANITIZE_ONLY (a gtest filter, default all) narrows both to the tests of a change, and
    # SANITIZE_DIST_ONLY (default all) the distributed tests' memcheck.
    # SANITIZE_SHARDS (default 8) processes share the GPU, each running every Nth test (GoogleTest
    # sharding): on an H100, 6 shards got through 3.3 times the work of one in the same time.
    sanitize=${SANITIZE_ONLY:-*}
    racecheck_sweeps=Segmented.TileBoundariesAtEveryBlockSize:Segmented.EveryType*:SinglePass.SelectAndPartitionOnEvery*
    racecheck_sweeps+=:SinglePass.NonCommutativeOperatorsOfEverySize:SinglePass.EveryArithmeticTypeAndOperator
    racecheck_sweeps+=:GpuScan.EveryImplementationMatchesCpuOnEdgeSizes:GpuCompact.MatchesCpuOnEdgeSizesAndPredicates
    racecheck_sweeps+=:GpuConcurrency.OneSpmv*:GpuConcurrency.*WithSeparateStorage
    racecheck_sweeps+=:SinglePass.PartitionPutsTheFalsesInReverseOrder:SinglePass.PartitionsOfEveryElementSize
    racecheck_sweeps+=:GpuReduce.EveryStrategyTypeAndOperatorMatchesTheCpu:GpuReduce.NonCommutativeOperatorsKeepThe*
    racecheck_sweeps+=:GpuReduce.TransformReduceFusesTheMap:GpuReduce.MaxSegmentSumMatchesKadane:GpuReduce.ManyBlocks*
    racecheck_sweeps+=:GpuByKey.ReduceByKeyIntSumEverySizeAndRunLength:GpuByKey.ReduceByKeyFloat*:GpuByKey.*Int64*
    # A join of unsorted inputs is refused by inner_join_size; this test hands them to inner_join
    # itself, whose threads' merge-path crossings may then overlap (results unspecified, accesses
    # in bounds: memcheck still runs it), which racecheck reports as the hazard it is.
    racecheck_sweeps+=:GpuJoin.UnsortedInputToInnerJoinStaysInBounds
    # Past 2^31 items or several GB: the unsanitized ctest run covers them.
    large=GpuLarge*:GpuByKey.HistogramEvenPast2To31Samples:GpuByKey.ReduceByKeyLargeInput
    # synccheck: barriers and warp syncs every thread reaches (the staged kernels' mbarriers, the
    # in-place compaction's __syncwarp); about as fast as memcheck. SANITIZE_TOOLS (default all
    # three) splits the phase over device calls: racecheck alone takes about 7 minutes on an H100.
    tools=${SANITIZE_TOOLS:-memcheck synccheck racecheck}
    for tool in $tools; do
        filter="$sanitize-$large:GpuFailure*"
        [ "$tool" = racecheck ] && filter+=":SpmvCusparse*:GpuSpmvHalfCusparse*:$racecheck_sweeps"
        step "sanitizer $tool" "$logs/sanitizer.log" sharded "$logs" --tool "$tool" --error-exitcode 1 \
            "$build/bin/gpu_tests" --gtest_filter="$filter"
    done
    # The distributed primitives on one GPU (a communicator of one): NCCL builds only. API errors
    # are not reported: NCCL's initialization probes for kernel images of other GPUs and handles
    # the cudaErrorNoKernelImageForDevice it gets (16 such reports, all inside ncclCommInitAll);
    # memory errors are still reported.
    if [ -x "$build/bin/dist_tests" ] && [[ " $tools " == *" memcheck "* ]]; then
        step "sanitizer memcheck dist" "$logs/sanitizer.log" env CUDA_VISIBLE_DEVICES=0 compute-sanitizer --tool memcheck \
            --report-api-errors no --error-exitcode 1 "$build/bin/dist_tests" --gtest_filter="${SANITIZE_DIST_ONLY:-*}-*LargeShards*"
    fi
fi
if [ "$phase" = bench ] || [ "$phase" = all ]; then
    bench_clock=$SECONDS
    # The second CCCL: its include directory (tools/cccl_next.sh unpacks a wheel's headers beside
    # it), or none; SC_CCCL_NEXT is cleared then, so that no stale path is used.
    cccl_next=""
    if [ -n "${CCCL_NEXT:-}" ] || [ -d .cccl ]; then
        cccl_next=$(tools/cccl_next.sh "${CCCL_NEXT:-.cccl}" 2>>"$logs/build.log") || cccl_next=""
    fi
    echo "CCCL next: ${cccl_next:-none (no wheel in .cccl/)}" >>"$logs/build.log"
    bench_build=$build-bench
    # One build of both, so that the anchor's CUB compiles beside the library.
    targets=sc_nvbench
    [ -n "$cccl_next" ] && targets+=" sc_nvbench_cccl_next"
    # -k 0: a program that does not build (the anchor's, against a newer CCCL) keeps none of the others from running.
    build_benchmarks . "$bench_build" benchmarks "$targets" "-DSC_CCCL_NEXT=$cccl_next"
    if ls "$bench_build"/bin/sc_nvbench_* >/dev/null 2>&1; then
        # The JSONs stay out of LOG_DIR (at most 8 files) but in bench-json.tgz.
        jsons_dir="$bench_build/json"
        rm -rf "$jsons_dir" && mkdir -p "$jsons_dir"
        built=$(cd "$bench_build/bin" && ls sc_nvbench_* | sed 's/^sc_nvbench_//' | grep -vx cccl_next)
        [ -x "$bench_build/bin/sc_nvbench_cccl_next" ] && built+=" cccl_next"
        for part in ${BENCH_PARTS:-$built}; do
            run_part "$bench_build" "$part" "$jsons_dir/$part.json" "$logs/bench.log" "$bench_args"
        done
        jsons=$(ls "$jsons_dir"/*.json 2>/dev/null | while read -r f; do [ -s "$f" ] && echo "$f"; done)
        if [ -n "$jsons" ]; then
            tar -czf "$logs/bench-json.tgz" -C "$jsons_dir" .
            # A failed check is an exit code of 1 with the CSV written (the row's ok 0): it is plotted too.
            step "bench to csv" "$logs/bench.log" python3 bench/nvbench/nvbench_to_csv.py $jsons --out "$logs/bench.csv"
            [ -f "$logs/bench.csv" ] && step plots "$logs/bench.log" python3 bench/plot/plot.py "$logs/bench.csv" --out img &&
                tar -cf "$logs/img.tar" img/*.png
        fi
    fi
fi

echo
echo "== gpu_check summary =="
printf '%s\n' "${summary[@]}"
[ -f "$logs/harness.txt" ] && grep -E "^[0-9]+ passed" "$logs/harness.txt" | sed 's/^/harness: /'
[ -f "$logs/ctest.log" ] && grep -E "tests passed|tests failed" "$logs/ctest.log" | sed 's/^/ctest: /'
[ -f "$logs/sanitizer.log" ] && grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$logs/sanitizer.log" | sed 's/^/sanitizer: /'
exit $status

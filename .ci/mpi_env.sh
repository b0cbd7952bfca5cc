# Sourced by .ci/run before the README's build (issue #47), and by tools/gpu_check.sh's tests
# phase: MPI for the documentation's MPI bootstrap example (docs/usage.md, "Bootstrap";
# tests/examples/CMakeLists.txt), MPICH from PyPI's mpich wheel installed into .mpi/ (ignored),
# or from a wheel already there (the GPU machine has no network: carry .mpi/ with the wheel), and
# MPI_HOME exported so that CMake's find_package(MPI) finds it. Returns 1 with the reason when it
# cannot (the caller decides: CI stops, the GPU check goes on and the example reports Skipped).
mpi_prefix="$PWD/.mpi"
mpi_wheel_version=5.0.2
if [ ! -x "$mpi_prefix/bin/mpiexec" ]; then
    mkdir -p "$mpi_prefix"
    mpi_offline=()
    if ls "$mpi_prefix"/mpich-*.whl >/dev/null 2>&1; then mpi_offline=(--no-index --find-links "$mpi_prefix"); fi
    # --prefix, not --target: the wheel's bin/, include/ and lib/ land under the prefix (--target
    # leaves its lib/ out).
    python3 -m pip install --quiet --disable-pip-version-check "${mpi_offline[@]}" --prefix "$mpi_prefix" \
        "mpich==$mpi_wheel_version" 2>&1 | { grep -v "Running pip as the 'root' user" >&2 || true; }
fi
if [ -x "$mpi_prefix/bin/mpiexec" ]; then
    export MPI_HOME="$mpi_prefix"
    echo "mpi_env: $("$mpi_prefix/bin/mpichversion" 2>/dev/null | head -n 1 | tr -s ' \t' ' ') in $MPI_HOME"
else
    echo "mpi_env: cannot pip install mpich==$mpi_wheel_version into $mpi_prefix" >&2
    false
fi

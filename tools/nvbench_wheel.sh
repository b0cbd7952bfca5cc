#!/usr/bin/env bash
# Prints the CMake package directory of NVBench (for -DSC_NVBENCH, the sc_nvbench benchmarks),
# unpacking it from a cuda-bench wheel first if need be. The wheel ships NVBench built for CUDA 12
# and 13 (cuda/bench/cu12, cu13: headers, libnvbench.so, lib/cmake/nvbench); this takes cu13's.
# Usage: tools/nvbench_wheel.sh [WHEEL | DIR]
#   WHEEL  a cuda-bench wheel (pip download --no-deps --only-binary=:all: --python-version 3.11
#          cuda-bench==0.3.0 -d .nvbench); its cu13 NVBench is unpacked once, beside it, into a
#          folder named after the wheel
#   DIR    a folder holding nvbench-config.cmake, one holding cuda/bench/cu13/nvbench, or one
#          holding a wheel (the newest)
#   none   .nvbench/ at the repository root
# Exit code 0 with the directory on stdout; 1 with the reason on stderr when none is found.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source=${1:-$root/.nvbench}
package=cuda/bench/cu13/nvbench

config_dir_of() {  # config_dir_of DIR: prints DIR's NVBench package directory, if it holds one
    if [ -f "$1/nvbench-config.cmake" ]; then echo "$1"
    elif [ -f "$1/$package/lib/cmake/nvbench/nvbench-config.cmake" ]; then echo "$1/$package/lib/cmake/nvbench"
    else return 1; fi
}

unpack() {  # unpack WHEEL: unpacks the wheel's cu13 NVBench beside it (once) and prints its directory
    local wheel=$1 dest
    dest="$(dirname "$wheel")/$(basename "$wheel" .whl)"
    if ! config_dir_of "$dest" >/dev/null; then
        python3 "$root/tools/unpack_wheel.py" "$wheel" "$dest" "$package/" ||
            { echo "nvbench_wheel.sh: cannot unpack $wheel" >&2; exit 1; }
    fi
    config_dir_of "$dest"
}

if [ -f "$source" ]; then
    unpack "$(cd "$(dirname "$source")" && pwd)/$(basename "$source")"
    exit 0
fi
if [ ! -d "$source" ]; then
    echo "nvbench_wheel.sh: no such wheel or directory: $source" >&2
    exit 1
fi
source=$(cd "$source" && pwd)
config_dir_of "$source" && exit 0
wheel=$(ls "$source"/cuda_bench-*.whl 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$wheel" ]; then
    unpack "$wheel"
    exit 0
fi
for dir in $(ls -d "$source"/*/ 2>/dev/null | sort -V -r); do
    config_dir_of "${dir%/}" && exit 0
done
echo "nvbench_wheel.sh: no NVBench or cuda-bench wheel in $source (pip download --no-deps --only-binary=:all:" \
     "--python-version 3.11 cuda-bench==0.3.0 -d $source)" >&2
exit 1

#!/usr/bin/env bash
# Prints the include directory of a second CCCL for -DSC_CCCL_NEXT (the second CUB anchor,
# sc_nvbench_cccl_next: that CCCL's CUB timed by NVBench in a program of its own, bench/anchors/; it
# needs -DSC_NVBENCH too), unpacking its headers from a cuda-cccl wheel first if need be.
# Usage: tools/cccl_next.sh [WHEEL | DIR]
#   WHEEL  a cuda-cccl wheel (pip download --no-deps cuda-cccl==1.2.1 -d .cccl: CCCL 3.6); its
#          headers (cuda/cccl/headers/include/{cub,thrust,cuda,nv}) are unpacked once, beside it,
#          into a folder named after the wheel
#   DIR    an include directory (holding cub/version.cuh), a folder holding cuda/cccl/headers/include,
#          or a folder holding a wheel
#   none   .cccl/ at the repository root (a wheel or what an earlier call unpacked there)
# Exit code 0 with the directory on stdout; 1 with the reason on stderr when none is found.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source=${1:-$root/.cccl}
headers=cuda/cccl/headers/include

include_dir_of() {  # include_dir_of DIR: prints DIR's include directory, if it holds one
    if [ -f "$1/cub/version.cuh" ]; then echo "$1"
    elif [ -f "$1/$headers/cub/version.cuh" ]; then echo "$1/$headers"
    else return 1; fi
}

unpack() {  # unpack WHEEL: unpacks the wheel's headers beside it (once) and prints their directory
    local wheel=$1 dest
    dest="$(dirname "$wheel")/$(basename "$wheel" .whl)"
    if ! include_dir_of "$dest" >/dev/null; then
        python3 "$root/tools/unpack_wheel.py" "$wheel" "$dest" "$headers/" ||
            { echo "cccl_next.sh: cannot unpack $wheel" >&2; exit 1; }
    fi
    include_dir_of "$dest"
}

if [ -f "$source" ]; then
    unpack "$(cd "$(dirname "$source")" && pwd)/$(basename "$source")"
    exit 0
fi
if [ ! -d "$source" ]; then
    echo "cccl_next.sh: no such wheel or directory: $source" >&2
    exit 1
fi
source=$(cd "$source" && pwd)
include_dir_of "$source" && exit 0
# The newest wheel of the folder, else the newest folder unpacked from one.
wheel=$(ls "$source"/cuda_cccl-*.whl 2>/dev/null | sort -V | tail -1 || true)
if [ -n "$wheel" ]; then
    unpack "$wheel"
    exit 0
fi
for dir in $(ls -d "$source"/*/ 2>/dev/null | sort -V -r); do
    include_dir_of "${dir%/}" && exit 0
done
echo "cccl_next.sh: no CCCL headers or cuda-cccl wheel in $source (pip download --no-deps cuda-cccl==1.2.1 -d $source)" >&2
exit 1

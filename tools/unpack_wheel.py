#!/usr/bin/env python3
"""Unpacks the members of a wheel (a zip) whose paths start with PREFIX into the folder DEST, for
the scripts that take headers or a CMake package from one (tools/cccl_next.sh, tools/nvbench_wheel.sh).
DEST appears whole or not at all: the members go to DEST.tmp first, which then replaces DEST.

    python3 tools/unpack_wheel.py WHEEL DEST PREFIX

Exit code 1, with the reason, when the wheel cannot be read or holds nothing under PREFIX.
"""
import os
import shutil
import sys
import zipfile


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    wheel, dest, prefix = sys.argv[1:]
    partial = dest + ".tmp"
    shutil.rmtree(partial, ignore_errors=True)
    try:
        with zipfile.ZipFile(wheel) as z:
            members = [m for m in z.namelist() if m.startswith(prefix)]
            if not members:
                sys.exit(f"{wheel} has no {prefix}")
            z.extractall(partial, members)
    except (OSError, zipfile.BadZipFile) as error:
        sys.exit(f"cannot unpack {wheel}: {error}")
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(partial, dest)


if __name__ == "__main__":
    main()

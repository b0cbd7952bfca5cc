#!/usr/bin/env python3
"""Checks that the library's includes only point down its layers (README, "Where things live"):
course units -> device/ -> detail/ -> tuning/, support/; io/ -> support/; distributed/ -> all
but the course units (spmv.h, the single-GPU SpMV, allowed). Prints each include
that points up, and exits 1 if there is one."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'stream_compaction')
# What each folder may include from the library (besides itself).
ALLOWED = {
    'device': {'device', 'detail', 'tuning', 'support'},
    'detail': {'detail', 'tuning', 'support'},
    'tuning': {'tuning'},
    'support': {'support'},
    'io': {'io', 'support'},
    'distributed': {'distributed', 'device', 'detail', 'tuning', 'support', 'io'},
}
# Top-level headers (outside the folders above) a folder may include: distributed/ builds on the
# single-GPU SpMV, which lives beside the course units (target sc_sparse) but is no course unit.
ALLOWED_TOP_LEVEL = {
    'distributed': {'spmv.h'},
}
INCLUDE = re.compile(r'#include\s*[<"]stream_compaction/([^/>"]+)/')


def main():
    bad = []
    for folder, allowed in ALLOWED.items():
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                path = os.path.join(dirpath, name)
                with open(path, encoding='utf-8') as f:
                    for number, line in enumerate(f, 1):
                        if line.lstrip().startswith('#include') and 'stream_compaction/' in line:
                            match = INCLUDE.search(line)
                            target = match.group(1) if match else '(a course unit)'
                            header = line.split('stream_compaction/', 1)[1].split('>')[0].split('"')[0]
                            if not match and header in ALLOWED_TOP_LEVEL.get(folder, set()):
                                continue
                            if target not in allowed:
                                bad.append(f'{os.path.relpath(path, ROOT)}:{number}: {folder}/ includes {target}: {line.strip()}')
    print('\n'.join(bad) if bad else 'layering: every include points down')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

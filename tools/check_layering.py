#!/usr/bin/env python3
"""Checks that the library's includes only point down its layers (docs/design.md, "Where things
live"), and that its folders hold what they are for. Prints each breach, exits 1 if there is one.

  * Folders of stream_compaction/: the course units at its root may include anything;
    reference/ (CPU references) the course units, io/, support/; distributed/ -> device/ and
    below, io/; device/ -> detail/ -> tuning/ -> support/; device/ -> io/ (SpMV's CsrMatrix); io/ -> support/.
  * Levels inside detail/: util/ and host/ -> warp/ -> block/ -> grid/ -> the families (every
    other folder) -> device/. A file includes only from its own folder or a lower level; families
    may include other families, but never in a loop.
  * No include loop between any two files of the library.
  * The root holds course units only: each <name>.h declares the course timer (common.h defines
    it), each source has its header, and the deprecated forwarding headers of 0.10 (removed in 0.11)
    are forwarders and nothing else.

--selftest builds a small tree with one breach of each kind and checks that each is reported."""
import os
import re
import sys
import tempfile

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]stream_compaction/([^>"]+)[>"]')
SOURCES = ('.h', '.cuh', '.cu', '.cpp')

# What each top-level folder may include from the library besides itself ('.' = the course units).
ALLOWED = {
    'reference': {'.', 'io', 'support'},
    'distributed': {'device', 'detail', 'tuning', 'support', 'io'},
    'device': {'detail', 'tuning', 'support', 'io'},
    'detail': {'tuning', 'support'},
    'tuning': {'support'},
    'support': set(),
    'io': {'support'},
}
# Levels of detail/; any folder not named here is a family (level FAMILY).
DETAIL_LEVELS = {'util': 0, 'host': 0, 'warp': 1, 'block': 2, 'grid': 3}
FAMILY = 4
DEPRECATED_MARK = 'Deprecated in 0.10, removed in 0.11'


def library_files(root):
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(SOURCES):
                path = os.path.join(dirpath, name)
                yield os.path.relpath(path, root).replace(os.sep, '/'), path


def includes(path):
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if match:
                yield number, match.group(1)


def top_folder(rel):
    return rel.split('/')[0] if '/' in rel else '.'


def detail_folder(rel):
    parts = rel.split('/')
    return parts[1] if parts[0] == 'detail' and len(parts) > 2 else None


def level(folder):
    return DETAIL_LEVELS.get(folder, FAMILY)


def find_cycle(graph):
    """A cycle of `graph` (node -> set of nodes) as a list of nodes, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = 'open'
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 'open':
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 'done'
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def check(root, version_minor):
    bad, file_graph, family_graph = [], {}, {}
    for rel, path in library_files(root):
        folder = top_folder(rel)
        file_graph.setdefault(rel, set())
        for number, target in includes(path):
            where = f'{rel}:{number}'
            file_graph[rel].add(target)
            target_folder = top_folder(target)
            if folder != '.' and target_folder != folder and target_folder not in ALLOWED.get(folder, set()):
                shown = 'a course unit' if target_folder == '.' else target_folder + '/'
                bad.append(f'{where}: {folder}/ includes {shown}: {target}')
            source, dest = detail_folder(rel), detail_folder(target)
            if source and dest and source != dest:
                if level(dest) > level(source) or (level(dest) == level(source) < FAMILY):
                    bad.append(f'{where}: detail/{source}/ (level {level(source)}) includes detail/{dest}/ '
                               f'(level {level(dest)}): {target}')
                if level(source) == level(dest) == FAMILY:
                    family_graph.setdefault(source, set()).add(dest)
    cycle = find_cycle(family_graph)
    if cycle:
        bad.append('detail/: families include each other in a loop: ' + ' -> '.join(cycle))
    cycle = find_cycle({node: {t for t in targets if t in file_graph} for node, targets in file_graph.items()})
    if cycle:
        bad.append('include loop: ' + ' -> '.join(cycle))
    bad += check_root(root, version_minor)
    return bad


def check_root(root, version_minor):
    bad = []
    names = [n for n in os.listdir(root) if os.path.isfile(os.path.join(root, n)) and n.endswith(SOURCES)]
    for name in sorted(names):
        stem, ext = os.path.splitext(name)
        with open(os.path.join(root, name), encoding='utf-8') as f:
            text = f.read()
        if DEPRECATED_MARK in text:
            lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith('//')]
            forwarder = all(l.startswith(('#pragma once', '#ifndef', '#warning', '#endif', '#include')) for l in lines)
            if not forwarder:
                bad.append(f'{name}: marked deprecated but more than a forwarding header')
            elif version_minor > 10:
                bad.append(f'{name}: a forwarding header of 0.10, to be removed in 0.11')
        elif ext == '.h':
            if stem != 'common' and 'PerformanceTimer &timer()' not in text:
                bad.append(f'{name}: at the root of stream_compaction/, but no course unit (no timer()): '
                           'library code goes to device/ and detail/, CPU references to reference/')
        elif stem + '.h' not in names:
            bad.append(f'{name}: a source at the root without a course unit header {stem}.h')
    return bad


def project_minor():
    with open(os.path.join(REPO, 'CMakeLists.txt'), encoding='utf-8') as f:
        match = re.search(r'project\(StreamCompaction VERSION \d+\.(\d+)', f.read())
    return int(match.group(1)) if match else 0


def selftest():
    """Each kind of breach, planted in a small tree, must be reported."""
    tree = {
        'good.h': 'PerformanceTimer &timer();\n',
        'good.cu': '#include <stream_compaction/device/a.cuh>\n',
        'stray.cu': '',
        'library.h': '#include <stream_compaction/support/s.h>\n',
        'old.h': f'#pragma once\n// {DEPRECATED_MARK}\nint x;\n',
        'device/a.cuh': '#include <stream_compaction/good.h>\n',
        'detail/block/b.cuh': '#include <stream_compaction/detail/grid/g.cuh>\n',
        'detail/grid/g.cuh': '#include <stream_compaction/detail/block/b.cuh>\n',
        'detail/fam1/x.cuh': '#include <stream_compaction/detail/fam2/y.cuh>\n',
        'detail/fam2/y.cuh': '#include <stream_compaction/detail/fam1/x.cuh>\n',
        'support/s.h': '',
    }
    expected = ['device/ includes a course unit', 'detail/block/ (level 2) includes detail/grid/',
                'families include each other in a loop', 'include loop', 'library.h: at the root',
                'stray.cu: a source at the root', 'old.h: marked deprecated but more']
    with tempfile.TemporaryDirectory() as root:
        for rel, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w', encoding='utf-8') as f:
                f.write(text)
        report = '\n'.join(check(root, 10))
    missed = [e for e in expected if e not in report]
    print(report)
    print('selftest: ' + ('every planted breach reported' if not missed else 'NOT reported: ' + '; '.join(missed)))
    return 1 if missed else 0


def main():
    if sys.argv[1:] == ['--selftest']:
        return selftest()
    bad = check(os.path.join(REPO, 'stream_compaction'), project_minor())
    print('\n'.join(bad) if bad else 'layering: every include points down, no loops, course units alone at the root')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

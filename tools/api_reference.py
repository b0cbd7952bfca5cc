#!/usr/bin/env python3
"""The API reference, generated from the public headers' comments: one Markdown page per header of
stream_compaction/device/ and an index. A page holds the header's opening comment (what the family
does, its examples as code) and each public declaration of namespace StreamCompaction (functions,
classes, enums and aliases; detail:: stays out) with the comment above it.

    python3 tools/api_reference.py OUT_DIR [HEADER ...]   (default: stream_compaction/device/*.cuh)

Built by the CMake target `api_reference` into <build>/docs/api. Exits 1, naming the header, when
a header has no opening comment or declares nothing public: a public header documents itself.
Python 3 standard library only."""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))


def opening_comment(lines):
    """The // lines at the top of the file (after #pragma once), as text with examples fenced."""
    body, i = [], 0
    while i < len(lines) and lines[i].startswith('#pragma'):
        i += 1
    while i < len(lines) and lines[i].startswith('//'):
        body.append(lines[i][3:] if lines[i].startswith('// ') else lines[i][2:])
        i += 1
    out, in_code = [], False
    for line in body:
        code = line.startswith('  ')
        if code and not in_code:
            out.append('```cpp')
        elif not code and in_code:
            out.append('```')
        in_code = code
        out.append(line[2:] if code else line)
    if in_code:
        out.append('```')
    return '\n'.join(out).strip()


def code_of(line):
    """The line without its // comment and the contents of its string and character literals."""
    line = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '""', line)
    return line.split('//', 1)[0]


def public_declarations(lines):
    """(comment, signature) of each declaration at namespace StreamCompaction's own scope: the text
    up to its body's `{` or its `;`. Bodies (of functions and classes) are skipped whole."""
    found, comment, namespaces, depth, i = [], [], [], 0, 0
    while i < len(lines):
        stripped = lines[i].strip()
        opened = re.match(r'namespace\s+(\w+)\s*\{', stripped)
        if opened:
            namespaces.append((opened.group(1), depth))
            depth += 1
            comment, i = [], i + 1
            continue
        in_api = [n for n, _ in namespaces] == ['StreamCompaction'] and depth == len(namespaces)
        if not in_api or not stripped or stripped.startswith(('#', '}')):
            comment = [] if not stripped.startswith('//') else comment
            code = code_of(lines[i])
            depth += code.count('{') - code.count('}')
            while namespaces and depth <= namespaces[-1][1]:  # a namespace opened at depth d closes at d
                namespaces.pop()
            i += 1
            continue
        if stripped.startswith('//'):
            comment.append(stripped[3:] if stripped.startswith('// ') else stripped[2:])
            i += 1
            continue
        # A declaration: gather its lines up to `{` or `;` at this depth, then skip any body.
        signature, level = [], 0
        while i < len(lines):
            code = code_of(lines[i])
            signature.append(code.strip())
            ended = False
            for position, char in enumerate(code):
                if char == '{' and level == 0:
                    signature[-1] = code[:position].strip()
                    ended = 'body'
                    break
                if char == ';' and level == 0:
                    signature[-1] = code[:position].strip()
                    ended = 'end'
                    break
                if char in '({':
                    level += 1
                elif char in ')}':
                    level -= 1
            i += 1
            if ended == 'body':  # skip the body to its matching brace
                braces = code[code.index('{'):].count('{') - code[code.index('{'):].count('}')
                while braces > 0 and i < len(lines):
                    code = code_of(lines[i])
                    braces += code.count('{') - code.count('}')
                    i += 1
            if ended:
                break
        text = re.sub(r'\s+', ' ', ' '.join(part for part in signature if part)).strip()
        if text:
            found.append(('\n'.join(comment), text))
        comment = []
    return found


def page(header):
    with open(header, encoding='utf-8') as f:
        lines = f.read().split('\n')
    name = os.path.relpath(header, ROOT).replace(os.sep, '/')
    intro, declarations = opening_comment(lines), public_declarations(lines)
    problems = []
    if not intro:
        problems.append(f'{name}: no opening comment')
    if not declarations:
        problems.append(f'{name}: no public declaration in namespace StreamCompaction')
    text = [f'# `<{name}>`', '', intro, '',
            '## Declarations', '']
    for comment, signature in declarations:
        text += ['```cpp', signature, '```', '']
        if comment:
            text += [comment, '']
    return '\n'.join(text), problems


def main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        print(__doc__)
        return 0 if argv else 2
    out = argv[0]
    headers = argv[1:] or sorted(glob.glob(os.path.join(ROOT, 'stream_compaction', 'device', '*.cuh')))
    os.makedirs(out, exist_ok=True)
    index, problems = ['# API reference', '',
                       'Generated by `tools/api_reference.py` from the comments of the public headers.', ''], []
    for header in headers:
        text, header_problems = page(header)
        problems += header_problems
        stem = os.path.splitext(os.path.basename(header))[0]
        with open(os.path.join(out, stem + '.md'), 'w', encoding='utf-8') as f:
            f.write(text)
        first = text.split('\n')[2].split('.')[0] if len(text.split('\n')) > 2 else ''
        index.append(f'- [{stem}]({stem}.md): {first}')
    with open(os.path.join(out, 'index.md'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(index) + '\n')
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f'api reference: {len(headers)} headers into {out}' + (f', {len(problems)} problems' if problems else ''))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

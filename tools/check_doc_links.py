#!/usr/bin/env python3
"""Checks the relative links of the documentation: every `[text](path)` and `![alt](path)` in
README.md and docs/**/*.md (or in the Markdown files given) must name a file or folder that exists,
and a link to a heading of a Markdown file (`page.md#anchor`, or `#anchor` in the same page) must
name a heading that page has, by GitHub's rule for anchors (lower case, punctuation dropped, spaces
to hyphens, -1, -2, ... for repeats). Links inside code (fenced blocks and `spans`) and links to
other sites are not checked. Prints each broken link as file:line and exits 1 if there is one.

    python3 tools/check_doc_links.py            # README.md and docs/
    python3 tools/check_doc_links.py FILE.md ...

Python 3 standard library only.
"""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
LINK = re.compile(r'\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
FENCE = re.compile(r'^\s*(```|~~~)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
EXTERNAL = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')  # http:, https:, mailto:, ...


def prose_lines(path):
    """(line number, text) of the lines outside fenced code, code spans blanked."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    fence = None
    for number, line in enumerate(lines, 1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, CODE_SPAN.sub(lambda m: ' ' * len(m.group(0)), line)


def slug(text):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # a link in a heading: its text
    text = text.replace('`', '').strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


_anchors = {}


def anchors(path):
    if path not in _anchors:
        found, counts = set(), {}
        for _, line in prose_lines(path):
            match = HEADING.match(line)
            if match:
                base = slug(match.group(2))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else f'{base}-{n}')
        _anchors[path] = found
    return _anchors[path]


def check(path):
    broken = []
    # A link's text may wrap onto the next line; its "](target)" is on one line.
    for number, line in prose_lines(path):
        for match in LINK.finditer(line):
            target = match.group(1)
            if EXTERNAL.match(target):
                continue
            file_part, _, anchor = target.partition('#')
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = f'{os.path.relpath(path, ROOT)}:{number}'
            if not os.path.exists(resolved):
                broken.append(f'{where}: {target}: no such file')
            elif anchor and resolved.endswith('.md') and os.path.isfile(resolved):
                if anchor not in anchors(resolved):
                    broken.append(f'{where}: {target}: no heading with this anchor in '
                                  f'{os.path.relpath(resolved, ROOT)}')
    return broken


def main(argv):
    files = argv or [os.path.join(ROOT, 'README.md')] + sorted(
        glob.glob(os.path.join(ROOT, 'docs', '**', '*.md'), recursive=True))
    broken = []
    for path in files:
        broken.extend(check(os.path.abspath(path)))
    print('\n'.join(broken) if broken else f'doc links: {len(files)} files, every relative link resolves')
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Check the relative links of the documentation: README.md and docs/*.md.

For every Markdown link `[text](target)` or `[text](target#anchor)` (images too) outside code
blocks and inline code, the target must exist, relative to the linking file; when the link has
an anchor and the target is a Markdown file (or the link is `(#anchor)`, the same file), that
file must have a heading whose GitHub slug is the anchor. The slug is GitHub's: the heading's
text lowercased, every character other than a letter, a digit, a space, a hyphen or an
underscore dropped, spaces turned into hyphens, and a repeated slug suffixed -1, -2, ...
Links with a scheme (http:, https:, mailto:, ...) are not checked.

    tools/check_links.py [FILE.md ...]     # default: README.md and docs/*.md

Prints `file:line: broken link target (reason)` for each broken link and exits 1 if there is
any; otherwise prints one summary line and exits 0. Standard library only.
"""

import os
import re
import sys
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# [text](target) or [text](target "title"), the text holding at most one level of brackets.
LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]"
    r"\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
HTML_ANCHOR = re.compile(r"<a\s[^>]*(?:name|id)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(path):
    """(line number, text) of each line outside fenced code blocks."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fence = None
    for number, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                continue
            yield number, line
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
            if not line.strip().strip(fence[0]):
                fence = None


def slug(text):
    """GitHub's anchor for a heading's text (before the duplicate suffix)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading: its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


_anchor_cache = {}


def anchors(path):
    """The set of anchors of a Markdown file: its headings' slugs and its HTML anchors."""
    path = os.path.realpath(path)
    if path not in _anchor_cache:
        found, seen = set(), {}
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if m:
                base = slug((m.group(2) or "").strip())
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
            for a in HTML_ANCHOR.findall(line):
                found.add(a)
        _anchor_cache[path] = found
    return _anchor_cache[path]


def check_file(path, display):
    """The broken links of one file as messages, and the number of links checked."""
    broken, checked = [], 0
    for number, line in prose_lines(path):
        text = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)
        for m in LINK.finditer(text):
            target = m.group(1)
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            if not target or SCHEME.match(target):
                continue
            checked += 1
            file_part, _, anchor = target.partition("#")
            file_part = urllib.parse.unquote(file_part)
            anchor = urllib.parse.unquote(anchor)
            if file_part:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(dest):
                    broken.append(f"{display}:{number}: broken link {target} (no file {file_part})")
                    continue
            else:
                dest = path
            if not anchor or not dest.endswith(".md") or os.path.isdir(dest):
                continue
            if anchor not in anchors(dest):
                where = "this file" if not file_part else file_part
                broken.append(
                    f"{display}:{number}: broken link {target} (no heading '#{anchor}' in {where})"
                )
    return broken, checked


def main(argv):
    if argv:
        files = [os.path.abspath(a) for a in argv]
    else:
        docs = os.path.join(ROOT, "docs")
        files = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(docs, name) for name in os.listdir(docs) if name.endswith(".md")
        )
    broken, checked = [], 0
    for path in files:
        display = os.path.relpath(path, os.getcwd())
        if not os.path.isfile(path):
            broken.append(f"{display}:0: broken link {display} (no such file to check)")
            continue
        b, c = check_file(path, display)
        broken += b
        checked += c
    for message in broken:
        print(message)
    if broken:
        return 1
    print(f"check_links: {checked} relative links in {len(files)} files, all resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Every relative link of the docs points to a file that exists, and every anchor to a heading.

The docs are split by feature (docs/server.md is the map; each feature's part is the README.md
of its package under src/), so a section that moves leaves links behind it. This test reads
README.md, every page under docs/ and every README.md under src/, takes each relative markdown
link (inline `[text](target)` and reference `[name]: target`, outside code), and checks that its
file exists and, for a link to a markdown heading (`file.md#anchor` or `#anchor`), that the
heading exists, with GitHub's anchors: lower case, punctuation dropped, spaces made hyphens, a
repeated heading numbered `-1`, `-2`.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]

FENCE = re.compile(r"^ {0,3}(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def doc_files(root: Path) -> list[Path]:
    """README.md, the pages under docs/ and every README.md under src/."""
    files = [root / "README.md"] if (root / "README.md").exists() else []
    files += sorted((root / "docs").rglob("*.md"))
    files += sorted((root / "src").rglob("README.md"))
    return files


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, with code spans blanked out, numbered from 1."""
    lines = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, CODE_SPAN.sub("``", line)))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a markdown file, repeated ones numbered as GitHub does."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = HEADING.match(line)
        if fenced or not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """The relative link targets of one file: (line, target)."""
    found = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        targets = [m.group(1) for m in INLINE.finditer(line)]
        reference = REFERENCE.match(line)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            target = target.strip("<>")
            if SCHEME.match(target) or target.startswith("//"):
                continue
            found.append((number, target))
    return found


def broken_links(root: Path) -> list[str]:
    """Each relative link whose file or heading does not exist, as `file:line: target: why`."""
    problems = []
    for path in doc_files(root):
        for number, target in links(path):
            where = f"{path.relative_to(root)}:{number}: {target}"
            file_part, _, anchor = target.partition("#")
            dest = path if not file_part else (path.parent / unquote(file_part)).resolve()
            if not dest.exists():
                problems.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and unquote(anchor).lower() not in anchors(dest):
                problems.append(f"{where}: {dest.name} has no heading with this anchor")
    return problems


def test_every_relative_link_of_the_docs_resolves() -> None:
    problems = broken_links(ROOT)
    assert not problems, "broken links in the docs:\n" + "\n".join(problems)


def test_the_feature_docs_are_checked() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in doc_files(ROOT)}
    assert "docs/server.md" in names
    assert "src/meeple/server/table/README.md" in names
    assert "src/meeple/server/features/chat/README.md" in names


@pytest.mark.parametrize(("heading", "anchor"), [
    ("Presence: who is at the table", "presence-who-is-at-the-table"),
    ("On the open internet: what the server's edge does", "on-the-open-internet-what-the-servers-edge-does"),
    ("Playing from the terminal (`meeple join`)", "playing-from-the-terminal-meeple-join"),
    ("Profiles (`/u/<username>`)", "profiles-uusername"),
    ("Move ids, and what a client does when a reply is lost",
     "move-ids-and-what-a-client-does-when-a-reply-is-lost"),
])
def test_anchors_are_githubs(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_a_missing_file_a_missing_heading_and_code_are_told_apart(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## Two words\n\n## Two words\n")
    (tmp_path / "README.md").write_text(
        "# Top\n\n"
        "[ok](docs/other.md#two-words) [repeat](docs/other.md#two-words-1) [self](#top)\n"
        "[web](https://example.org/x.md) [mail](mailto:a@example.org)\n"
        "[gone](docs/gone.md) [no heading](docs/other.md#three-words) [no self](#nowhere)\n"
        "`[in code](docs/nothing.md)`\n\n"
        "```\n[fenced](docs/nothing.md)\n```\n\n"
        "[ref]: docs/also-gone.md\n")
    assert broken_links(tmp_path) == [
        "README.md:5: docs/gone.md: no such file",
        "README.md:5: docs/other.md#three-words: other.md has no heading with this anchor",
        "README.md:5: #nowhere: README.md has no heading with this anchor",
        "README.md:12: docs/also-gone.md: no such file",
    ]

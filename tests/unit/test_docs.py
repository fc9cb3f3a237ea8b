"""The documentation holds together: the README stays a short front page, every relative link in
it and in docs/*.md reaches a file (and a heading, when it names one), and no internal word of the
project's own making reaches a reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text a reader reads as prose: code blocks and code spans left out."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lowercased, punctuation dropped, spaces to
    hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    for _, title in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link's text only
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(page: Path) -> list[str]:
    return LINK.findall(_prose(page.read_text(encoding="utf-8")))


def test_the_readme_is_a_front_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: move detail into docs/"


def test_there_are_pages_and_links_to_check() -> None:
    assert len(PAGES) > 2
    assert any(_links(page) for page in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in _links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto: ...
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.name}")
    assert not broken, broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_internal_word_reaches_a_reader(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    found = [line for line in text.splitlines() if re.search(r"\bseed\b", line, re.I)]
    assert not found, found


def test_the_anchors_are_githubs() -> None:
    """The slug rule above, on headings of the kinds these pages use."""
    page = ROOT / "docs" / "api.md"
    anchors = _anchors(page)
    assert "who-is-asking-principal-tokens" in anchors
    assert "using-it-from-python-in-the-services-process" in anchors
    assert "connecting-claude-desktop-cursor-or-another-mcp-client" in anchors

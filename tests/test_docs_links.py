"""The README's and docs/' links: every relative link reaches a file, every `#anchor` a heading
of its page (as GitHub makes them), and every page of docs/ is linked from the README."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCED = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation but '-' and '_'
    dropped, spaces made '-', a repeated heading numbered -1, -2 ...; and explicit ids."""
    text = page.read_text(encoding="utf-8")
    found: set[str] = set(re.findall(r'<a (?:name|id)="([^"]+)"', text))
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#+\s+(.*?)\s*$", FENCED.sub("", text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """(line, target) of the page's relative links, outside fenced code."""
    text = FENCED.sub(lambda block: "\n" * block.group(0).count("\n"), page.read_text(encoding="utf-8"))
    return [(number, target) for number, line in enumerate(text.splitlines(), 1)
            for target in LINK.findall(line) if not re.match(r"[a-z]+:", target)]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_links_reach_a_file_and_a_heading(page: Path) -> None:
    broken = []
    for number, target in links(page):
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{page.name}:{number}: no file {target}")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{page.name}:{number}: no heading #{anchor} in {linked.name}")
    assert broken == []


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for _, target in links(ROOT / "README.md")}
    assert [page.name for page in PAGES[1:] if page.resolve() not in linked] == []

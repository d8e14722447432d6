"""Every link inside the built site resolves: the page or file exists, and so does the #fragment on it."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

pytestmark = pytest.mark.site

LINKING = {("a", "href"), ("link", "href"), ("img", "src"), ("script", "src"), ("source", "src"), ("iframe", "src")}


class Links(HTMLParser):
    """The links and the element ids (and `name`d anchors) of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            if (tag, name) in LINKING:
                self.links.append(value)


def parse(path: Path) -> Links:
    links = Links()
    links.feed(path.read_text(encoding="utf-8"))
    links.close()
    return links


def target_file(site: Path, url_path: str) -> Path:
    """The file a URL path inside the site serves (a folder serves its index.html)."""
    path = site / unquote(url_path).lstrip("/")
    return path / "index.html" if url_path.endswith("/") or path.is_dir() else path


def broken_links(site: Path) -> list[str]:
    """Every internal link of the site whose file, or whose #fragment on that page, does not exist."""
    pages = {path: parse(path) for path in sorted(site.rglob("*.html"))}
    broken = []
    for path, page in pages.items():
        base = "/" + path.relative_to(site).as_posix()
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("#") and link in {"#", "#top"}:
                continue  # outside the site (the privacy tests keep assets local), or the top of the page
            url = urlsplit(urljoin(base, link))
            target = target_file(site, url.path)
            if not target.is_file():
                broken.append(f"{base}: {link} (no {target.relative_to(site)})")
            elif url.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(url.fragment) not in ids:
                    broken.append(f"{base}: {link} (no id {url.fragment!r} on {target.relative_to(site)})")
    return broken


def test_every_internal_link_and_fragment_resolves(built_site: Path) -> None:
    assert len(list(built_site.rglob("index.html"))) >= 10
    broken = broken_links(built_site)
    assert not broken, f"{len(broken)} broken link(s):\n" + "\n".join(broken[:50])


def test_checker_finds_a_missing_page_and_a_missing_fragment(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text('<h1 id="top-heading">A</h1><a href="../b/">b</a><a href="#top-heading">ok</a>')
    (tmp_path / "index.html").write_text('<a href="a/#top-heading">ok</a><a href="a/#gone">x</a><a href="https://e.example/">out</a>')
    assert broken_links(tmp_path) == [
        "/a/index.html: ../b/ (no b/index.html)",
        "/index.html: a/#gone (no id 'gone' on a/index.html)",
    ]

"""Every link inside the built site resolves: the page or file exists, and so does the #fragment on it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from helpers import Page, parse


def links_of(path: Path) -> Page:
    return parse(path.read_text(encoding="utf-8"))


def target_file(site: Path, url_path: str) -> Path:
    """The file a URL path inside the site serves (a folder serves its index.html)."""
    path = site / unquote(url_path).lstrip("/")
    return path / "index.html" if url_path.endswith("/") or path.is_dir() else path


def broken_links(site: Path) -> list[str]:
    """Every internal link of the site whose file, or whose #fragment on that page, does not exist."""
    pages = {path: links_of(path) for path in sorted(site.rglob("*.html"))}
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
            elif url.fragment.startswith("code=") and url.path.endswith("/playground/"):
                continue  # a program for the Playground to open (#code=, base64url), not an id
            elif url.fragment and target.suffix == ".html":
                anchors = pages[target].anchors if target in pages else links_of(target).anchors
                if unquote(url.fragment) not in anchors:
                    broken.append(f"{base}: {link} (no id {url.fragment!r} on {target.relative_to(site)})")
    return broken


@pytest.mark.site
def test_every_internal_link_and_fragment_resolves(built_site: Path) -> None:
    assert len(list(built_site.rglob("index.html"))) >= 10
    broken = broken_links(built_site)
    assert not broken, f"{len(broken)} broken link(s):\n" + "\n".join(broken[:50])


def test_checker_finds_a_missing_page_and_a_missing_fragment(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text(
        '<h1 id="top-heading">A</h1><a href="../b/">b</a><a href="#top-heading">ok</a>'
    )
    (tmp_path / "index.html").write_text(
        '<a href="a/#top-heading">ok</a><a href="a/#gone">x</a><a href="https://e.example/">out</a>'
    )
    assert broken_links(tmp_path) == [
        "/a/index.html: ../b/ (no b/index.html)",
        "/index.html: a/#gone (no id 'gone' on a/index.html)",
    ]

"""Every link inside the built site resolves: the page or file exists, and so does the #fragment on it.

The checker is scripts/check_site.py's (which `make build` runs after every build, whichever builder built the
site); tests/site/test_check_site.py shows it finding dead links and missing fragments.
"""

from __future__ import annotations

import re
from importlib.metadata import metadata
from pathlib import Path

import pytest
from helpers import REPO, load_module, page_html

check_site = load_module("scripts/check_site.py")


@pytest.mark.site
def test_every_internal_link_and_fragment_resolves(built_site: Path) -> None:
    assert len(list(built_site.rglob("index.html"))) >= 10
    found = check_site.problems(built_site)
    assert not found, f"{len(found)} problem(s):\n" + "\n".join(found[:50])


@pytest.mark.site
def test_canonical_links_and_the_sitemap_give_the_published_address(built_site: Path) -> None:
    """Built without SITE_URL (as the tests and the Pages workflow build it): every page's canonical link and every
    sitemap entry is on the published site, whose address the package's metadata names too."""
    published = dict(entry.split(", ", 1) for entry in metadata("glassgrad").get_all("Project-URL") or [])[
        "Documentation"
    ]
    assert published.startswith("https://") and published.endswith("/")
    for page in ("", "chapters/1-pytorch/", "playground/"):
        assert f'<link rel="canonical" href="{published}{page}">' in page_html(built_site, page), page or "Home"
    addresses = re.findall(r"<loc>([^<]+)</loc>", (built_site / "sitemap.xml").read_text(encoding="utf-8"))
    assert len(addresses) >= 10 and all(address.startswith(published) for address in addresses)


def test_every_markdown_link_names_a_source_file_both_builders_resolve() -> None:
    """The pages' relative links (printed ones included) name a file of docs/ or a page of the nav, never a built URL."""
    assert check_site.source_link_problems(REPO / "docs") == []

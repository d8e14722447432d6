"""Every link inside the built site resolves: the page or file exists, and so does the #fragment on it.

The checker is scripts/check_site.py's (which `make build` runs after every build, whichever builder built the
site); tests/site/test_check_site.py shows it finding dead links and missing fragments.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import REPO, load_module

check_site = load_module("scripts/check_site.py")


@pytest.mark.site
def test_every_internal_link_and_fragment_resolves(built_site: Path) -> None:
    assert len(list(built_site.rglob("index.html"))) >= 10
    found = check_site.problems(built_site)
    assert not found, f"{len(found)} problem(s):\n" + "\n".join(found[:50])


def test_every_markdown_link_names_a_source_file_both_builders_resolve() -> None:
    """The pages' relative links (printed ones included) name a file of docs/ or a page of the nav, never a built URL."""
    assert check_site.source_link_problems(REPO / "docs") == []

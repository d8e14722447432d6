"""Every page in a real browser, loaded once: axe-core finds no WCAG 2 A/AA problem in either palette, the page
logs no console error, requests nothing outside the site, and at a phone's width never scrolls sideways
(how each figure fits the screen: the chapters' figure tests).

axe-core comes with `axe-playwright-python` (no download at run time); Playwright drives Debian's Chromium
(conftest's session-wide `browser`) on the site built once for the run. One test per page of mkdocs.yml's
nav, so the two xdist workers share the pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

from helpers import nav_paths, url_of  # noqa: E402

from conftest import site_pages  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

WCAG_A_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
COLOUR_RULES = {
    "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]},
    "resultTypes": ["violations"],
}
"""The dark palette changes colours only (Material's slate scheme swaps colour variables): in it, the rules about colour."""

PAGES = [url_of(path) for path in nav_paths()]
# The longest checks first, so that the two workers finish together.
PAGES.sort(key=lambda page: page not in ("notebook/tutorial/", "reference/", "chapters/3-fused-sigmoid/"))

# The document's width against the viewport's, naming the widest elements that stick out (for the report).
OVERFLOW = """() => {
  const viewport = document.documentElement.clientWidth;
  const culprits = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > viewport + 1 && !e.closest('.gg-scroll, pre, .md-typeset__scrollwrap'))
    .slice(0, 3).map(e => e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined ? '.' + e.className : ''));
  return {document: document.documentElement.scrollWidth, viewport, culprits};
}"""


def describe(violation: dict[str, Any]) -> str:
    nodes = violation["nodes"]
    first = nodes[0]["failureSummary"].replace("\n", " ")
    targets = ", ".join(" ".join(node["target"]) for node in nodes[:3])
    return f"{violation['id']} on {len(nodes)} element(s), e.g. {targets}: {first}"


def test_the_checks_below_visit_every_built_page(built_site: Path) -> None:
    assert sorted(site_pages(built_site)) == sorted(PAGES)
    assert len(PAGES) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page or "home")
def test_page_passes_axe_in_both_palettes_loads_cleanly_and_fits_a_phone(
    built_site: Path, browser: Any, site_url: str, page: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    outside: list[str] = []
    tab.on("console", lambda message: message.type == "error" and errors.append(message.text))
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on(
        "request",
        lambda request: request.url.startswith((site_url, "data:", "blob:", "about:")) or outside.append(request.url),
    )
    problems: list[str] = []
    try:
        tab.goto(site_url + page, wait_until="networkidle")
        axe = axe_playwright.Axe()
        assert tab.get_attribute("body", "data-md-color-scheme") == "default"
        problems += [f"light: {describe(v)}" for v in axe.run(tab, options=WCAG_A_AA).response["violations"]]
        tab.locator("form[data-md-component=palette] label:visible").first.click()  # the reader's palette toggle
        tab.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
        problems += [f"dark: {describe(v)}" for v in axe.run(tab, options=COLOUR_RULES).response["violations"]]

        tab.set_viewport_size({"width": 375, "height": 800})  # a phone
        widths = tab.evaluate(OVERFLOW)
        if widths["document"] > widths["viewport"]:
            problems.append(f"at 375 px the document is wider than the phone: {widths}")
    finally:
        context.close()
    problems += [f"console error: {error}" for error in errors] + [
        f"request outside the site: {url}" for url in outside
    ]
    assert not problems, f"{page or 'Home'}:\n" + "\n".join(problems)

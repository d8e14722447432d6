"""Every page of the nav in a real browser, visited once: axe-core finds no WCAG 2 A/AA problem in either palette,
the page logs no console error and requests nothing outside the site, no chapter's listing hides part of a line
at 1280 px, and at 1280 and 375 px every graph figure fits the article with legible node text while the page never scrolls
sideways.

axe-core comes with `axe-playwright-python` (no download at run time); Playwright drives Debian's Chromium
on the site built once for the run (conftest's `visit`). One test per page, so the two xdist workers share them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

from helpers import nav_paths, url_of  # noqa: E402

from conftest import Visit, site_pages  # noqa: E402

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
# Pages whose graphs are not measured: the playground draws in the reader's browser (its own tests), the API
# reference has none.
FIGURES_NOT_MEASURED = {"playground/", "reference/"}
# The longest checks first, so that the two workers finish together.
PAGES.sort(key=lambda page: page not in ("notebook/tutorial/", "reference/", "chapters/3-fused-sigmoid/"))

# A listing whose every token (a highlighted <span>: class, colour, font, backdrop) repeats one of an earlier
# listing's has the same contrasts: axe checks the first listing of each kind and skips the repeats (marked here).
MARK_REPEATS = """() => {
  const backdrop = el => {
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage !== 'none') return null;  // a gradient or image: measure every one
      if (style.backgroundColor !== 'rgba(0, 0, 0, 0)') return style.backgroundColor;
    }
    return 'canvas';
  };
  const kind = el => {
    const style = getComputedStyle(el), behind = backdrop(el);
    return behind === null ? null : [el.className, style.color, style.fontSize, style.fontWeight, style.opacity, behind].join('|');
  };
  const seen = new Set();
  for (const listing of document.querySelectorAll('pre')) {
    const kinds = [listing, ...listing.querySelectorAll('*')].map(kind);
    if (kinds.every(k => k !== null && seen.has(k))) listing.setAttribute('data-axe-repeat', '');
    kinds.forEach(k => seen.add(k));
  }
}"""
AXE_CONTEXT = {"exclude": [["[data-axe-repeat]"]]}

# The document's width against the viewport's, naming the widest elements that stick out (for the report).
OVERFLOW = """() => {
  const viewport = document.documentElement.clientWidth;
  const culprits = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > viewport + 1 && !e.closest('.gg-scroll, pre, .md-typeset__scrollwrap'))
    .slice(0, 3).map(e => e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined ? '.' + e.className : ''));
  return {document: document.documentElement.scrollWidth, viewport, culprits};
}"""

# (window width, smallest node text in CSS px) for a desktop and a phone.
SCREENS = ((1280, 9.0), (375, 8.0))

# Every displayed graph figure: where it lies against the article, whether its box scrolls, its smallest node text.
MEASURE = """() => {
  const article = document.querySelector('article').getBoundingClientRect();
  return [...document.querySelectorAll('article figure.gg-graph svg.gg-svg')].flatMap((svg, index) => {
    const box = svg.getBoundingClientRect();
    if (!box.width) return [];  // the other rendering of a figure drawn twice (one per screen width)
    const scale = svg.getScreenCTM().a;
    const sizes = [...svg.querySelectorAll('g.node text')].map(t => parseFloat(t.getAttribute('font-size')) * scale);
    const scroll = svg.closest('.gg-scroll');
    const player = svg.closest('.gg-player');
    return [{
      index, title: svg.querySelector('title').textContent,
      left: box.left - article.left, right: article.right - box.right,
      hidden: scroll ? scroll.scrollWidth - scroll.clientWidth : 0,
      text: Math.min(...sizes),
      fullscreen: player ? player.id : null,
    }];
  });
}"""

# The same figure in its player opened full screen: its width against the window, its smallest node text.
MEASURE_FULLSCREEN = """(id) => {
  const svg = document.getElementById(id).querySelector('figure.gg-graph svg.gg-svg');
  const box = svg.getBoundingClientRect(), scale = svg.getScreenCTM().a;
  const scroll = svg.closest('.gg-scroll');
  const sizes = [...svg.querySelectorAll('g.node text')].map(t => parseFloat(t.getAttribute('font-size')) * scale);
  return {left: box.left, right: innerWidth - box.right, hidden: scroll.scrollWidth - scroll.clientWidth,
          text: Math.min(...sizes)};
}"""

# A chapter's listings and printed output whose longest line is cut at 1280 px (a reader would scroll sideways).
CUT_LINES = """() => [...document.querySelectorAll('article pre > code')]
  .filter(code => code.scrollWidth > code.clientWidth + 1)
  .map(code => code.textContent.split('\\n').reduce((longest, line) => line.length > longest.length ? line : longest, ''))"""


def describe(violation: dict[str, Any]) -> str:
    nodes = violation["nodes"]
    first = nodes[0]["failureSummary"].replace("\n", " ")
    targets = ", ".join(" ".join(node["target"]) for node in nodes[:3])
    return f"{violation['id']} on {len(nodes)} element(s), e.g. {targets}: {first}"


def misfits(figure: dict[str, Any], smallest: float) -> list[str]:
    """What keeps a measured figure from fitting: outside the article, scrolling sideways, text too small."""
    found = []
    if figure["left"] < -1 or figure["right"] < -1:
        found.append(f"runs outside the article by {max(-figure['left'], -figure['right']):.0f} px")
    if figure["hidden"] > 1:
        found.append(f"scrolls sideways ({figure['hidden']:.0f} px hidden)")
    if figure["text"] < smallest - 0.05:  # a drawing shown at exactly half size has 8 px text, give or take a rounding
        found.append(f"node text {figure['text']:.1f} px tall (at least {smallest:g})")
    return found


def figures_that_do_not_fit(tab: Any, width: int, smallest: float) -> list[str]:
    """Every graph figure of the page measured at the window's current width; a player's graph that cannot fit
    the page may instead open full screen, where it must."""
    failures = []
    for figure in tab.evaluate(MEASURE):
        found = misfits(figure, smallest)
        if found and figure["fullscreen"]:
            player = f"#{figure['fullscreen']}"
            tab.click(f"{player} [data-gg-action=fullscreen]")
            full = tab.evaluate(MEASURE_FULLSCREEN, figure["fullscreen"])
            found = [f"full screen: {problem}" for problem in misfits(full, smallest)]
            tab.keyboard.press("Escape")
            tab.evaluate("id => document.getElementById(id).ggClose()", figure["fullscreen"])
        failures += [f"{width} px, figure {figure['index']} ({figure['title']}): {problem}" for problem in found]
    return failures


def test_the_checks_below_visit_every_built_page(built_site: Path) -> None:
    assert sorted(site_pages(built_site)) == sorted(PAGES)
    assert {"", "chapters/3-fused-sigmoid/", "beyond/why-order/", "training/", "reuse/"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page or "home")
def test_page_is_accessible_loads_cleanly_and_fits_a_desktop_and_a_phone(
    visit: Callable[..., Visit], page: str
) -> None:
    session = visit(page, wait_until="networkidle")
    tab = session.page
    axe = axe_playwright.Axe()
    problems: list[str] = []
    assert tab.get_attribute("body", "data-md-color-scheme") == "default"
    tab.evaluate(MARK_REPEATS)
    problems += [f"light: {describe(v)}" for v in axe.run(tab, AXE_CONTEXT, WCAG_A_AA).response["violations"]]
    if page.startswith("chapters/"):
        problems += [f"1280 px, a line wider than its code box: {line}" for line in tab.evaluate(CUT_LINES)]
    measured = page not in FIGURES_NOT_MEASURED
    if measured:
        problems += figures_that_do_not_fit(tab, *SCREENS[0])

    tab.locator("form[data-md-component=palette] label:visible").first.click()  # the reader's palette toggle
    tab.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    problems += [f"dark: {describe(v)}" for v in axe.run(tab, AXE_CONTEXT, COLOUR_RULES).response["violations"]]

    width, smallest = SCREENS[1]
    tab.set_viewport_size({"width": width, "height": 800})  # a phone
    widths = tab.evaluate(OVERFLOW)
    if widths["document"] > widths["viewport"]:
        problems.append(f"at {width} px the document is wider than the phone: {widths}")
    if measured:
        problems += figures_that_do_not_fit(tab, width, smallest)

    problems += [f"console error: {error}" for error in session.errors]
    problems += [f"request outside the site: {url}" for url in session.outside]
    assert not problems, f"{page or 'Home'}:\n" + "\n".join(problems)

"""Every page of the nav in a real browser, visited once: axe-core finds no WCAG 2 A/AA or best-practice problem in either palette,
the page logs no console error and requests nothing outside the site, no chapter's listing hides part of a line
at 1280 px, and at 1280 and 375 px every graph figure fits the article with legible node text, no other text is under
12 px (formulas' exponents included), and the page never scrolls sideways.

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

from helpers import SETTLED, Visit, nav_paths, site_pages, url_of  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

COLOUR_RULES = {
    "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]},
    "resultTypes": ["violations"],
}
LIGHTHOUSE_EXTRA = [
    "identical-links-same-purpose",
    "label-content-name-mismatch",
    "table-fake-caption",
    "td-has-header",
]
"""The rules of Lighthouse's accessibility audits that the tags below leave out (AAA or marked experimental by axe)."""
OTHER_RULES = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
    "rules": {
        **{rule: {"enabled": False} for rule in COLOUR_RULES["runOnly"]["values"]},
        **{rule: {"enabled": True} for rule in LIGHTHOUSE_EXTRA},
    },
    "resultTypes": ["violations"],
}
"""WCAG 2.2 A and AA and axe's best practices (heading order, named dialogs, unique landmarks, table headers, target
sizes, ...) and the rest of Lighthouse's accessibility audits: the rules about colour, and the others. The dark palette changes colours only (Material's slate scheme swaps colour variables): in
it, the colour rules."""

PAGES = [url_of(path) for path in nav_paths()]
# Pages whose graphs are not measured: the playground draws in the reader's browser (its own tests), the API
# reference has none.
FIGURES_NOT_MEASURED = {"playground/", "reference/"}
# The longest checks first, so that the two workers finish together.
PAGES.sort(key=lambda page: page not in ("notebook/tutorial/", "reference/", "chapters/3-fused-sigmoid/"))

# Contrast is what the colour rules measure, and it depends only on what an element's text looks like: its colour,
# font, opacity, shadow and underline, the backdrop behind it and, for a link, the text around it. A subtree whose
# every text looks like one shown earlier on the page has the contrasts already measured there: it is marked here,
# and the colour rules skip it (on the notebook page, four times quicker). An earlier text counts only where axe can
# judge it (shown whole, at least two letters or digits). The other rules always see the whole page.
MARK_REPEATS = r"""() => {
  document.querySelectorAll('[data-axe-repeat]').forEach(el => el.removeAttribute('data-axe-repeat'));
  const all = [...document.body.querySelectorAll('*')];
  const index = new Map(all.map((el, i) => [el, i]));
  const backdrop = el => {
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage !== 'none') return null;  // a gradient or an image: judged every time
      if (style.backgroundColor !== 'rgba(0, 0, 0, 0)') return style.backgroundColor;
    }
    return 'canvas';
  };
  // Text axe can judge: two letters or digits at least (a shorter text is "too short to tell" to axe).
  const hasText = el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').replace(/[^\p{L}\p{N}]/gu, '').length >= 2;
  // Shown whole: laid out, visible, not hidden from assistive technology, not scrolled out of its box.
  const shown = el => {
    const box = el.getBoundingClientRect(), s = getComputedStyle(el);
    if (box.width <= 1 || box.height <= 1 || s.visibility !== 'visible' || el.closest('[aria-hidden=true], [inert], [disabled]')) return false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const o = getComputedStyle(up);
      if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
      const frame = up.getBoundingClientRect();
      if (box.left < frame.left - 1 || box.right > frame.right + 1 || box.top < frame.top - 1 || box.bottom > frame.bottom + 1) return false;
    }
    return box.left >= 0 && box.right <= document.documentElement.clientWidth;
  };
  // first[i]: where element i's look first appears on the page (-1: no text axe would judge).
  const firstSeen = new Map();
  const first = all.map((el, i) => {
    if (!hasText(el) || !shown(el)) return -1;
    const s = getComputedStyle(el), behind = backdrop(el);
    const block = el.tagName === 'A' && el.parentElement.closest('p, li, td, th, dd, dt, div, blockquote, figcaption, h1, h2, h3, h4, h5, h6');
    const around = block ? getComputedStyle(el.parentElement).color + (block.textContent.trim() !== el.textContent.trim()) : '';
    const look = behind === null || s.position === 'fixed' || s.position === 'absolute' ? 'unique' + i :
      [s.color, s.fill, s.fontSize, s.fontWeight, s.opacity, s.textShadow, s.textDecorationLine, around, behind].join('|');
    if (!firstSeen.has(look)) firstSeen.set(look, i);
    return firstSeen.get(look);
  });
  // newest[i]: the latest first appearance of any look in element i's subtree (its descendants follow it).
  const newest = first.slice();
  for (let i = all.length - 1; i >= 0; i--) {
    const parent = index.get(all[i].parentElement);
    if (parent !== undefined) newest[parent] = Math.max(newest[parent], newest[i]);
  }
  // From the top: a subtree whose every look first appeared before it is a repeat; otherwise look inside.
  let marked = 0;
  const walk = el => {
    const i = index.get(el);
    if (newest[i] < i) { el.setAttribute('data-axe-repeat', ''); marked++; return; }
    for (const child of el.children) walk(child);
  };
  for (const child of document.body.children) walk(child);
  return marked;
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

# (window width, smallest node text, smallest edge label (the local derivatives), in CSS px) for a desktop and a phone:
# on a desktop, beside 16 px body text, a graph's text at least 12 px and its labels 10 px.
SCREENS = ((1280, 12.0, 10.0), (375, 8.0, 7.0))

# Every displayed graph figure: where it lies against the article, whether its box scrolls, its smallest node text.
MEASURE = """() => {
  const article = document.querySelector('article').getBoundingClientRect();
  return [...document.querySelectorAll('article figure.gg-graph svg.gg-svg')].flatMap((svg, index) => {
    const box = svg.getBoundingClientRect();
    if (!box.width) return [];  // the other rendering of a figure drawn twice (one per screen width)
    const scale = svg.getScreenCTM().a;
    const size = kind => Math.min(...[...svg.querySelectorAll(`g.${kind} text`)].map(t => parseFloat(t.getAttribute('font-size')) * scale));
    const scroll = svg.closest('.gg-scroll');
    const player = svg.closest('.gg-player');
    return [{
      index, title: svg.querySelector('title').textContent,
      left: box.left - article.left, right: article.right - box.right,
      hidden: scroll ? scroll.scrollWidth - scroll.clientWidth : 0,
      text: size('node'), label: size('edge'),
      fullscreen: player ? player.id : null,
    }];
  });
}"""

# The same figure in its player opened full screen: its width against the window, its smallest node text.
MEASURE_FULLSCREEN = """(id) => {
  const svg = document.getElementById(id).querySelector('figure.gg-graph svg.gg-svg');
  const box = svg.getBoundingClientRect(), scale = svg.getScreenCTM().a;
  const scroll = svg.closest('.gg-scroll');
  const size = kind => Math.min(...[...svg.querySelectorAll(`g.${kind} text`)].map(t => parseFloat(t.getAttribute('font-size')) * scale));
  return {left: box.left, right: innerWidth - box.right, hidden: scroll.scrollWidth - scroll.clientWidth,
          text: size('node'), label: size('edge')};
}"""

# Boxes of the article a reader would scroll sideways (graphs and players aside: they are measured below).
SIDEWAYS = """() => [...document.querySelectorAll('article *')]
  .filter(e => e.offsetWidth && e.scrollWidth > e.clientWidth + 1 && !e.closest('figure.gg-graph, .gg-player')
    && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
  .map(e => e.textContent.trim().slice(0, 60))"""

# A chapter's listings and printed output whose longest line is cut at 1280 px (a reader would scroll sideways).
CUT_LINES = """() => [...document.querySelectorAll('article pre > code')]
  .filter(code => code.scrollWidth > code.clientWidth + 1)
  .map(code => code.textContent.split('\\n').reduce((longest, line) => line.length > longest.length ? line : longest, ''))"""


def describe(violation: dict[str, Any]) -> str:
    nodes = violation["nodes"]
    first = nodes[0]["failureSummary"].replace("\n", " ")
    targets = ", ".join(" ".join(node["target"]) for node in nodes[:3])
    return f"{violation['id']} on {len(nodes)} element(s), e.g. {targets}: {first}"


def misfits(figure: dict[str, Any], smallest: float, smallest_label: float) -> list[str]:
    """What keeps a measured figure from fitting: outside the article, scrolling sideways, text too small."""
    found = []
    if figure["left"] < -1 or figure["right"] < -1:
        found.append(f"runs outside the article by {max(-figure['left'], -figure['right']):.0f} px")
    if figure["hidden"] > 1:
        found.append(f"scrolls sideways ({figure['hidden']:.0f} px hidden)")
    if figure["text"] < smallest - 0.05:  # a drawing shown at exactly half size has 8 px text, give or take a rounding
        found.append(f"node text {figure['text']:.1f} px tall (at least {smallest:g})")
    if figure["label"] is not None and figure["label"] < smallest_label - 0.05:  # None: no edge has a label
        found.append(f"edge labels {figure['label']:.1f} px tall (at least {smallest_label:g})")
    return found


# Every visible piece of text outside the graphs (which have their own sizes, SCREENS) under 12 px: its tag, class and
# size. A formula's exponents and inline fractions are where such text once was (docs/stylesheets/math.css).
SMALL_TEXT = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const element = text.parentElement;
    if (!text.textContent.trim() || !element || element.closest('svg')) continue;
    const box = element.getBoundingClientRect(), style = getComputedStyle(element);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    const size = parseFloat(style.fontSize);
    if (size < 12) found.push(`${element.tagName.toLowerCase()} "${text.textContent.trim().slice(0, 20)}" ${size.toFixed(1)} px`);
  }
  return found.slice(0, 5);
}"""


def figures_that_do_not_fit(tab: Any, width: int, smallest: float, smallest_label: float) -> list[str]:
    """Every graph figure of the page measured at the window's current width; a player's graph that cannot fit
    the page may instead open full screen, where it must."""
    failures = []
    for figure in tab.evaluate(MEASURE):
        found = misfits(figure, smallest, smallest_label)
        if found and figure["fullscreen"]:
            player = f"#{figure['fullscreen']}"
            tab.click(f"{player} [data-gg-action=fullscreen]")
            full = tab.evaluate(MEASURE_FULLSCREEN, figure["fullscreen"])
            found = [f"full screen: {problem}" for problem in misfits(full, smallest, smallest_label)]
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
    problems += [f"light: {describe(v)}" for v in axe.run(tab, None, OTHER_RULES).response["violations"]]
    tab.evaluate(MARK_REPEATS)
    problems += [f"light: {describe(v)}" for v in axe.run(tab, AXE_CONTEXT, COLOUR_RULES).response["violations"]]
    if page.startswith("chapters/"):
        problems += [f"1280 px, a line wider than its code box: {line}" for line in tab.evaluate(CUT_LINES)]
    if page == "notebook/tutorial/":  # its code cells and outputs wrap instead
        problems += [f"1280 px, a box that scrolls sideways: {text}" for text in tab.evaluate(SIDEWAYS)]
    measured = page not in FIGURES_NOT_MEASURED
    if measured:
        problems += figures_that_do_not_fit(tab, *SCREENS[0])
    problems += [f"1280 px, text under 12 px: {found}" for found in tab.evaluate(SMALL_TEXT)]

    tab.locator("form[data-md-component=palette] label:visible").first.click()  # the reader's palette toggle
    tab.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    tab.evaluate(SETTLED)
    tab.evaluate(MARK_REPEATS)
    problems += [f"dark: {describe(v)}" for v in axe.run(tab, AXE_CONTEXT, COLOUR_RULES).response["violations"]]

    width, smallest, smallest_label = SCREENS[1]
    tab.set_viewport_size({"width": width, "height": 800})  # a phone
    widths = tab.evaluate(OVERFLOW)
    if widths["document"] > widths["viewport"]:
        problems.append(f"at {width} px the document is wider than the phone: {widths}")
    problems += [f"{width} px, text under 12 px: {found}" for found in tab.evaluate(SMALL_TEXT)]
    if measured:
        problems += figures_that_do_not_fit(tab, width, smallest, smallest_label)
        # No figure needs to scroll, but each graph box still can (a reader's own wider graph).
        fixed = tab.evaluate(
            "[...document.querySelectorAll('.gg-scroll')].filter(box => box.offsetWidth)"
            ".filter(box => getComputedStyle(box).overflowX !== 'auto').length"
        )
        if fixed:
            problems.append(f"at {width} px, {fixed} graph box(es) cannot scroll sideways")

    problems += [f"console error: {error}" for error in session.errors]
    problems += [f"request outside the site: {url}" for url in session.outside]
    assert not problems, f"{page or 'Home'}:\n" + "\n".join(problems)


# Text made pale in three places a page repeats: table cells, inline code, keywords in listings.
PALE = ".md-typeset td, .md-typeset code, .highlight .k { color: #c8c8c8 !important }"


def test_skipping_repeated_text_hides_no_colour_problem(visit: Callable[..., Visit]) -> None:
    """Every (rule, colour, backdrop, font) the colour rules fail on the whole page, they fail on it with repeats skipped."""
    tab = visit("chapters/1-pytorch/").page
    tab.add_style_tag(content=PALE)
    axe = axe_playwright.Axe()

    def failures(context: dict[str, Any] | None) -> set[tuple[Any, ...]]:
        found = set()
        for violation in axe.run(tab, context, COLOUR_RULES).response["violations"]:
            for node in violation["nodes"]:
                data = next((check["data"] for check in node["any"] if isinstance(check.get("data"), dict)), {})
                found.add((violation["id"], data.get("fgColor"), data.get("bgColor"), data.get("fontSize")))
        return found

    whole = failures(None)
    assert len(whole) >= 3
    assert tab.evaluate(MARK_REPEATS) > 0
    assert failures(AXE_CONTEXT) == whole

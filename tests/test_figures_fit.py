"""Every graph figure fits the reader's screen: Home, the chapters and the Going-further pages, at 1280 and 375 px.

In a 1280x800 window every Graphviz figure lies wholly inside the article, with node text at least 9 px
tall; in a 375-px phone window at least 8 px, and nothing scrolls sideways. A figure inside a player
that cannot meet this in the page may instead open full screen, where it must. The pages come from
mkdocs.yml's nav, so a page added there is measured too. One browser page visits every page once.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import nav_paths, url_of

pytestmark = [pytest.mark.site, pytest.mark.browser]

# (window width, smallest node text in CSS px) for a desktop and a phone.
SCREENS = ((1280, 9.0), (375, 8.0))
# Nav pages with no tutorial figures of their own to measure here: the playground draws in the reader's
# browser (its own tests), the notebook repeats the chapters, the API reference has none.
NOT_MEASURED = {"playground.md", "reference.md"}


PAGES = [url_of(path) for path in nav_paths() if path.endswith(".md") and path not in NOT_MEASURED]

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


def problems(figure: dict[str, Any], smallest: float) -> list[str]:
    """What keeps a measured figure from fitting: outside the article, scrolling sideways, text too small."""
    found = []
    if figure["left"] < -1 or figure["right"] < -1:
        found.append(f"runs outside the article by {max(-figure['left'], -figure['right']):.0f} px")
    if figure["hidden"] > 1:
        found.append(f"scrolls sideways ({figure['hidden']:.0f} px hidden)")
    if figure["text"] < smallest - 0.05:  # a drawing shown at exactly half size has 8 px text, give or take a rounding
        found.append(f"node text {figure['text']:.1f} px tall (at least {smallest:g})")
    return found


@pytest.fixture(scope="module")
def tab(browser: Any, site_url: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    yield page
    page.close()


def test_the_pages_measured_include_home_the_chapters_and_going_further() -> None:
    assert PAGES[0] == "" and {"chapters/3-fused-sigmoid/", "beyond/why-order/", "training/", "reuse/"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page or "home")
def test_every_graph_fits_the_screen(tab: Any, site_url: str, page: str) -> None:
    failures = []
    for width, smallest in SCREENS:
        tab.set_viewport_size({"width": width, "height": 800})
        tab.goto(site_url + page)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width, f"the page scrolls sideways at {width} px"
        for figure in tab.evaluate(MEASURE):
            found = problems(figure, smallest)
            if found and figure["fullscreen"]:  # a player's graph may open full screen instead
                player = f"#{figure['fullscreen']}"
                tab.click(f"{player} [data-gg-action=fullscreen]")
                found = [
                    f"full screen: {problem}"
                    for problem in problems(tab.evaluate(MEASURE_FULLSCREEN, figure["fullscreen"]), smallest)
                ]
                tab.keyboard.press("Escape")
                tab.evaluate("id => document.getElementById(id).ggClose()", figure["fullscreen"])
            failures += [f"{width} px, figure {figure['index']} ({figure['title']}): {problem}" for problem in found]
    assert not failures, f"{page or 'Home'}:\n" + "\n".join(failures)


CHAPTERS = [page for page in PAGES if page.startswith("chapters/")]

# The two graphs of chapter 3's comparison: their scale, top and sides, and whether their sigmoid is framed.
COMPARE = """() => [...document.querySelectorAll('article .gg-compare svg.gg-svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  return {scale: svg.getScreenCTM().a, top: box.top, left: box.left, right: box.right,
          marked: svg.querySelectorAll('g.gg-mark').length};
})"""


@pytest.mark.parametrize("width", [width for width, _ in SCREENS])
def test_chapter_3_compares_its_two_graphs_at_a_glance(tab: Any, site_url: str, width: int) -> None:
    tab.set_viewport_size({"width": width, "height": 800})
    tab.goto(site_url + "chapters/3-fused-sigmoid/")
    fused, atomic = tab.evaluate(COMPARE)
    assert abs(fused["scale"] - atomic["scale"]) < 0.01 * atomic["scale"], (
        "the two graphs are drawn at different scales"
    )
    assert abs(fused["top"] - atomic["top"]) <= 1, "the two graphs do not start at the same height"
    assert fused["right"] <= atomic["left"], "the two graphs are not side by side"
    assert fused["marked"] == atomic["marked"] == 1, "the sigmoid is not framed in both graphs"
    # The frame holds the operations that differ: σ in one, −, exp, +1 and 1/x in the other.
    framed = tab.evaluate(
        "[...document.querySelectorAll('article .gg-compare g.gg-mark')].map(mark => {"
        "  const frame = mark.getBoundingClientRect(), svg = mark.closest('svg');"
        "  return [...svg.querySelectorAll('g.gg-op')].filter(op => { const b = op.getBoundingClientRect();"
        "    return b.top >= frame.top && b.bottom <= frame.bottom && b.left >= frame.left && b.right <= frame.right; })"
        "  .map(op => op.getAttribute('data-gg-op')); })"
    )
    assert framed == [["σ"], ["−", "exp", "+1", "1/x"]]
    # The two players are side by side on a wide screen, as the chapter says, one above the other on a phone.
    tops = tab.evaluate(
        "[...document.querySelector('article .gg-side-by-side').querySelectorAll('.gg-player')]"
        ".map(p => p.getBoundingClientRect().top)"
    )
    assert len(tops) == 2
    assert (abs(tops[0] - tops[1]) <= 1) == (width == 1280)


@pytest.mark.parametrize("page", CHAPTERS)
def test_chapter_code_fits_its_box_on_a_desktop(tab: Any, site_url: str, page: str) -> None:
    """No listing or printed output hides part of a line at 1280 px (a reader would scroll sideways to read it)."""
    tab.set_viewport_size({"width": 1280, "height": 800})
    tab.goto(site_url + page)
    cut = tab.evaluate(
        "[...document.querySelectorAll('article pre > code')].filter(code => code.scrollWidth > code.clientWidth + 1)"
        ".map(code => code.textContent.split('\\n').reduce((longest, line) => line.length > longest.length ? line : longest, ''))"
    )
    assert not cut, f"{page}: lines wider than their code box: {cut}"

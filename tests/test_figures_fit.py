"""Chapter 3's comparison in a real browser: the fused and the atomic sigmoid's graphs at one scale, side by side,
their differing operations framed; the players side by side on a desktop, one above the other on a phone.

(Every page's figures against the screen, at 1280 and 375 px: tests/test_every_page.py.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import Visit

pytestmark = [pytest.mark.site, pytest.mark.browser]

# The two graphs of chapter 3's comparison: their scale, top and sides, and whether their sigmoid is framed.
COMPARE = """() => [...document.querySelectorAll('article .gg-compare svg.gg-svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  return {scale: svg.getScreenCTM().a, top: box.top, left: box.left, right: box.right,
          marked: svg.querySelectorAll('g.gg-mark').length};
})"""


@pytest.mark.parametrize("width", [1280, 375])
def test_chapter_3_compares_its_two_graphs_at_a_glance(visit: Callable[..., Visit], width: int) -> None:
    tab = visit("chapters/3-fused-sigmoid/", viewport={"width": width, "height": 800}).page
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

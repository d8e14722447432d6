"""Chapter 3's comparison in a real browser: the fused and the atomic sigmoid's graphs at one scale, side by side
on a desktop (stacked on a phone, where each keeps the width and its text stays readable), their differing
operations framed, each with its player under it.

(Every page's figures against the screen, at 1280 and 375 px: tests/site/test_every_page.py.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import Visit

pytestmark = [pytest.mark.site, pytest.mark.browser]

# The two graphs of chapter 3's comparison: their scale, top and sides, and whether their sigmoid is framed.
COMPARE = """() => [...document.querySelectorAll('article .gg-compare svg.gg-svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('g.node text')].map(t => parseFloat(t.getAttribute('font-size')) * svg.getScreenCTM().a);
  return {scale: svg.getScreenCTM().a, top: box.top, bottom: box.bottom, left: box.left, right: box.right,
          text: Math.min(...texts), marked: svg.querySelectorAll('g.gg-mark').length};
})"""


@pytest.mark.parametrize("width", [1280, 375])
def test_chapter_3_compares_its_two_graphs_at_a_glance(visit: Callable[..., Visit], width: int) -> None:
    tab = visit("chapters/3-fused-sigmoid/", viewport={"width": width, "height": 800}).page
    fused, atomic = tab.evaluate(COMPARE)
    assert abs(fused["scale"] - atomic["scale"]) < 0.01 * atomic["scale"], (
        "the two graphs are drawn at different scales"
    )
    if width == 1280:
        assert abs(fused["top"] - atomic["top"]) <= 1, "the two graphs do not start at the same height"
        assert fused["right"] <= atomic["left"], "the two graphs are not side by side"
    else:  # a phone: one above the other, node text at least 11 px
        assert fused["bottom"] <= atomic["top"], "the two graphs are not one above the other"
        assert min(fused["text"], atomic["text"]) >= 11, "node text under 11 px on a phone"
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
    # Each graph has its player right under it, playing on that graph (no second drawing of it).
    players = tab.evaluate(
        "[...document.querySelectorAll('article .gg-compare .gg-player')].map(p => p.getAttribute('data-gg-graph'))"
    )
    graphs = tab.evaluate("[...document.querySelectorAll('article .gg-compare figure')].map(f => f.id)")
    assert len(players) == 2 and players == graphs[:2]

"""Formulas look like typeset math in a real browser (Debian's Chromium, driven by Playwright).

The site serves its own math font (STIX Two Math, put in docs/assets/fonts/ by `make setup`), and chapter 3's
product of the four atomic local derivatives reads as written: a product of partial derivatives (no stretched
underbrace, which Chromium lays out short and off-centre), the parentheses around the fraction as tall as it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser, pytest.mark.site]

CHAPTER_3 = "chapters/3-fused-sigmoid/"
SCALE = 2
"""Device pixels per CSS pixel of the screenshots: a brace's thin stroke stays dark enough to measure."""
FONT = "STIX Two Math"
UNDERBRACES = """() => {
  const box = (element) => { const r = element.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return [...document.querySelectorAll("article munder")]
    .filter((outer) => outer.children.length === 2 && outer.children[0].localName === "munder"
                       && outer.children[0].children[1]?.textContent === "\\u23DF")
    .map((outer) => ({
      factor: box(outer.children[0].children[0]),
      label: box(outer.children[1]),
      text: outer.children[1].textContent,
      em: parseFloat(getComputedStyle(outer).fontSize),
    }));
}"""

FENCED_FRACTIONS = """() => [...document.querySelectorAll("article mrow")]
  .filter((row) => row.querySelector(":scope > mfrac") && row.querySelector(":scope > mo[fence]"))
  .map((row) => ({
    fraction: row.querySelector(":scope > mfrac").getBoundingClientRect().height,
    fences: [...row.querySelectorAll(":scope > mo[fence]")].map((fence) => fence.getBoundingClientRect().height),
  }))"""


@pytest.fixture(scope="module")
def hidpi_tab(browser: Any) -> Iterator[Any]:
    """One tab at device scale factor `SCALE` for the module (a screenshot's pixels resolve the braces)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, device_scale_factor=SCALE)
    yield context.new_page()
    context.close()


def open_chapter_3(tab: Any, site_url: str, width: int) -> Any:
    tab.set_viewport_size({"width": width, "height": 900})
    tab.goto(site_url + CHAPTER_3)
    tab.evaluate("document.fonts.ready")
    return tab


def test_the_math_font_is_served_and_typesets_the_formulas(built_site: Path, hidpi_tab: Any, site_url: str) -> None:
    page = open_chapter_3(hidpi_tab, site_url, 1280)
    loaded = page.evaluate(
        "(family) => [...document.fonts].filter((face) => face.family.replaceAll('\"', '') === family"
        " && face.status === 'loaded').length",
        FONT,
    )
    assert loaded == 1, f"{FONT} was not loaded on chapter 3"
    family = page.evaluate("getComputedStyle(document.querySelector('article math')).fontFamily")
    assert family.replace('"', "").startswith(FONT)
    response = page.request.get(site_url + "assets/fonts/stix-two-math.woff2")
    assert response.ok and response.body()[:4] == b"wOF2"  # served by the site itself, as WOFF2


@pytest.mark.parametrize("width", [1280, 375])
def test_the_product_of_local_derivatives_reads_as_written(
    built_site: Path, hidpi_tab: Any, site_url: str, width: int
) -> None:
    """Chapter 3 writes the chain rule's product as partial derivatives, not under stretched braces (which
    Chromium draws short and off-centre); the parentheses around -1/d² are as tall as the fraction, and
    each formula of derivatives fits the column."""
    page = open_chapter_3(hidpi_tab, site_url, width)
    assert page.evaluate(UNDERBRACES) == []
    fences = page.evaluate(FENCED_FRACTIONS)
    assert fences, "no fenced fraction in chapter 3"
    for fenced in fences:
        assert all(height >= 0.9 * fenced["fraction"] for height in fenced["fences"]), fenced
    overflowing = page.evaluate(
        "[...document.querySelectorAll('article div.arithmatex')].filter(d => d.textContent.includes('∂'))"
        ".filter(d => d.scrollWidth > d.clientWidth + 1)"
        ".map(d => d.textContent.slice(0, 40))"
    )
    assert overflowing == []

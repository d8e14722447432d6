"""Graph figures drawn by both renderers, `dot` (the build) and Graphviz compiled to WebAssembly (the site's
@viz-js/viz, which the playground's Python draws with), read in Chromium: every text keeps its spacing ("data" and
its number never touch) and stays inside its box.

The figure is made by `draw_graph` itself, its DOT passed to the WebAssembly Graphviz in the page, as the browser's
Python does; no Python runs in the browser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("graphviz")

from helpers import Visit  # noqa: E402

from glassgrad import Value  # noqa: E402
from glassgrad.autograd import backward  # noqa: E402
from glassgrad.examples import linear_loss  # noqa: E402
from glassgrad.viz import draw_graph  # noqa: E402

pytestmark = [pytest.mark.site, pytest.mark.browser]

LOAD_VIZ = """async () => {
  const module = await import(new URL('../assets/playground/viz/viz.js', location.href).href);
  window.ggViz = await module.instance();
}"""

# Per value box of the figure last added to the article: the space between "data" and its number, and how far
# any of its texts reaches past the box's edges, in CSS px.
MEASURE = """(prefix) => {
  const svg = document.getElementById(prefix).querySelector('svg'), scale = svg.getScreenCTM().a;
  return [...svg.querySelectorAll('g.gg-value')].map(box => {
    const edge = box.querySelector('path, polygon').getBBox(), texts = [...box.querySelectorAll('text')];
    const data = texts.find(text => text.textContent.trim() === 'data'), number = data.nextElementSibling;
    const [d, n] = [data.getBBox(), number.getBBox()];
    const outside = Math.max(...texts.map(text => {
      const t = text.getBBox();
      return Math.max(edge.x - t.x, t.x + t.width - (edge.x + edge.width));
    }));
    return {label: box.getAttribute('data-gg-label'), number: number.textContent,
            gap: (n.x - (d.x + d.width)) * scale, outside: outside * scale};
  });
}"""


def numbers_of_every_shape() -> Value:
    """A graph whose boxes hold short, long, negative and fractional numbers ("data 2.55", "data -1.5")."""
    a, b, c = Value(2.55, "a"), Value(-1.5, "b"), Value(-0.000123456, "c")
    total = a * b + c * Value(1e6, "million")
    total.label = "total"
    backward(total)
    return total


@pytest.mark.parametrize("rankdir", ["LR", "TB"])
def test_both_renderers_keep_data_apart_from_its_number(visit: Callable[..., Visit], rankdir: str) -> None:
    tab: Any = visit("playground/").page
    tab.evaluate(LOAD_VIZ)
    linear = linear_loss()
    backward(linear["L"])
    problems = []
    in_browser = lambda source: tab.evaluate("s => ggViz.renderString(s, {format: 'svg'})", source)  # noqa: E731
    for renderer in ("dot", "WebAssembly"):
        for number, root in enumerate((linear["L"], numbers_of_every_shape())):
            prefix = f"{renderer[0].lower()}{rankdir.lower()}{number}"
            figure = draw_graph(
                root, id_prefix=prefix, rankdir=rankdir, render=in_browser if renderer != "dot" else None
            )
            tab.evaluate("html => document.querySelector('article').insertAdjacentHTML('beforeend', html)", str(figure))
            for box in tab.evaluate(MEASURE, prefix):
                if box["gap"] < 2:
                    problems.append(f"{renderer}: 'data' and {box['number']!r} {box['gap']:.1f} px apart in {box}")
                if box["outside"] > 0.5:
                    problems.append(
                        f"{renderer}: a text of {box['label']!r} reaches {box['outside']:.1f} px out of its box"
                    )
    assert not problems, "\n".join(problems)

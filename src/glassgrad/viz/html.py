"""The fragment type every renderer returns, the one escape function, number formatting and naming.

Everything in `glassgrad.viz` that reaches HTML or SVG goes through `escape` (text and
attribute values alike), so a label such as ``<script>alert(1)</script>`` shows as text.
"""

from __future__ import annotations

import html as _html
from collections.abc import Sequence
from importlib import resources
from typing import Any


def escape(text: object) -> str:
    """Escape `text` for HTML/SVG text and attribute values (``& < > " '`` become entities).

    The single escape function of `glassgrad.viz`; Graphviz HTML-like labels use it too. Control
    characters (NUL and the rest, but tab and newline), the noncharacters U+FFFE and U+FFFF and lone
    surrogates, which neither XML, UTF-8 nor Graphviz accepts, become U+FFFD, the replacement
    character, so they stay visible.

    Examples:
        >>> escape('<b title="x">&</b>'), escape(chr(0))
        ('&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;', '\ufffd')
    """
    return _html.escape(str(text).translate(_CONTROL), quote=True)


_CONTROL = {
    code: "\ufffd"
    for code in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, *range(0xD800, 0xE000), 0xFFFE, 0xFFFF]
}

LABEL_LIMIT = 40  # longer names are cut with "…" in figures (Graphviz refuses very long ones)


def short(text: object, limit: int = LABEL_LIMIT) -> str:
    """`text` cut to `limit` characters, the last one "…" when it was longer: how every figure shows a name or op.

    Examples:
        >>> short("x" * 50, 5)
        'xxxx…'
    """
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fmt(number: float) -> str:
    """Format a number as the tutorial prints it: ``:g`` style (2, -18, 0.25, -0.125).

    Examples:
        >>> [fmt(x) for x in (2.0, -18.0, 0.25, -0.125, 1e-7)]
        ['2', '-18', '0.25', '-0.125', '1e-07']
    """
    return f"{number:g}"


def caption(value: Any, index: int | None = None) -> str:
    """The name a figure shows for `value`: its label; else its number for a leaf, ``v{index}`` for a result.

    Unlabelled leaves are constants (``1`` in ``1 + q``), so their number is the clearest name;
    an unlabelled result is named by its position in the dependency-safe order.

    Examples:
        >>> from glassgrad import Value
        >>> caption(Value(2.0, "w")), caption(Value(1.0)), caption(Value(4.0, parents=(), op="×"), 2)
        ('w', '1', 'v2')
    """
    if value.label:
        return value.label
    if not value.parents and not value.op:
        return fmt(value.data)
    return f"v{index}" if index is not None else fmt(value.data)


class HtmlFragment:
    """An HTML fragment: ``str(fragment)`` is the markup and ``_repr_html_()`` returns the same string.

    So one call works both in a markdown-exec block (``print(fragment)`` with ``html="1"``)
    and as the last expression of a Jupyter cell. Fragments compare equal by markup.
    """

    __slots__ = ("html",)

    def __init__(self, html: str) -> None:
        self.html = html

    def __str__(self) -> str:
        return self.html

    def _repr_html_(self) -> str:
        """The markup, for Jupyter's rich display."""
        return self.html

    def __html__(self) -> str:
        """The markup, for template engines that honour the ``__html__`` protocol (Jinja, MarkupSafe)."""
        return self.html

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HtmlFragment):
            return self.html == other.html
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.html)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.html[:60]!r}{'…' if len(self.html) > 60 else ''})"


def stylesheet_text() -> str:
    """The package CSS (`glassgrad/viz/glassgrad.css`) as text, for a site to copy into its assets."""
    return resources.files("glassgrad.viz").joinpath("glassgrad.css").read_text(encoding="utf-8")


def stylesheet() -> HtmlFragment:
    """A ``<style>`` fragment with the package CSS, for plain Jupyter (the site links the CSS file instead)."""
    return HtmlFragment(f"<style>\n{stylesheet_text()}</style>")


def _math(mrow: str) -> str:
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow>{mrow}</mrow></math>'


def _partial_mathml(top: str, bottom: str) -> str:
    return _math(f"<mo>∂</mo>{top}<mo>/</mo><mo>∂</mo>{bottom}")


LEGEND_ITEMS = (
    (
        "upstream",
        "upstream",
        _math("<msub><mi>g</mi><mi>v</mi></msub><mo>=</mo><mo>∂</mo><mi>L</mi><mo>/</mo><mo>∂</mo><mi>v</mi>")
        + ", already accumulated in <code>v.grad</code>",
    ),
    (
        "local",
        "local",
        f"{_partial_mathml('<mi>v</mi>', '<mi>u</mi>')}, saved in the <code>ParentLink</code> during the forward pass",
    ),
    (
        "contribution",
        "edge contribution",
        _math('<mi mathvariant="normal">Δ</mi><msub><mi>g</mi><mi>u</mi></msub><mo>=</mo>')
        + " upstream × local, added to <code>u.grad</code>",
    ),
    (
        "grad",
        "gradient",
        "<code>.grad</code> after backward: " + _partial_mathml("<mi>L</mi>", '<mi mathvariant="normal">node</mi>'),
    ),
)
"""(CSS role, name, meaning) of each colour in `legend`, as markup; symbols are MathML like the prose's formulas."""


def legend() -> HtmlFragment:
    """The colour legend used by every figure and trace: upstream, local, edge contribution, gradient.

    Each role is a CSS class ``gg-{role}`` (``gg-upstream``, ``gg-local``, ``gg-contribution``
    (orange), ``gg-grad`` (teal)) whose colour follows the light and dark palettes.
    """
    items = "".join(
        f'<li class="gg-legend-item" data-gg-role="{role}"><strong class="gg-{role}"><span class="gg-swatch" aria-hidden="true"></span>'
        f'{name}</strong> <span class="gg-legend-note">{meaning}</span></li>'
        for role, name, meaning in LEGEND_ITEMS
    )
    return HtmlFragment(f'<ul class="gg gg-legend" aria-label="Colour legend">{items}</ul>')


def chips(names: Sequence[str], id_prefix: str | None = None, bad: Sequence[int] = ()) -> str:
    """Names as chips joined by arrows; chip i has the id ``{id_prefix}-{i}`` and, if i is in `bad`, ``gg-bad``."""
    arrow = '<span class="gg-arrow" aria-hidden="true">→</span>'
    ids = [f' id="{id_prefix}-{i}"' if id_prefix else "" for i in range(len(names))]
    return arrow.join(
        f'<span class="gg-chip{" gg-bad" if i in bad else ""}"{ids[i]}>{escape(name)}</span>'
        for i, name in enumerate(names)
    )

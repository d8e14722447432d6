"""A Graphviz drawing in the site's figure: the sideways-scrolling ``<figure>`` and the widths it is shown at."""

from __future__ import annotations

from glassgrad.viz.html import HtmlFragment, escape

NATURAL_TEXT_PX = 16.0  # node text at a drawing's natural size: Graphviz's 12 pt, 4/3 CSS px each
MIN_SCALE = 0.5  # a drawing shrinks to fit its column down to half its natural size (node text 8 px), then scrolls
TB_SCALE = (
    0.8  # a top-to-bottom drawing is tall: shown at most at this fraction of its natural size (node text 12.8 px)
)
# The colours Graphviz draws with, by role: the one place figures name a colour. `glassgrad.viz.svg` gives each text,
# fill and stroke in one of them the class ``gg-t-{role}``, ``gg-f-{role}`` or ``gg-s-{role}``, which the stylesheet
# maps to the palette's colour (these are the light palette's, for a page without the stylesheet; one role each).
COLOURS = {
    "grad": "#0f766e",
    "local": "#1d4ed8",
    "data": "#576579",
    "label": "#111827",
    "value": "#1f2937",
    "box": "#f8fafc",
    "op": "#eef2ff",
    "edge": "#7d8ba1",
    "line": "#64748b",
    "mark": "#806600",
    "bad": "#b91c1c",
}
LAYOUTS = {"LR": {"ranksep": "0.2"}, "TB": {"rankdir": "TB", "ranksep": "0.15"}}
"""The layouts a figure may take (`draw_graph`'s and `draw_boxes`' `rankdir`): the Graphviz attributes of each."""


def check_rankdir(rankdir: str, caller: str) -> str:
    """Return `rankdir` if it is one of `LAYOUTS` (``"LR"``, ``"TB"``); else ValueError naming `caller`."""
    if rankdir not in LAYOUTS:
        raise ValueError(f"{caller}: rankdir must be one of {', '.join(LAYOUTS)}, got {rankdir!r:.40}")
    return rankdir


class Drawing(HtmlFragment):
    """A figure drawn by Graphviz: its markup `html` and the widths it is shown at, in CSS pixels.

    `natural` is its width with node text 16 px tall; the page shows it at most `widest` wide and at
    least `narrowest` (a narrower column scrolls it sideways). Layouts read these numbers
    (`glassgrad.viz.layout`), so no one parses them back out of the markup.
    """

    __slots__ = ("natural", "widest", "narrowest")

    def __init__(self, html: str, natural: float, widest: int, narrowest: int) -> None:
        super().__init__(html)
        self.natural, self.widest, self.narrowest = natural, widest, narrowest

    def width_for(self, text_px: float) -> float:
        """The width, in CSS pixels, at which its node text is `text_px` tall."""
        return self.natural * text_px / NATURAL_TEXT_PX


def figure_html(
    svg: str,
    natural: float,
    *,
    title: str,
    prefix: str,
    css: str,
    rankdir: str = "LR",
    min_width: int | None = None,
    caption_text: str | None = None,
    attrs: str = "",
    after: str = "",
) -> Drawing:
    """Wrap Graphviz SVG (from `svg_cleanup`) of natural width `natural` in the site's sideways-scrolling ``<figure>``.

    The drawing is shown at most at its natural size (`TB_SCALE` of it for a ``"TB"`` drawing, which is tall)
    and at least at `MIN_SCALE` of it, or `min_width` CSS pixels when given; `after` follows the drawing
    inside the figure, before the optional caption.
    """
    narrowest = min_width if min_width is not None else round(natural * MIN_SCALE)
    widest = max(round(natural * (TB_SCALE if check_rankdir(rankdir, "figure") == "TB" else 1.0)), narrowest)
    svg = svg.replace(
        '<svg role="img"',
        f'<svg style="width:100%;height:auto;min-width:{narrowest}px;max-width:{widest}px" role="img"',
        1,
    )
    figcaption = f"<figcaption>{escape(caption_text)}</figcaption>" if caption_text else ""
    html = (
        f'<figure class="{css}" id="{prefix}" data-gg-prefix="{prefix}"{attrs}>'
        # A named group, not a landmark (region): a page's landmarks are its parts, not each of its drawings.
        f'<div class="gg-scroll" style="overflow-x:auto" tabindex="0" role="group" '
        f'aria-label="{escape(title)} (scrolls sideways)">{svg}</div>{after}{figcaption}</figure>'
    )
    return Drawing(html, natural, widest, narrowest)

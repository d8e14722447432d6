"""Layouts for several figures: one scale for graphs compared side by side, one rendering per screen width."""

from __future__ import annotations

import re
from collections.abc import Sequence

from glassgrad.viz.animate import PlayerFragment
from glassgrad.viz.html import HtmlFragment, escape


def _fragment(html: str, parts: Sequence[object]) -> HtmlFragment:
    """`html` as a fragment that, like the players among `parts`, brings the player script to Jupyter."""
    players = [part.data for part in parts if isinstance(part, PlayerFragment)]
    return PlayerFragment(html, {"kind": "group", "players": players}) if players else HtmlFragment(html)


def _shown_width(figure: object) -> float:
    """The widest a `draw_graph` figure is shown, in CSS pixels (its SVG's ``max-width``)."""
    match = re.search(r'<svg style="[^"]*?max-width:([\d.]+)px', str(figure))
    if match is None:
        raise ValueError("side_by_side_graphs takes draw_graph figures")
    return float(match.group(1))


def side_by_side_graphs(
    *figures: object,
    titles: Sequence[str] = (),
    under: Sequence[object] = (),
    label: str = "Graphs side by side, at one scale",
) -> HtmlFragment:
    """Graph figures in columns at one scale, top edges aligned, each column as wide as its figure.

    The columns share the width in proportion to the figures' own widths, so every figure is drawn
    at the same size per node, also on a phone (draw them with ``rankdir="TB"``: narrow and tall).
    `titles` head the columns; `under` holds what goes under each figure (its trace, for example);
    `label` names the group for screen readers.
    """
    widths = [_shown_width(figure) for figure in figures]
    if len(titles) not in (0, len(figures)) or len(under) not in (0, len(figures)):
        raise ValueError("side_by_side_graphs: give one title and one `under` part per figure, or none")
    columns = " ".join(f"minmax(0, {width:g}fr)" for width in widths)
    rows = 1 + bool(titles) + bool(under)  # titles, figures and parts under them each share one row
    cells = "".join(
        (f'<p class="gg-compare-title">{escape(titles[i])}</p>' if titles else "")
        + f'<div class="gg-compare-cell">{figure}</div>'
        + (f'<div class="gg-compare-cell">{under[i]}</div>' if under else "")
        for i, figure in enumerate(figures)
    )
    return HtmlFragment(
        f'<div class="gg gg-compare" role="group" aria-label="{escape(label)}" '
        f'style="grid-template-columns:{columns};grid-template-rows:repeat({rows}, auto)">{cells}</div>'
    )


def wide_or_narrow(wide: object, narrow: object) -> HtmlFragment:
    """Two renderings of one figure: `narrow` where the column is narrower than 36em (a phone), else `wide`.

    For a figure that is drawn left to right on a desktop and top to bottom on a phone: only the one
    that fits is displayed (the other is ``display: none``; give the two different id prefixes).
    """
    return HtmlFragment(
        f'<div class="gg gg-fit"><div class="gg-fit-wide">{wide}</div><div class="gg-fit-narrow">{narrow}</div></div>'
    )


def beside(graph: object, *side: object) -> HtmlFragment:
    """A tall `graph` (``rankdir="TB"``) with the `side` parts that go with it (a player on it, its trace)
    beside it on a wide screen, under it on a phone."""
    parts = "".join(str(part) for part in side)
    return _fragment(
        f'<div class="gg gg-beside"><div class="gg-beside-graph">{graph}</div><div class="gg-beside-side">{parts}</div></div>',
        side,
    )


def collapsed(summary: str, *parts: object) -> HtmlFragment:
    """`parts` folded under a one-line `summary` that opens them (an HTML ``<details>``): reference material
    a reader opens when they want it, such as every field of every value."""
    body = "".join(str(part) for part in parts)
    return _fragment(f'<details class="gg gg-collapsed"><summary>{escape(summary)}</summary>{body}</details>', parts)

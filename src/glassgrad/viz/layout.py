"""Layouts for several figures: one scale for graphs compared side by side, one rendering per screen width."""

from __future__ import annotations

from collections.abc import Sequence

from glassgrad.viz.graph import Drawing, fingerprint
from glassgrad.viz.html import HtmlFragment, escape
from glassgrad.viz.players import PlayerFragment

DESKTOP_TEXT_PX = 12.0
"""The smallest node text a layout shows a drawing at where it chooses (a desktop column): `wide_or_narrow` shows
the wide rendering only where its text is at least this tall."""


def _fragment(html: str, parts: Sequence[object]) -> HtmlFragment:
    """`html` as a fragment that, like the players among `parts`, brings the player script to Jupyter."""
    players = [part.data for part in parts if isinstance(part, PlayerFragment)]
    return PlayerFragment(html, {"kind": "group", "players": players}) if players else HtmlFragment(html)


def side_by_side_graphs(
    *figures: object,
    titles: Sequence[str] = (),
    under: Sequence[object] = (),
    label: str = "Graphs side by side, at one scale",
) -> HtmlFragment:
    """Graph figures in columns at one scale, top edges aligned, each column as wide as its figure.

    The columns share the width in proportion to the figures' own widths (each `Drawing` carries its
    own), so every figure is drawn at the same size per node, also on a phone (draw them with
    ``rankdir="TB"``: narrow and tall). A column may also be a tuple, its drawing first, then what follows
    it in the same cell (its player, its trace: each column then runs on at its own length); where a column
    is other markup, the columns share the width equally. `titles` head the columns; `under` holds what
    goes under each figure, in a row of its own; `label` names the group for screen readers.
    """
    heads = [figure[0] if isinstance(figure, tuple) and figure else figure for figure in figures]
    drawn = all(isinstance(head, Drawing) for head in heads)
    widths = [head.widest if isinstance(head, Drawing) and drawn else 1 for head in heads]
    figures = tuple("".join(map(str, figure)) if isinstance(figure, tuple) else figure for figure in figures)
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
    """Two renderings of one figure: `wide` where the column holds it with node text at least `DESKTOP_TEXT_PX`
    (12 px) tall, else `narrow`; never `wide` in a column narrower than 600 px (a phone).

    For a figure that is drawn left to right on a desktop and top to bottom on a phone: only the one
    that fits is displayed (the other is ``display: none``; give the two different id prefixes). The
    switch is a container query, so it needs no script: the fragment carries its own ``<style>`` for it
    when `wide` is a `Drawing` (the width it needs depends on the drawing).
    """
    parts = f'<div class="gg-fit-wide">{wide}</div><div class="gg-fit-narrow">{narrow}</div>'
    if not isinstance(wide, Drawing):
        return HtmlFragment(f'<div class="gg gg-fit">{parts}</div>')
    fit = fingerprint("ggfit", [str(wide), str(narrow)])
    needed = wide.width_for(DESKTOP_TEXT_PX)
    style = (
        f"<style>@container (max-width: {needed - 0.01:.2f}px) {{ #{fit} > .gg-fit-wide {{ display: none }} "
        f"#{fit} > .gg-fit-narrow {{ display: block }} }}</style>"
    )
    return HtmlFragment(f'<div class="gg gg-fit" id="{fit}">{style}{parts}</div>')


def beside(graph: object, *side: object) -> HtmlFragment:
    """A tall `graph` (``rankdir="TB"``) with the `side` parts that go with it (a player on it, its trace)
    beside it on a wide screen, under it on a phone.

    On a wide screen the graph's column is as wide as the graph is shown at most, as long as the side keeps
    18em: the graph's text is then as large as it gets.
    """
    parts = "".join(str(part) for part in side)
    width = f' style="--gg-beside-graph: {graph.widest}px"' if isinstance(graph, Drawing) else ""
    return _fragment(
        f'<div class="gg gg-beside"{width}><div class="gg-beside-graph">{graph}</div>'
        f'<div class="gg-beside-side">{parts}</div></div>',
        side,
    )


def collapsed(summary: str, *parts: object) -> HtmlFragment:
    """`parts` folded under a one-line `summary` that opens them (an HTML ``<details>``): reference material
    a reader opens when they want it, such as every field of every value."""
    body = "".join(str(part) for part in parts)
    return _fragment(f'<details class="gg gg-collapsed"><summary>{escape(summary)}</summary>{body}</details>', parts)

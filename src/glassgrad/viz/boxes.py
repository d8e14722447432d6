"""`draw_boxes`: any small directed graph given as boxes and arrows, in `draw_graph`'s style.

For graphs not made of glassgrad `Value`s, such as PyTorch's backward graph (`glassgrad.torch_graph.walk`):
the caller says what each box shows; this module lays it out, escaping every string.

Examples:
    >>> figure = draw_boxes(
    ...     [Box("a", (("AccumulateGrad", "label"), ("w = 2", "data"))), Box("b", (("MulBackward0", "label"),))],
    ...     [Arrow("a", "b", "0")],
    ...     title="toy", id_prefix="toy",
    ... )
    >>> 'id="toy-box-a"' in str(figure), 'id="toy-arrow-0"' in str(figure)
    (True, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from glassgrad.viz.graph import (
    COLOURS,
    LAYOUTS,
    Drawing,
    check_rankdir,
    digraph,
    label_text,
    render_figure,
)
from glassgrad.viz.render import Render

ROLES = ("grad", "local", "data", "label", "value")
"""Text roles a box line may take (``label``, ``data``, ``local``, ``grad``, ``value``): each is a palette colour."""


class Box(NamedTuple):
    """One node: an `id` (letters, digits, ``_``, ``-``) and its lines as ``(text, role)`` pairs.

    The first line is drawn bold. `role` picks the colour (see [ROLES][glassgrad.viz.boxes.ROLES]). `css` adds classes to
    the node's ``<g>`` (``gg-value`` draws it as a value box; ``gg-op`` as an operation).
    """

    id: str
    lines: tuple[tuple[str, str], ...]
    css: str = "gg-value"


class Arrow(NamedTuple):
    """One edge from box `source` to box `target`, with an optional `label` (drawn in the local colour)."""

    source: str
    target: str
    label: str = ""


_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def _box_label(lines: Sequence[tuple[str, str]]) -> str:
    """Graphviz HTML-like label: one escaped row per line, the first in bold."""
    rows = []
    for number, (text, role) in enumerate(lines):
        if role not in ROLES:
            raise ValueError(f"unknown text role {role!r}; use one of {', '.join(ROLES)}")
        body = label_text(text, None)
        body = f"<B>{body}</B>" if number == 0 else body
        rows.append(f'<TR><TD><FONT COLOR="{COLOURS[role]}">{body}</FONT></TD></TR>')
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{"".join(rows)}</TABLE>>'


def draw_boxes(
    boxes: Sequence[Box],
    arrows: Sequence[Arrow],
    *,
    title: str,
    id_prefix: str,
    caption_text: str | None = None,
    rankdir: str = "LR",
    arrowheads_back: bool = False,
    min_width: int | None = None,
    render: Render | None = None,
) -> Drawing:
    """Draw `boxes` joined by `arrows` as an inline SVG figure, deterministic for the same input.

    Element ids: ``{id_prefix}-box-{box.id}`` and ``{id_prefix}-arrow-{i}``, whose ``<g>`` carries
    ``data-gg-id`` or ``data-gg-source`` / ``data-gg-target``.

    Args:
        boxes: the nodes, in the order Graphviz should place them when it has a choice.
        arrows: the edges; each end must name a box.
        title: the SVG's accessible title.
        id_prefix: prefix of every element id (a letter, then letters, digits, ``_`` or ``-``).
        caption_text: an optional ``<figcaption>``.
        rankdir: ``"LR"`` left to right or ``"TB"`` top to bottom, shown at the sizes `draw_graph`'s are
            (`glassgrad.viz.graph.figure_html`): drawn beside a graph of ``draw_graph(..., rankdir="TB")``, the
            two have one text size.
        arrowheads_back: draw each arrowhead at its source end: laid out source → target, the arrow
            reads target → source (for pointers against the forward direction, like ``next_functions``).
        min_width: the narrowest the drawing is scaled to, in CSS pixels. Default: half its natural width
            (its text stays 8 px tall).
        render: the Graphviz backend, DOT source -> SVG text (default: as `draw_graph`'s).

    Raises:
        ValueError: for a malformed id or prefix, an arrow naming an unknown box, or an unknown role.
    """
    for name in [id_prefix, *(box.id for box in boxes)]:
        if not _ID.fullmatch(name):
            raise ValueError(f"ids must start with a letter and use only A-Z a-z 0-9 _ -, got {name!r:.60}")
    known = {box.id for box in boxes}
    for arrow in arrows:
        if arrow.source not in known or arrow.target not in known:
            raise ValueError(f"arrow {arrow.source!r} → {arrow.target!r} names a box that is not drawn")
    check_rankdir(rankdir, "draw_boxes")

    dot = digraph(**{**LAYOUTS[rankdir], "ranksep": "0.35"})
    element_attrs: dict[str, dict[str, object]] = {}
    for box in boxes:
        box_id = f"{id_prefix}-box-{box.id}"
        dot.node(
            box_id,
            _box_label(box.lines),
            id=box_id,
            shape="box",
            style="rounded,filled",
            fillcolor=COLOURS["box"],
            margin="0.08,0.04",
            **{"class": box.css},
        )
        element_attrs[box_id] = {"id": box.id}
    for number, arrow in enumerate(arrows):
        arrow_id = f"{id_prefix}-arrow-{number}"
        extra = {"dir": "back"} if arrowheads_back else {}
        label = f'<<FONT COLOR="{COLOURS["local"]}">{label_text(arrow.label, None)}</FONT>>' if arrow.label else ""
        dot.edge(
            f"{id_prefix}-box-{arrow.source}", f"{id_prefix}-box-{arrow.target}", label=label, id=arrow_id, **extra
        )
        element_attrs[arrow_id] = {"source": arrow.source, "target": arrow.target}

    return render_figure(
        dot.source,
        element_attrs,
        title=title,
        prefix=id_prefix,
        css="gg gg-graph gg-boxes",
        rankdir=rankdir,
        min_width=min_width,
        caption_text=caption_text,
        render=render,
    )

"""`draw_graph`: a computation graph as inline SVG (Graphviz), with stable ids for every element.

One job per module: `glassgrad.viz.walking` walks the graph and names its ids, `glassgrad.viz.dot` builds the DOT,
`glassgrad.viz.render` turns it into SVG (the backend), `glassgrad.viz.svg` makes that SVG inline-ready and
`glassgrad.viz.figure` wraps it in the page's figure; this module puts them together.

Ids (a documented contract, for linked highlights and step-through animations). With the
figure's prefix ``p`` and ``i`` the position of a value in ``walk(root)``:

| id | element |
| --- | --- |
| ``p`` | the ``<figure>`` wrapping the graph (``data-gg-prefix="p"``) |
| ``p-graph`` | the SVG group holding every node and edge |
| ``p-node-i`` | value box of node i (``class="node gg-value"``, plus ``gg-leaf`` / ``gg-root``) |
| ``p-node-i-data`` | the number of the data line in that box (``<text class="gg-t-value">``) |
| ``p-node-i-grad`` | the grad text in that box (``<text class="gg-t-grad">``, when ``show_grad=True``) |
| ``p-op-i`` | operation circle that produced node i (only if node i has parents) |
| ``p-edge-i-k`` | edge from ``node_i.parents[k].value`` into ``p-op-i``, labelled with its local grad |
| ``p-edge-i-k-local`` | the line of that label with the number (``<text class="gg-t-local">``; not on a wrong edge) |
| ``p-out-i`` | edge from ``p-op-i`` to ``p-node-i`` |

Each ``<g>`` carries ``data-gg-*`` attributes (``index``, ``label``; on edges ``output``, ``parent``,
``link`` and ``local``, the exact local grad; an edge marked wrong (`draw_graph`'s ``wrong_edges``) also has the
class ``gg-wrong`` and ``data-gg-wrong``). Texts have the classes ``gg-t-label``, ``gg-t-data``,
``gg-t-grad`` and ``gg-t-local``; colours are CSS variables, so the SVG follows the light and dark palettes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from glassgrad.viz.dot import (  # re-exported: the figures import them from here
    COLOURS as COLOURS,
)
from glassgrad.viz.dot import (
    FONT as FONT,
)
from glassgrad.viz.dot import (
    HIDDEN as HIDDEN,
)
from glassgrad.viz.dot import (
    digraph as digraph,
)
from glassgrad.viz.dot import (
    graph_dot,
    layout_cost,
    text_ids,
)
from glassgrad.viz.dot import (
    key_value as key_value,
)
from glassgrad.viz.dot import (
    label_text as label_text,
)
from glassgrad.viz.figure import (
    LAYOUTS as LAYOUTS,
)
from glassgrad.viz.figure import (
    MIN_SCALE as MIN_SCALE,
)
from glassgrad.viz.figure import (
    NATURAL_TEXT_PX as NATURAL_TEXT_PX,
)
from glassgrad.viz.figure import (
    TB_SCALE as TB_SCALE,
)
from glassgrad.viz.figure import (
    Drawing as Drawing,
)
from glassgrad.viz.figure import (
    check_rankdir as check_rankdir,
)
from glassgrad.viz.figure import (
    figure_html as figure_html,
)
from glassgrad.viz.html import caption, short
from glassgrad.viz.render import Render, render_svg
from glassgrad.viz.render import dot_svg as dot_svg  # re-exported: the runtime passes it
from glassgrad.viz.render import rendering_with as rendering_with
from glassgrad.viz.svg import ElementAttrs, TextIds, svg_cleanup
from glassgrad.viz.walking import (  # re-exported: the figures import them from here
    GraphIds as GraphIds,
)
from glassgrad.viz.walking import (
    Value as Value,
)
from glassgrad.viz.walking import (
    check_node as check_node,
)
from glassgrad.viz.walking import (
    check_prefix as check_prefix,
)
from glassgrad.viz.walking import (
    fingerprint as fingerprint,
)
from glassgrad.viz.walking import (
    graph_fingerprint as graph_fingerprint,
)
from glassgrad.viz.walking import (
    names as names,
)
from glassgrad.viz.walking import (
    too_big as too_big,
)
from glassgrad.viz.walking import (
    walk as walk,
)


def render_figure(
    dot_source: str,
    element_attrs: ElementAttrs,
    *,
    title: str,
    prefix: str,
    text_ids: TextIds | None = None,
    render: Render | None = None,
    **figure: Any,
) -> Drawing:
    """Every Graphviz figure's path: DOT source drawn by the backend (`render_svg`), made inline-ready
    (`svg_cleanup`, with `element_attrs` and `text_ids`) and wrapped in the page's figure (`figure_html`, titled
    `title`, with the ids of `prefix` and the other arguments, `figure`)."""
    svg, natural = svg_cleanup(render_svg(dot_source, render), element_attrs, title, prefix, text_ids=text_ids)
    return figure_html(svg, natural, title=title, prefix=prefix, **figure)


class GraphFigure(Drawing):
    """The fragment `draw_graph` returns: the markup `html` plus `ids`, the `GraphIds` of its elements, and the
    widths it is shown at (`natural`, `widest`, `narrowest`, as for `Drawing`; 0 where there is no drawing)."""

    __slots__ = ("ids",)

    def __init__(self, html: str, ids: GraphIds, *, natural: float = 0.0, widest: int = 0, narrowest: int = 0) -> None:
        super().__init__(html, natural, widest, narrowest)
        self.ids = ids

    @property
    def prefix(self) -> str:
        """The id prefix of this figure (also the id of its ``<figure>`` element)."""
        return self.ids.prefix


MAX_VALUES = 1000  # the most values draw_graph lays out (see `layout_cost` for what decides the time)
"""The most values `draw_graph` draws (its `max_values`); a bigger graph raises `ValueError`."""
MAX_LINKS = 2500  # the most links (edges into operations)
MAX_LAYOUT = 100_000  # the most layout nodes (see `layout_cost`): about 2 s of Graphviz at most
LARGE_LAYOUT = (
    2500  # above this many layout nodes, Graphviz gets the quick settings of `glassgrad.viz.dot.QUICK_LAYOUT`
)


def draw_graph(
    root: Value,
    *,
    show_grad: bool = True,
    min_width: int | None = None,
    id_prefix: str | None = None,
    caption_text: str | None = None,
    max_values: int = MAX_VALUES,
    max_links: int = MAX_LINKS,
    max_layout: int = MAX_LAYOUT,
    rankdir: str = "LR",
    mark: Collection[Value] = (),
    mark_label: str = "",
    wrong_edges: Sequence[tuple[Value, int]] = (),
    tangents: Mapping[Value, float] | None = None,
    render: Render | None = None,
    edge_labels: bool = True,
) -> GraphFigure:
    """Draw the graph that produced `root`, left to right (or top to bottom), as inline SVG in a sideways-scrolling box.

    Value boxes show name, data and grad (or "—"); each operation is a circle with its symbol; each
    parent → operation edge is labelled with its saved local derivative (``∂m/∂w = 3``, on two lines left to
    right, where each label widens the drawing). Names longer than 40 characters are cut with "…" (the tooltip
    has them whole); large graphs get straight edges.

    Args:
        root: the output whose ancestors are drawn (usually the loss).
        show_grad: show each ``.grad``; ``False`` draws "—" (the graph before backward).
        min_width: the narrowest the drawing is scaled to, in CSS pixels (narrower screens scroll
            sideways). Default: half the natural width (`MIN_SCALE`), where node text is 8 px tall.
        id_prefix: the id prefix. Default: derived from everything drawn, so a graph gives the same
            bytes in every build and different graphs on a page get different ids.
        caption_text: an optional ``<figcaption>``.
        max_values: the most values it draws (default [MAX_VALUES][glassgrad.viz.graph.MAX_VALUES]).
        max_links: the most links (parent → operation edges) it draws.
        max_layout: the most layout nodes (`layout_cost`) it asks Graphviz to place.
        rankdir: ``"LR"``, forward left to right (wide and low: a desktop column), or ``"TB"``, top to
            bottom (narrow and tall: a phone, or two graphs side by side). A ``"TB"`` drawing is shown
            at most at `TB_SCALE` of its natural size (node text 12.8 px) and, unless `min_width` says
            otherwise, at least at half (8 px).
        mark: values whose operation is framed in one dashed box (``{prefix}-mark``, class ``gg-mark``),
            with every marked value that only marked values use: the part where two graphs differ.
        mark_label: the text of that box.
        wrong_edges: edges to mark as wrong, as ``(output, k)`` pairs for ``output.parents[k]``: drawn thick in
            the palette's "bad" colour, their label prefixed with ✗ (so colour is not the only cue).
        tangents: forward mode's tangent of each value (`glassgrad.trace_jvp`), shown instead of the grads
            ("tangent 3"; "—" for a value left out), in the grad's place and colour.
        render: the Graphviz backend, DOT source -> SVG text. Default: the block's (`glassgrad.viz.render`), else
            the `graphviz` package's ``dot``.
        edge_labels: label each parent → operation edge with its local derivative. ``False`` draws the edges
            bare (a compact drawing of a dense graph; each edge keeps its number in ``data-gg-local``).

    Returns:
        `GraphFigure`: the fragment, with the id mapping (see the module docstring).

    Raises:
        ValueError: if the graph passes a limit (found without walking the rest of it; the message says
            how to draw it anyway).
        TypeError: if `root` is not a Value.
        KeyError, IndexError: if an edge of `wrong_edges` is not in the graph.
    """
    options = {name: value for name, value in locals().items() if name not in ("root", "id_prefix", "render")}
    check_rankdir(rankdir, "draw_graph")
    order = walk(root, max_values=max_values, max_links=max_links, caller="draw_graph")
    cost = layout_cost(order)
    if cost > max_layout:
        raise too_big("draw_graph", root, "layout nodes (values, operations and edge bends)", max_layout, "max_layout")
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(order, show_grad, options)
    ids = GraphIds(root, prefix, order)
    wrong = sorted({(ids.index(output), k) for output, k in wrong_edges})  # KeyError: an output not in this graph
    for output, k in wrong_edges:
        ids.edge_id(output, k)  # IndexError: no such link
    dot, element_attrs = graph_dot(
        ids,
        show_grad=show_grad,
        rankdir=rankdir,
        quick=cost > LARGE_LAYOUT,
        mark=mark,
        mark_label=mark_label,
        wrong=wrong,
        tangents=tangents,
        edge_labels=edge_labels,
    )
    grads = "tangents" if tangents is not None else "shown" if show_grad else "hidden"
    drawing = render_figure(
        dot.source,
        element_attrs,
        title=_title(ids, rankdir, show_grad, tangents, wrong_edges),
        prefix=prefix,
        css="gg gg-graph",
        rankdir=rankdir,
        min_width=min_width,
        caption_text=caption_text,
        attrs=f' data-gg-grads="{grads}" data-gg-rankdir="{rankdir}"',
        text_ids=text_ids(ids),
        render=render,
    )
    return GraphFigure(drawing.html, ids, natural=drawing.natural, widest=drawing.widest, narrowest=drawing.narrowest)


def _title(
    ids: GraphIds,
    rankdir: str,
    show_grad: bool,
    tangents: Mapping[Value, float] | None,
    wrong_edges: Sequence[tuple[Value, int]],
) -> str:
    """The drawing's accessible title: what it shows, which way, and each edge marked wrong."""
    name = {node: short(caption(node, i)) for i, node in enumerate(ids.order)}
    direction = "left to right" if rankdir == "LR" else "top to bottom"
    shown = "forward-mode tangents" if tangents is not None else "gradients" if show_grad else "no gradients yet"
    title = f"Computation graph of {name[ids.order[-1]]}: {len(ids.order)} values, forward {direction}, {shown}"
    for output, k in wrong_edges:
        title += f"; marked wrong: the edge ∂{name[output]}/∂{name[output.parents[k].value]}"
    return title

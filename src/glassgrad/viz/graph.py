"""`draw_graph`: a computation graph as inline SVG (Graphviz), with stable ids for every element.

Ids (a documented contract, for linked highlights and step-through animations). With the
figure's prefix ``p`` and ``i`` the position of a value in ``walk(root)``:

| id | element |
| --- | --- |
| ``p`` | the ``<figure>`` wrapping the graph (``data-gg-prefix="p"``) |
| ``p-graph`` | the SVG group holding every node and edge |
| ``p-node-i`` | value box of node i (``class="node gg-value"``, plus ``gg-leaf`` / ``gg-root``) |
| ``p-node-i-grad`` | the grad text in that box (``<text class="gg-t-grad">``, when ``show_grad=True``) |
| ``p-op-i`` | operation circle that produced node i (only if node i has parents) |
| ``p-edge-i-k`` | edge from ``node_i.parents[k].value`` into ``p-op-i``, labelled with its local grad |
| ``p-out-i`` | edge from ``p-op-i`` to ``p-node-i`` |

Each ``<g>`` carries ``data-gg-*`` attributes (``index``, ``label``; on edges ``output``, ``parent``,
``link`` and ``local``, the exact local grad; an edge marked wrong (`draw_graph`'s ``wrong_edges``) also has the class ``gg-wrong`` and ``data-gg-wrong``). Texts have the classes ``gg-t-label``, ``gg-t-data``,
``gg-t-grad`` and ``gg-t-local``; colours are CSS variables, so the SVG follows the light and dark palettes.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from glassgrad.viz.figure import (  # re-exported: the figures import them from here
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
from glassgrad.viz.html import LABEL_LIMIT, caption, escape, fmt, short
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


def chips(names: Sequence[str], id_prefix: str | None = None, bad: Sequence[int] = ()) -> str:
    """Names as chips joined by arrows; chip i has the id ``{id_prefix}-{i}`` and, if i is in `bad`, ``gg-bad``."""
    arrow = '<span class="gg-arrow" aria-hidden="true">→</span>'
    ids = [f' id="{id_prefix}-{i}"' if id_prefix else "" for i in range(len(names))]
    return arrow.join(
        f'<span class="gg-chip{" gg-bad" if i in bad else ""}"{ids[i]}>{escape(name)}</span>'
        for i, name in enumerate(names)
    )


FONT = "Arial"  # Graphviz in WebAssembly knows its widths (it measures any other name as Times); `dot` draws it as Liberation Sans, same widths

# The colours Graphviz draws with, by role: the one place figures name a colour. `svg_cleanup` gives each text,
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
_ROLE = {colour: role for role, colour in COLOURS.items()}

HIDDEN = "—"  # a value box's grad when ``show_grad=False``


def digraph(**graph_attr: str) -> Any:
    """A Graphviz digraph in the figures' style (imported here: the plots and cards need no Graphviz)."""
    import graphviz

    return graphviz.Digraph(
        graph_attr={
            "rankdir": "LR",
            "bgcolor": "transparent",
            "nodesep": "0.25",
            "ranksep": "0.3",
            "pad": "0.08",
            **graph_attr,
        },
        node_attr={"fontname": FONT, "fontsize": "12", "color": COLOURS["edge"], "penwidth": "1.2"},
        edge_attr={"fontname": FONT, "fontsize": "11", "color": COLOURS["line"], "arrowsize": "0.7"},
    )


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
LARGE_LAYOUT = 2500  # above this many layout nodes, Graphviz gets the quick settings of `QUICK_LAYOUT`
QUICK_LAYOUT = {"nslimit": "0.01", "nslimit1": "0.01", "mclimit": "0.1", "remincross": "false", "splines": "line"}
"""Graphviz settings for large graphs: bounded network-simplex and crossing-minimisation passes,
straight edges. Graphviz's default layout takes minutes on a dense graph of 100 values."""
OP_LIMIT = 12  # longer op symbols are cut with "…" in the operation circle
_BLANKS = str.maketrans("\t\n\r", "   ")


def label_text(text: object, limit: int | None = LABEL_LIMIT) -> str:
    """`text` as it shows in a Graphviz HTML-like label: cut to `limit` characters (`short`; ``None``: whole), escaped,
    and tab, newline and carriage return drawn as spaces (Graphviz draws them so, and refuses a text of nothing else).

    Examples:
        >>> label_text("<b>"), label_text("\\r"), label_text("x" * 50, 5)
        ('&lt;b&gt;', ' ', 'xxxx…')
    """
    return escape(text if limit is None else short(text, limit)).translate(_BLANKS)


def layout_cost(order: Sequence[Value]) -> int:
    """How many nodes Graphviz lays out for `draw_graph`: value boxes, operation circles, and one per rank an edge crosses.

    Graphviz's dot replaces an edge spanning k ranks by k - 1 hidden nodes; their number decides its time.
    Counted on a ranking dot could choose (each value 4 ranks after its deepest parent, a leaf just
    before its first use); dot's own ranking is at least as tight, so it places at most this many. `order` is ``walk(root)``.
    """
    rank: dict[int, int] = {}
    for node in order:
        rank[id(node)] = max((rank[id(link.value)] for link in node.parents), default=-4) + 4
    first_use: dict[int, int] = {}
    for node in order:
        for link in node.parents:
            if not link.value.parents:
                first_use[id(link.value)] = min(first_use.get(id(link.value), rank[id(node)] - 4), rank[id(node)] - 4)
    rank.update(first_use)
    cost = 0
    for node in order:
        cost += 1
        if node.parents:
            cost += 2  # the operation circle and the bend of its edge into the value box
            cost += sum(rank[id(node)] - 3 - rank[id(link.value)] for link in node.parents)
    return cost


def key_value(key: str, value: str, key_colour: str, value_colour: str) -> str:
    """Two cells of a Graphviz HTML-like table: `key` aligned right, then `value` aligned left (both markup).

    Two texts of two colours on one line are two ``<text>`` elements, placed where Graphviz measured the first to
    end; a browser may draw it wider (the space after "data" vanished). Aligned towards each other, the two keep
    the cells' padding between them, whatever the font.
    """
    return (
        f'<TD ALIGN="RIGHT" CELLPADDING="2"><FONT COLOR="{key_colour}">{key}</FONT></TD>'
        f'<TD ALIGN="LEFT" CELLPADDING="2"><FONT COLOR="{value_colour}">{value}</FONT></TD>'
    )


def _value_label(value: Value, index: int, show_grad: bool, tangents: Mapping[Value, float] | None = None) -> str:
    """Graphviz HTML-like label of a value box: name, data, grad (or its forward-mode tangent; every string escaped)."""
    name = label_text(caption(value, index))
    name = f"<B>{name}</B>" if value.label else f"<I>{name}</I>"
    word, grad = "grad", escape(fmt(value.grad)) if show_grad else HIDDEN
    grad_colour = COLOURS["grad"] if show_grad else COLOURS["data"]
    if tangents is not None:  # forward mode: the same slot holds the tangent
        word, grad_colour = "tangent", COLOURS["grad"]
        grad = escape(fmt(tangents[value])) if value in tangents else HIDDEN
    return (
        '<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
        f'<TR><TD COLSPAN="2"><FONT COLOR="{COLOURS["label"]}" POINT-SIZE="13">{name}</FONT></TD></TR>'
        f"<TR>{key_value('data', escape(fmt(value.data)), COLOURS['data'], COLOURS['value'])}</TR>"
        f'<TR><TD COLSPAN="2"><FONT COLOR="{grad_colour}">{word} {grad}</FONT></TD></TR>'
        "</TABLE>>"
    )


def _local_label(
    output: Value,
    parent: Value,
    local_grad: float,
    index: dict[Value, int],
    marked: bool = False,
    pad: str = "",
    wrap: bool = False,
) -> str:
    """Edge label ``∂m/∂w = 3`` as a Graphviz HTML-like label (``✗ ∂m/∂w = 3``, bold, for a marked edge).

    `wrap` breaks it before "=" (a left-to-right drawing: each label widens the drawing by its width).
    `pad` is "before" or "after" for two edges between the same pair (``w * w``): Graphviz sets their labels
    side by side and measures ``∂`` narrower than browsers draw it, so the inner sides get a little space.
    """
    out_name = label_text(caption(output, index[output]))
    parent_name = label_text(caption(parent, index[parent]))
    space = "\u00a0\u00a0\u00a0"
    lines = [f"{'✗ ' if marked else ''}∂{out_name}/∂{parent_name}", f"= {escape(fmt(local_grad))}"]
    if not wrap:  # beside its edge, on one line: two spaces before a label beside it
        lines = [f"{' '.join(lines)}\u00a0\u00a0"]
    text = "<BR/>".join(space + line if pad == "before" else line + space if pad == "after" else line for line in lines)
    if marked:
        return f'<<FONT COLOR="{COLOURS["bad"]}"><B>{text}</B></FONT>>'
    return f'<<FONT COLOR="{COLOURS["local"]}">{text}</FONT>>'


def _data_attrs(attrs: dict[str, object]) -> str:
    return "".join(f' data-gg-{name}="{escape(value)}"' for name, value in attrs.items())


def svg_cleanup(svg: str, element_attrs: dict[str, dict[str, object]], title: str, prefix: str) -> tuple[str, float]:
    """Graphviz's SVG made inline-ready, and its natural width in CSS pixels.

    Drops the prolog, comments and Graphviz's ``<title>``s, sizes by viewBox only, renames ``graph0`` to
    ``{prefix}-graph`` (unique on a page), turns the known colours into classes and adds ``data-gg-*``
    attributes to the ``<g>`` elements named in `element_attrs`.
    """
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<!--.*?-->\n?", "", svg, flags=re.S)
    svg = re.sub(r"<title>.*?</title>\n?", "", svg, flags=re.S)
    svg = svg.replace("&#45;", "-")  # Graphviz writes every '-' in ids as an entity
    svg = svg.replace('<g id="graph0" class="graph"', f'<g id="{prefix}-graph" class="graph"', 1)
    match = re.match(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    if match is None:
        raise ValueError("unexpected Graphviz SVG header")
    width_px = float(match.group(1)) * 4 / 3  # Graphviz sizes in points; CSS pixels are 3/4 pt
    svg = svg[: match.start()] + "<svg" + svg[match.end() :]

    def text_class(m: re.Match[str]) -> str:
        role = _ROLE.get(m.group(2).lower())
        return f'<text class="gg-t-{role}"{m.group(1)}fill="{m.group(2)}"' if role else m.group(0)

    svg = re.sub(r'<text( [^>]*?)fill="(#[0-9a-fA-F]{6})"', text_class, svg)

    def shape_class(m: re.Match[str]) -> str:
        roles = [
            f"gg-{kind or 's'}-{_ROLE[colour.lower()]}"
            for kind, colour in re.findall(r' (?:(f)ill|(?:s)troke)="(#[0-9a-fA-F]{6})"', m.group(2))
            if colour.lower() in _ROLE
        ]
        return f'<{m.group(1)} class="{" ".join(roles)}"{m.group(2)}' if roles else m.group(0)

    svg = re.sub(r"<(path|polygon|ellipse|polyline)( [^>]*)", shape_class, svg)

    def add_attrs(m: re.Match[str]) -> str:
        attrs = element_attrs.get(m.group(1))
        if not attrs:
            return m.group(0)
        tooltip = f"<title>{escape(attrs['label'])}</title>" if len(str(attrs.get("label", ""))) > LABEL_LIMIT else ""
        return m.group(0)[:-1] + _data_attrs(attrs) + ">" + tooltip

    svg = re.sub(r'<g id="([^"]+)" class="[^"]*">', add_attrs, svg)
    svg = svg.replace("<svg", '<svg role="img" class="gg-svg"', 1)
    svg = svg.replace(">", f"><title>{escape(title)}</title>", 1)
    return svg.strip(), width_px


def dot_svg(dot_source: str) -> str:
    """Graphviz's SVG for `dot_source`, from the `dot` binary (the default renderer)."""
    import graphviz

    return graphviz.pipe_string("dot", "svg", dot_source, encoding="utf-8")


RENDERER: ContextVar[Callable[[str], str]] = ContextVar("glassgrad_viz_renderer", default=dot_svg)
"""The function every figure's DOT goes through (DOT -> SVG), looked up each time a figure is drawn."""


@contextlib.contextmanager
def rendering_with(renderer: Callable[[str], str]) -> Iterator[None]:
    """Draw every figure inside the block with `renderer` (DOT source -> SVG text) instead of `dot`.

    The browser's Python passes Graphviz compiled to WebAssembly; anything with the same output works.
    """
    token = RENDERER.set(renderer)
    try:
        yield
    finally:
        RENDERER.reset(token)


def render_svg(dot_source: str) -> str:
    """Graphviz's SVG for `dot_source`, by the current renderer (`dot_svg` unless `rendering_with` set another)."""
    return RENDERER.get()(dot_source)


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

    Returns:
        `GraphFigure`: the fragment, with the id mapping (see the module docstring).

    Raises:
        ValueError: if the graph passes a limit (found without walking the rest of it; the message says
            how to draw it anyway).
        TypeError: if `root` is not a Value.
        KeyError, IndexError: if an edge of `wrong_edges` is not in the graph.
    """
    options = {name: value for name, value in locals().items() if name not in ("root", "id_prefix")}  # the ids' source
    check_rankdir(rankdir, "draw_graph")
    order = walk(root, max_values=max_values, max_links=max_links, caller="draw_graph")
    cost = layout_cost(order)
    if cost > max_layout:
        raise too_big("draw_graph", root, "layout nodes (values, operations and edge bends)", max_layout, "max_layout")
    marked = set(mark)
    index = {node: i for i, node in enumerate(order)}
    marks = sorted({(index[output], k) for output, k in wrong_edges})  # KeyError: an output not in this graph
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(order, show_grad, options)
    ids = GraphIds(root, prefix, order)
    for output, k in wrong_edges:
        ids.edge_id(output, k)  # IndexError: no such link

    dot = digraph(**{**LAYOUTS[rankdir], **(QUICK_LAYOUT if cost > LARGE_LAYOUT else {})})
    box = dot.subgraph(name="cluster_mark") if marked else contextlib.nullcontext(dot)
    element_attrs: dict[str, dict[str, object]] = {}
    users: dict[Value, set[Value]] = {node: set() for node in order}
    for node in order:
        for link in node.parents:
            users[link.value].add(node)
    with box as marked_part:
        if marked:
            marked_part.attr(
                id=f"{prefix}-mark",
                label=f"<{label_text(mark_label)}>",
                style="dashed,rounded",
                color=COLOURS["mark"],
                fontcolor=COLOURS["mark"],
                fontname=FONT,
                fontsize="11",
                labeljust="r",
                margin="16",  # room for an edge label inside the frame, which browsers draw wider than dot measures
                **{"class": "gg-mark"},
            )
        for node in order:
            if node in marked:
                if node.parents:
                    marked_part.node(ids.op_id(node))
                if users[node] and users[node] <= marked:
                    marked_part.node(ids.node_id(node))
    for i, node in enumerate(order):
        role = "gg-value" + (" gg-leaf" if not node.parents else "") + (" gg-root" if node is root else "")
        node_id = ids.node_id(node)
        dot.node(
            node_id,
            _value_label(node, i, show_grad, tangents),
            id=node_id,
            shape="box",
            style="rounded,filled",
            fillcolor=COLOURS["box"],
            margin="0.08,0.04",
            **{"class": role},
        )
        element_attrs[node_id] = {"index": i, "label": caption(node, i), "role": "value"}
        if not node.parents:
            continue
        op_id = ids.op_id(node)
        dot.node(
            op_id,
            f"<{label_text(node.op or '?', OP_LIMIT)}>",
            id=op_id,
            shape="circle",
            style="filled",
            fillcolor=COLOURS["op"],
            width="0.36",
            margin="0.02",
            **{"class": "gg-op"},
        )
        element_attrs[op_id] = {"index": i, "label": caption(node, i), "role": "op", "op": node.op}
        links = node.parents
        one_operand_twice = len(links) == 2 and links[0].value is links[1].value  # w * w: labels side by side
        pads = ["after", "before"] if one_operand_twice else [""] * len(links)
        for k, link in enumerate(node.parents):
            edge_id = ids.edge_id(node, k)
            is_marked = (i, k) in marks
            style = (
                {"color": COLOURS["bad"], "penwidth": "2.4", "class": "gg-link gg-wrong"}
                if is_marked
                else {"class": "gg-link"}
            )
            dot.edge(
                ids.node_id(link.value),
                op_id,
                label=_local_label(node, link.value, link.local_grad, index, is_marked, pads[k], rankdir == "LR"),
                id=edge_id,
                **style,
            )
            element_attrs[edge_id] = {
                "output": i,
                "parent": index[link.value],
                "link": k,
                "local": repr(link.local_grad),
                "role": "link",
                **({"wrong": "true"} if is_marked else {}),
            }
        out_id = ids.out_id(node)
        dot.edge(op_id, node_id, id=out_id, **{"class": "gg-out"})
        element_attrs[out_id] = {"output": i, "role": "out"}

    direction = "left to right" if rankdir == "LR" else "top to bottom"
    shown = "forward-mode tangents" if tangents is not None else "gradients" if show_grad else "no gradients yet"
    title = (
        f"Computation graph of {short(caption(root, index[root]))}: {len(order)} values, forward {direction}, {shown}"
    )
    for output, k in wrong_edges:
        parent = output.parents[k].value
        title += f"; marked wrong: the edge ∂{short(caption(output, index[output]))}/∂{short(caption(parent, index[parent]))}"
    svg, natural = svg_cleanup(render_svg(dot.source), element_attrs, title, prefix)
    svg = re.sub(
        r'(<g id="([\w-]+-node-\d+)"(?:(?!</g>).)*?<text class="gg-t-grad")', r'\1 id="\2-grad"', svg, flags=re.S
    )
    grads = "tangents" if tangents is not None else "shown" if show_grad else "hidden"
    drawing = figure_html(
        svg,
        natural,
        title=title,
        prefix=prefix,
        css="gg gg-graph",
        rankdir=rankdir,
        min_width=min_width,
        caption_text=caption_text,
        attrs=f' data-gg-grads="{grads}" data-gg-rankdir="{rankdir}"',
    )
    return GraphFigure(drawing.html, ids, natural=drawing.natural, widest=drawing.widest, narrowest=drawing.narrowest)

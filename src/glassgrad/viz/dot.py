"""DOT building: the Graphviz source of `draw_graph`'s figure, in the figures' style (`digraph`, labels, colours).

Graphviz's HTML-like labels are markup: every text in them goes through `label_text` (`escape`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from glassgrad.viz.figure import COLOURS, LAYOUTS
from glassgrad.viz.html import LABEL_LIMIT, caption, escape, fmt, short
from glassgrad.viz.walking import GraphIds, Value

FONT = "Arial"  # Graphviz in WebAssembly knows its widths (it measures any other name as Times); `dot` draws it as Liberation Sans, same widths
HIDDEN = "—"  # a value box's grad when ``show_grad=False``
QUICK_LAYOUT = {"nslimit": "0.01", "nslimit1": "0.01", "mclimit": "0.1", "remincross": "false", "splines": "line"}
"""Graphviz settings for large graphs: bounded network-simplex and crossing-minimisation passes,
straight edges. Graphviz's default layout takes minutes on a dense graph of 100 values."""
OP_LIMIT = 12  # longer op symbols are cut with "…" in the operation circle
_BLANKS = str.maketrans("\t\n\r", "   ")

Attrs = dict[str, dict[str, object]]
"""The ``data-gg-*`` attributes of each element, by element id (`glassgrad.viz.svg.svg_cleanup` adds them)."""


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


def label_text(text: object, limit: int | None = LABEL_LIMIT) -> str:
    """`text` as it shows in a Graphviz HTML-like label: cut to `limit` characters (`short`; ``None``: whole), escaped,
    and tab, newline and carriage return drawn as spaces (Graphviz draws them so, and refuses a text of nothing else).

    Examples:
        >>> label_text("<b>"), label_text("\\r"), label_text("x" * 50, 5)
        ('&lt;b&gt;', ' ', 'xxxx…')
    """
    return escape(text if limit is None else short(text, limit)).translate(_BLANKS)


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


def value_label(value: Value, index: int, show_grad: bool, tangents: Mapping[Value, float] | None = None) -> str:
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


def local_label(
    output: str, parent: str, local_grad: float, marked: bool = False, pad: str = "", wrap: bool = False
) -> str:
    """Edge label ``∂m/∂w = 3`` (`output`, `parent`: the names shown) as a Graphviz HTML-like label
    (``✗ ∂m/∂w = 3``, bold, for a marked edge).

    `wrap` breaks it before "=" (a left-to-right drawing: each label widens the drawing by its width).
    `pad` is "before" or "after" for two edges between the same pair (``w * w``): Graphviz sets their labels
    side by side and measures ``∂`` narrower than browsers draw it, so the inner sides get a little space.
    """
    space = "\u00a0\u00a0\u00a0"
    lines = [f"{'✗ ' if marked else ''}∂{label_text(output)}/∂{label_text(parent)}", f"= {escape(fmt(local_grad))}"]
    if not wrap:  # beside its edge, on one line: two spaces before a label beside it
        lines = [f"{' '.join(lines)}\u00a0\u00a0"]
    text = "<BR/>".join(space + line if pad == "before" else line + space if pad == "after" else line for line in lines)
    if marked:
        return f'<<FONT COLOR="{COLOURS["bad"]}"><B>{text}</B></FONT>>'
    return f'<<FONT COLOR="{COLOURS["local"]}">{text}</FONT>>'


def _mark_box(dot: Any, ids: GraphIds, marked: set[Value], mark_label: str) -> None:
    """Frame the operations of `marked` in one dashed box, with every marked value only marked values use."""
    if not marked:
        return
    users: dict[Value, set[Value]] = {node: set() for node in ids.order}
    for node in ids.order:
        for link in node.parents:
            users[link.value].add(node)
    with dot.subgraph(name="cluster_mark") as box:
        box.attr(
            id=f"{ids.prefix}-mark",
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
        for node in ids.order:
            if node in marked:
                if node.parents:
                    box.node(ids.op_id(node))
                if users[node] and users[node] <= marked:
                    box.node(ids.node_id(node))


def _value_box(dot: Any, ids: GraphIds, i: int, show_grad: bool, tangents: Mapping[Value, float] | None) -> Attrs:
    """The box of value i (of ``ids.order``), and its element attributes."""
    node = ids.order[i]
    role = "gg-value" + (" gg-leaf" if not node.parents else "") + (" gg-root" if i == len(ids.order) - 1 else "")
    node_id = ids.node_id(node)
    dot.node(
        node_id,
        value_label(node, i, show_grad, tangents),
        id=node_id,
        shape="box",
        style="rounded,filled",
        fillcolor=COLOURS["box"],
        margin="0.08,0.04",
        **{"class": role},
    )
    return {node_id: {"index": i, "label": caption(node, i), "role": "value"}}


def _operation(
    dot: Any, ids: GraphIds, i: int, wrong: Collection[tuple[int, int]], wrap: bool, edge_labels: bool = True
) -> Attrs:
    """The operation circle that made value i, its edges from each parent and to the value, and their attributes
    (without `edge_labels`, the edges carry no label: their local derivatives stay in ``data-gg-local``)."""
    node = ids.order[i]
    op_id, name = ids.op_id(node), caption(node, i)
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
    attrs: Attrs = {op_id: {"index": i, "label": name, "role": "op", "op": node.op}}
    links = node.parents
    one_operand_twice = len(links) == 2 and links[0].value is links[1].value  # w * w: labels side by side
    pads = ["after", "before"] if one_operand_twice else [""] * len(links)
    for k, link in enumerate(links):
        edge_id, parent, is_wrong = ids.edge_id(node, k), ids.index(link.value), (i, k) in wrong
        style = (
            {"color": COLOURS["bad"], "penwidth": "2.4", "class": "gg-link gg-wrong"}
            if is_wrong
            else {"class": "gg-link"}
        )
        label = local_label(name, caption(link.value, parent), link.local_grad, is_wrong, pads[k], wrap)
        dot.edge(ids.node_id(link.value), op_id, id=edge_id, **style, **({"label": label} if edge_labels else {}))
        attrs[edge_id] = {"output": i, "parent": parent, "link": k, "local": repr(link.local_grad), "role": "link"}
        attrs[edge_id] |= {"wrong": "true"} if is_wrong else {}
    out_id = ids.out_id(node)
    dot.edge(op_id, ids.node_id(node), id=out_id, **{"class": "gg-out"})
    attrs[out_id] = {"output": i, "role": "out"}
    return attrs


def graph_dot(
    ids: GraphIds,
    *,
    show_grad: bool = True,
    rankdir: str = "LR",
    quick: bool = False,
    mark: Collection[Value] = (),
    mark_label: str = "",
    wrong: Collection[tuple[int, int]] = (),
    tangents: Mapping[Value, float] | None = None,
    edge_labels: bool = True,
) -> tuple[Any, Attrs]:
    """The digraph `draw_graph` renders for the graph of `ids`, and the ``data-gg-*`` attributes of its elements.

    `quick` takes `QUICK_LAYOUT`; `wrong` holds ``(i, k)``: the link ``order[i].parents[k]`` drawn as wrong. The
    other options are `draw_graph`'s.
    """
    dot = digraph(**{**LAYOUTS[rankdir], **(QUICK_LAYOUT if quick else {})})
    _mark_box(dot, ids, set(mark), mark_label)
    attrs: Attrs = {}
    for i, node in enumerate(ids.order):
        attrs |= _value_box(dot, ids, i, show_grad, tangents)
        if node.parents:
            attrs |= _operation(dot, ids, i, wrong, rankdir == "LR", edge_labels)
    return dot, attrs


def text_ids(ids: GraphIds) -> dict[str, list[tuple[str, str]]]:
    """Which text of each element gets an id (`glassgrad.viz.svg.svg_cleanup`'s `text_ids`): a value box's data and
    grad, an edge label's number (its last line)."""
    named: dict[str, list[tuple[str, str]]] = {}
    for node in ids.order:
        named[ids.node_id(node)] = [("value", ids.data_id(node)), ("grad", ids.grad_id(node))]
        for k in range(len(node.parents)):
            named[ids.edge_id(node, k)] = [("local", ids.local_id(node, k))]
    return named


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

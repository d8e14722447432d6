"""Teaching figures built from live objects: one ParentLink's storage, dependency orders, the ordering walk."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from glassgrad.viz.graph import (
    COLOURS,
    MAX_VALUES,
    Drawing,
    Value,
    check_node,
    check_prefix,
    digraph,
    figure_html,
    fingerprint,
    key_value,
    label_text,
    names,
    too_big,
    walk,
)
from glassgrad.viz.html import HtmlFragment, caption, chips, escape, fmt, short
from glassgrad.viz.render import render_svg
from glassgrad.viz.svg import svg_cleanup

MAX_SHOWN_LINKS = 50  # show_parent_link draws one row per link: more would not fit a page
MAX_WALK_VALUES = 300  # show_order_walk indents each visit: its text grows with values × depth


def show_parent_link(
    output: Value, k: int = 0, *, id_prefix: str | None = None, max_links: int = MAX_SHOWN_LINKS
) -> Drawing:
    """How one operation is stored: output v, its ``ParentLink``s, and the parents they point back to.

    For ``m = w × x`` and ``k = 0``, the highlighted link holds ``.value`` (w) and ``.local_grad``
    (∂m/∂w = 3); under the drawing, the backward update at that link is written out from the live numbers.

    Args:
        output: the value v whose link is shown (it must have parents).
        k: which link of ``output.parents`` plays the part of u.
        id_prefix: prefix of the element ids (``{p}-v``, ``{p}-u-{j}``, ``{p}-link-{j}``,
            ``{p}-forward-{j}``). Default: derived from everything shown.
        max_links: the most links `output` may have (one row each).

    Raises:
        IndexError: if `output` has no link `k`.
        ValueError: if `output` has no links, or more than `max_links`.
    """
    check_node(output, "show_parent_link")
    _check_link(output, k, max_links)
    if id_prefix is None:
        drawn = [f"{k}|{output.label!r}|{output.data!r}|{output.grad!r}"]
        drawn += [f"{other.value.label!r}|{other.value.data!r}|{other.local_grad!r}" for other in output.parents]
        id_prefix = fingerprint("ggs", drawn)
    check_prefix(id_prefix)
    shown = {output: short(caption(output))}  # names cut as draw_graph cuts them
    for j, other in enumerate(output.parents):
        shown.setdefault(other.value, short(caption(other.value)) if other.value.label else f"u{j}")
    v_name, u_name = shown[output], shown[output.parents[k].value]
    dot = digraph(nodesep="0.35", ranksep="1.1")
    dot.node_attr["shape"] = "plain"
    dot.node(f"{id_prefix}-v", _output_label(output, k, shown), id=f"{id_prefix}-v", **{"class": "gg-storage-v"})
    _parents_and_pointers(dot, output, k, shown, id_prefix)
    title = f"{v_name} stores one ParentLink per operand; .parents[{k}] points back to {u_name}"
    svg, natural = svg_cleanup(render_svg(dot.source), {}, title, id_prefix)
    upstream, local = output.grad, output.parents[k].local_grad
    update = (
        f'<p class="gg-storage-update">Backward at <code>{escape(v_name)}.parents[{k}]</code>: '
        f'<span class="gg-upstream">upstream {escape(v_name)}.grad = {escape(fmt(upstream))}</span> × '
        f'<span class="gg-local">local ∂{escape(v_name)}/∂{escape(u_name)} = {escape(fmt(local))}</span> = '
        f'<span class="gg-contribution">edge contribution {escape(fmt(upstream * local))}</span>, '
        f"added to <code>{escape(u_name)}.grad</code>.</p>"
    )
    return figure_html(
        svg,
        natural,
        title=title,
        prefix=id_prefix,
        css="gg gg-graph gg-storage",
        min_width=round(natural * 0.8),
        after=update,
    )


def _check_link(output: Value, k: int, max_links: int) -> None:
    """The errors `show_parent_link` raises for an output with no link `k`, no links, or too many."""
    count = len(output.parents)
    if not count:
        raise ValueError(f"show_parent_link: {short(caption(output))!r} has no parent links to show")
    if count > max_links:
        raise too_big("show_parent_link", output, "parent links", max_links, "max_links")
    if type(k) is not int or not 0 <= k < count:
        raise IndexError(
            f"show_parent_link: {short(caption(output))!r} has links 0 to {count - 1}, no link k={k!r:.20}"
        )


_INK, _DIM, _NUMBER, _LOCAL = (COLOURS[role] for role in ("label", "data", "value", "local"))


def _output_label(output: Value, k: int, shown: dict[Value, str]) -> str:
    """The HTML-like label of v's box: its name, ``.data`` and ``.grad``, then one row per link (link `k` framed)."""
    v_name = shown[output]

    def local_text(other: Any) -> str:  # ".local_grad 3 (= ∂m/∂w)": the number and what it is
        return f"{escape(fmt(other.local_grad))} (= ∂{label_text(v_name)}/∂{label_text(shown[other.value])})"

    row = '<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0"><TR>{}</TR></TABLE></TD></TR>'
    v_name_markup = f'<FONT POINT-SIZE="13"><B>v = {label_text(v_name)}</B></FONT>'
    link_rows = "".join(
        f'<TR><TD PORT="link{j}" ALIGN="LEFT" BORDER="{2 if j == k else 1}" COLOR="{_LOCAL if j == k else _DIM}">'
        '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0">'
        f'<TR><TD COLSPAN="2" ALIGN="LEFT"><FONT COLOR="{_INK}">.parents[{j}]: ParentLink</FONT></TD></TR>'
        f"<TR>{key_value('.value →', label_text(shown[other.value]), _DIM, _NUMBER)}</TR>"
        f"<TR>{key_value('.local_grad', local_text(other), _DIM, _LOCAL)}</TR></TABLE></TD></TR>"
        for j, other in enumerate(output.parents)
    )
    return (
        f'<<TABLE BORDER="1" COLOR="{COLOURS["edge"]}" CELLBORDER="0" CELLSPACING="4" CELLPADDING="4" STYLE="rounded" '
        f'BGCOLOR="{COLOURS["box"]}">'
        + row.format(key_value(v_name_markup, "output (child)", _INK, _DIM))
        + row.format(
            key_value(".data", escape(fmt(output.data)), _DIM, _NUMBER)
            + '<TD WIDTH="12"></TD>'  # between two pairs, each drawn towards the other
            + key_value(".grad", escape(fmt(output.grad)), _DIM, COLOURS["grad"])
        )
        + f"{link_rows}</TABLE>>"
    )


def _parents_and_pointers(dot: Any, output: Value, k: int, shown: dict[Value, str], id_prefix: str) -> None:
    """One box per parent object (``w * w``: one box, two links), its forward arrow, and each link's pointer back."""
    first_slot: dict[Value, int] = {}
    for j, other in enumerate(output.parents):
        parent = other.value
        if first_slot.setdefault(parent, j) != j:
            continue
        role = "u = " if j == k else ""
        u_label = (
            f'<<TABLE BORDER="1" COLOR="{COLOURS["edge"]}" CELLBORDER="0" CELLSPACING="2" CELLPADDING="3" STYLE="rounded" '
            f'BGCOLOR="{COLOURS["box"]}"><TR><TD COLSPAN="2"><FONT COLOR="{_INK}" POINT-SIZE="13"><B>{role}{label_text(shown[parent])}</B></FONT></TD></TR>'
            f'<TR><TD COLSPAN="2"><FONT COLOR="{_DIM}">parent (operand)</FONT></TD></TR>'
            f"<TR>{key_value('.data', escape(fmt(parent.data)), _DIM, _NUMBER)}</TR></TABLE>>"
        )
        dot.node(f"{id_prefix}-u-{j}", u_label, id=f"{id_prefix}-u-{j}", **{"class": "gg-storage-u"})
    for j, other in enumerate(output.parents):
        u_node = f"{id_prefix}-u-{first_slot[other.value]}"
        if first_slot[other.value] == j:  # one forward arrow per parent object, even for w * w
            dot.edge(
                u_node,
                f"{id_prefix}-v",
                id=f"{id_prefix}-forward-{j}",
                style="dashed",
                label=f'<<FONT COLOR="{_DIM}">forward: operand</FONT>>',
                **{"class": "gg-forward"},
            )
        dot.edge(
            f"{id_prefix}-v:link{j}:w",
            u_node,
            id=f"{id_prefix}-link-{j}",
            constraint="false",
            color=_LOCAL,
            penwidth="2" if j == k else "1",
            label=f'<<FONT COLOR="{_LOCAL}">.parents[{j}].value</FONT>>',
            **{"class": "gg-pointer"},
        )


def order_violations(root: Value, backward_order: Sequence[Value]) -> list[tuple[Value, Value]]:
    """Every (node, output) pair where `node` is processed before an `output` that uses it.

    A backward order is safe when each node comes after every output that has it as a
    parent (otherwise it would pass on an incomplete gradient). Returns ``[]`` for a safe order.

    Raises:
        ValueError: if `backward_order` is not a permutation of the values reachable from `root`.
    """
    order = walk(root)
    if len(backward_order) != len(order) or {id(node) for node in backward_order} != {id(node) for node in order}:
        raise ValueError("the order must list every value reachable from the root exactly once")
    position = {id(node): i for i, node in enumerate(backward_order)}
    users: dict[int, list[Value]] = {}  # for each node, the outputs that have it as a parent, in walk order
    for output in order:
        for link in output.parents:
            outputs = users.setdefault(id(link.value), [])
            if not outputs or outputs[-1] is not output:  # w * w: one output, two links
                outputs.append(output)
    violations = []
    for node in backward_order:
        violations += [
            (node, output) for output in users.get(id(node), ()) if position[id(output)] > position[id(node)]
        ]
    return violations


def show_dependency_order(root: Value, wrong_order: Sequence[Value], *, max_values: int = MAX_VALUES) -> HtmlFragment:
    """The dependency-first order, its reverse (backward's processing order) and `wrong_order`.

    Each row is checked with `order_violations`, so the figure cannot show a "safe" order that is not.
    In `wrong_order`, which must violate a dependency, the first violation is marked: the node processed
    too early and the output that had not yet sent it its contribution.

    Args:
        root: the loss.
        wrong_order: a processing order to show as wrong.
        max_values: the most values it shows.
    """
    order = walk(root, max_values=max_values, caller="show_dependency_order")
    name = {node: short(text) for node, text in names(root, order).items()}
    reverse = order[::-1]
    assert not order_violations(root, reverse), "the walk's order reversed must be safe"
    violations = order_violations(root, wrong_order)
    if not violations:
        raise ValueError("show_dependency_order: the wrong_order you passed violates no dependency: it is a safe order")
    early, output = violations[0]
    early_name, output_name = escape(name[early]), escape(name[output])

    def row(key: str, title: str, nodes: Sequence[Value], note: str, bad: Sequence[int] = ()) -> str:
        mark = (
            '<span class="gg-bad" aria-label="unsafe">✗</span>'
            if bad
            else '<span class="gg-ok" aria-label="safe">✓</span>'
        )
        return (
            f'<div class="gg-order-row" data-gg-order="{key}"><span class="gg-order-name">{title}</span>'
            f'{chips([name[node] for node in nodes], bad=bad)} {mark}<span class="gg-order-note{" gg-bad" if bad else ""}">{note}</span></div>'
        )

    rows = (
        row("dependency-first", "dependency-first", order, "every value appears after all of its parents")
        + row("backward", "backward processes", reverse, "the reverse: every value after all the outputs that use it")
        + row(
            "wrong",
            "a wrong order",
            wrong_order,
            f"{early_name} is processed before {output_name}, which uses it: {early_name} would pass on its gradient "
            f"before the contribution from {output_name} has been added to {early_name}.grad",
            bad=[i for i, node in enumerate(wrong_order) if node in (early, output)],
        )
    )
    return HtmlFragment(f'<div class="gg gg-order" data-gg-violations="{len(violations)}">{rows}</div>')


def show_order_walk(root: Value, *, max_values: int = MAX_WALK_VALUES) -> HtmlFragment:
    """The ordering walk from `root`, one line per event of `walk`.

    A leaf reads ``visit(w) → w has no parents → append w``; a value with parents opens
    ``visit(m):``, its parents' walks are indented below it, and it closes with
    ``both parents are in the order → append m``; an already appended value reads
    ``w is already in the order → skip``.

    Raises:
        ValueError: for a graph of more than `max_values` values (default 300): the indented text grows with values × depth.
    """
    events: list = []
    order = walk(root, events, max_values=max_values, caller="show_order_walk")
    shown = {node: short(text) for node, text in names(root, order).items()}
    lines = []
    for kind, node, depth in events:
        indent, name = "  " * depth, escape(shown[node])
        if kind == "skip":
            lines.append(f'{indent}<span class="gg-skip">{name} is already in the order → skip</span>')
        elif not node.parents:  # a leaf: its visit and its append (the next event) on one line
            if kind == "enter":
                lines.append(
                    f'{indent}visit({name}) → {name} has no parents → <span class="gg-append">append {name}</span>'
                )
        elif kind == "enter":
            lines.append(f"{indent}visit({name}):")
        else:
            count = len(node.parents)
            ready = {1: "its parent is", 2: "both parents are"}.get(count, f"all {count} parents are")
            lines.append(f'{indent}  {ready} in the order → <span class="gg-append">append {name}</span>')
    return HtmlFragment(f'<pre class="gg gg-walk" data-gg-events="{len(events)}">' + "\n".join(lines) + "</pre>")

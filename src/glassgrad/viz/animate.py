"""Step-through players: the ordering walk and the backward pass, replayed on a `draw_graph` figure.

Python computes every frame at build time from the engine's own traces (the walk's events, the
steps `backward` returned); `glassgrad.viz.players` holds the frame format and the player's markup.
Ids are the figure's (``p-node-i``, ``p-edge-i-k``, ``p-op-i``) plus ``p-node-i-grad``, ``p-order-j``, ``p-schedule-j``, ``p-path``, ``p-card`` and ``p-step-n``
(trace card n). Without JavaScript the static HTML is complete: both order lists, the whole trace.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from glassgrad.viz.cards import show_backward_steps, step_card
from glassgrad.viz.graph import MAX_LINKS, MAX_VALUES, GraphFigure, draw_graph
from glassgrad.viz.html import chips, escape, fmt, short
from glassgrad.viz.players import (
    PlayerFragment,
    frame,
    frames_json,
    link_step_frames,
    player,
    script_text,
    side_by_side,
    start_frame,
)
from glassgrad.viz.walking import GraphIds, Value, graph_fingerprint, names, walk

__all__ = [  # the players' markup lives in glassgrad.viz.players; these names stay importable from here
    "PlayerFragment",
    "animate_backward",
    "animate_order",
    "frames_json",
    "script_text",
    "side_by_side",
]

ORDER_MAX_VALUES = 100  # each frame of animate_order marks every value: its HTML grows with values² (about 3 MB here)


def _event_text(event: Any, shown: str, via: str, placed: int) -> str:
    """What the player says for one event of the walk on the node named `shown`, reached `via` a link;
    `placed` values are in the list after it."""
    if event.kind == "enter" and event.depth == 0:
        return f"Visit {shown}, the root: follow its saved links in stored order."
    if event.kind == "enter":
        return f"Follow {via} to {shown}: visit it{', then its own parents first' if event.node.parents else ''}."
    if event.kind == "skip":
        return f"Follow {via} to {shown}: already in the list (seen), so skip it."
    reason = f"All parents of {shown} are in the list" if event.node.parents else "It has no parents"
    return f"{reason}: append {shown} (position {placed})."


def order_frames(root: Value, ids: GraphIds) -> list[dict[str, Any]]:
    """A "Start" frame, one frame per event of `walk` from `root`, then "Reverse" (the backward schedule)."""
    events: list[Any] = []
    walk(root, events)
    p, count, name = ids.prefix, len(ids.order), {node: short(text) for node, text in names(root, ids.order).items()}
    path: list[Value] = []  # the open visits, outermost first
    order: list[Value] = []
    next_link: dict[Value, int] = defaultdict(int)  # per open visit, how many links the walk has followed

    def marks_now(reversed_: bool = False) -> dict[str, list[str]]:  # the state so far; chips wait their turn
        marks: dict[str, list[str]] = defaultdict(list)
        for node in order:
            marks[ids.node_id(node)].append("gg-done")
        for node in path:
            marks[ids.node_id(node)].append("gg-on-path")
        for j in range(len(order), count):
            marks[f"{p}-order-{j}"].append("gg-pending")
        for j in range(0 if reversed_ else count):
            marks[f"{p}-schedule-{j}"].append("gg-pending")
        return marks

    def path_text() -> dict[str, str]:
        return {f"{p}-path": " → ".join(escape(name[node]) for node in path) or "none"}

    frames = [
        frame(
            "Start", f"Start at {name[root]}: nothing is visited yet and the list is empty.", marks_now(), path_text()
        )
    ]
    for number, event in enumerate(events, start=1):
        node, via, edge = event.node, "", None
        if event.kind != "append" and event.depth > 0:  # following the innermost open visit's next link
            output = path[event.depth - 1]
            k = next_link[output]
            next_link[output] += 1
            edge, via = ids.edge_id(output, k), f"{name[output]}.parents[{k}]"
        if event.kind == "enter":
            path.append(node)
        elif event.kind == "append":
            path.pop()
            order.append(node)
        text = _event_text(event, name[node], via, len(order))
        marks = marks_now()
        css = {"enter": "gg-current", "skip": "gg-skipped", "append": "gg-appended"}[event.kind]
        marks[ids.node_id(node)].append(css)
        if event.kind != "enter":
            marks[f"{p}-order-{order.index(node)}"].append(css)
        if edge:
            marks[edge] = marks[ids.op_id(output)] = ["gg-active"]
        frames.append(frame(f"Event {number} of {len(events)}", text, marks, path_text(), edge or ids.node_id(node)))
    schedule = " → ".join(name[node] for node in reversed(order))
    frames.append(frame("Reverse", f"Reverse the list: backward processes {schedule}.", marks_now(True), {}))
    return frames


def backward_frames(root: Value, steps: Sequence[Any], ids: GraphIds, trace: bool = True) -> list[dict[str, Any]]:
    """Start (grads "—"), Seed (0, the root 1), then one frame per step of `backward(root)`'s log (and its trace card)."""
    p, name = ids.prefix, {node: short(text) for node, text in names(root, ids.order).items()}
    grad = {node: f"{ids.node_id(node)}-grad" for node in ids.order}

    def rows(n: int) -> dict[str, list[str]]:  # trace card n is the current one, if the player shows the trace
        return {f"{p}-step-{n}": ["gg-current"]} if trace else {}

    frames = [
        start_frame(
            "Before backward: the forward pass saved every local derivative; no gradient yet.",
            list(grad.values()),
            "grad",
        ),
        frame(
            "Seed",
            f"Clear every .grad to 0, then seed {name[root]}.grad = ∂{name[root]}/∂{name[root]} = 1.",
            {ids.node_id(root): ["gg-current"], **rows(0)},
            {**{grad[node]: f"grad {fmt(0.0)}" for node in ids.order}, grad[root]: f"grad {fmt(1.0)}"},
            ids.node_id(root),
        ),
    ]

    def describe(number: int, step: Any) -> tuple[str, dict[str, str]]:
        out, parent = name[step.output], name[step.parent]
        text = (
            f"{out} → {parent}: g{out} = {fmt(step.upstream)} × ∂{out}/∂{parent} = {fmt(step.local)} "
            f"gives {fmt(step.contribution)}; {parent}.grad goes from {fmt(step.before)} to {fmt(step.after)}."
        )
        return text, {grad[step.parent]: f"grad {fmt(step.after)}", f"{p}-card": step_card(number, step, out, parent)}

    return frames + link_step_frames(steps, ids, describe, current="output", rows=rows)


def animate_order(
    root: Value,
    *,
    title: str = "Dependency-safe ordering, step by step",
    min_width: int | None = None,
    id_prefix: str | None = None,
    max_values: int = ORDER_MAX_VALUES,
    rankdir: str = "LR",
) -> PlayerFragment:
    """A player replaying the ordering walk (`walk`) on the graph of `root`.

    Each step shows the node visited (and the open visits), skipped (already in the list) or
    appended; the dependency-first list grows under the graph and is finally reversed into the
    backward schedule. `title` heads the player; `min_width`, `rankdir` and `id_prefix` (default: derived
    from the graph) are `draw_graph`'s.

    Raises:
        ValueError: for a graph of more than `max_values` values (default 100: every frame marks every
            value) or beyond `draw_graph`'s limits.
    """
    options = {name: value for name, value in locals().items() if name not in ("root", "id_prefix")}  # the ids' source
    order = walk(root, max_values=max_values, max_links=MAX_LINKS, caller="animate_order")
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(order, False, options, "ggo")
    figure = draw_graph(root, show_grad=False, min_width=min_width, id_prefix=prefix, rankdir=rankdir)
    ids = figure.ids
    shown = [short(name) for name in names(root, order).values()]
    lists = (
        '<div class="gg-order">'
        '<div class="gg-order-row gg-js" hidden><span class="gg-order-name">Open visits:</span>'
        f'<span class="gg-player-path" id="{prefix}-path"></span></div>'
        '<div class="gg-order-row gg-order-list"><span class="gg-order-name">Dependency-safe order:</span>'
        f"{chips(shown, f'{prefix}-order')}</div>"
        '<div class="gg-order-row gg-schedule-list"><span class="gg-order-name">Backward schedule:</span>'
        f"{chips(shown[::-1], f'{prefix}-schedule')}</div></div>"
    )
    body = f'<div class="gg-player-graph">{figure}</div>{lists}'
    return player("order", prefix, title, body, order_frames(root, ids), rankdir, graph_width=figure.widest)


def animate_backward(
    root: Value,
    steps: Sequence[Any] | None = None,
    *,
    title: str = "Backward pass, step by step",
    highlight_outputs: Sequence[str] = (),
    trace: bool = True,
    min_width: int | None = None,
    id_prefix: str | None = None,
    rankdir: str = "LR",
    graph: GraphFigure | None = None,
) -> PlayerFragment:
    """A player replaying one backward pass on the graph of `root`, edge by edge.

    The grads start empty ("—"), are cleared to 0 with the root seeded to 1, then each step highlights
    its edge, shows its trace card and moves the parent's grad in the graph. Under the graph, the whole
    trace (`show_backward_steps`). `title`, `min_width` and `id_prefix` are as for `animate_order`.

    Args:
        root: the loss; its graph is drawn with the gradients as they are after `steps`.
        steps: the step log `backward(root)` returned (either engine's); ``None`` runs `glassgrad.backward` now.
        highlight_outputs: display names whose trace cards are highlighted (see [show_backward_steps][glassgrad.viz.show_backward_steps]).
        trace: include the complete trace under the graph (``False`` when the page shows it elsewhere).
        rankdir: `draw_graph`'s layout, ``"LR"`` or ``"TB"``.
        graph: a `draw_graph` figure of `root` already on the page (after backward): the player draws no
            graph of its own but plays on that one, leaving it as drawn until the first step, and
            lights the current card of the trace drawn with ``show_backward_steps(steps, graph=graph)``.

    Raises:
        ValueError: if `steps` were not logged from the graph of `root`.
    """
    options = {name: value for name, value in locals().items() if name not in ("root", "id_prefix")}  # the ids' source
    if steps is None:
        from glassgrad.autograd import backward

        steps = backward(root)
    steps = options["steps"] = list(steps)  # an iterator is read once
    if steps and steps[0].output is not root:
        raise ValueError("the steps were not logged by backward(root): their first output is not root")
    if graph is not None:  # play on a figure the page already shows, and on its trace cards
        frames = backward_frames(root, steps, graph.ids, trace=True)
        body = f'<div class="gg-player-card gg-js" id="{graph.prefix}-card" hidden></div>'
        status = "After backward, as drawn: step forward to replay it from the start, one link at a time."
        return player("backward", graph.prefix, title, body, frames, graph=graph.prefix, status=status)
    order = walk(root, max_values=MAX_VALUES, max_links=MAX_LINKS, caller="animate_backward")
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(order, True, options, "ggb")
    figure = draw_graph(root, show_grad=True, min_width=min_width, id_prefix=prefix, rankdir=rankdir)
    frames = backward_frames(root, steps, figure.ids, trace)
    body = (
        f'<div class="gg-player-graph">{figure}</div><div class="gg-player-card gg-js" id="{prefix}-card" hidden></div>'
    )
    if trace:
        body += f'<div class="gg-player-trace">{show_backward_steps(steps, highlight_outputs=highlight_outputs, graph=figure)}</div>'
    return player("backward", prefix, title, body, frames, rankdir, graph_width=figure.widest)

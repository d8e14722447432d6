"""Step-through players: the ordering walk and the backward pass, replayed on a `draw_graph` figure.

Python computes every frame at build time from the engine's own traces (the walk's events, the
steps `backward` returned) and embeds them in ``<script type="application/json" class="gg-frames">``;
``glassgrad.js`` only applies them. A frame is ``{"label", "text", "marks", "texts", "focus"}``: the
status line reads ``label. text``; ``marks`` maps element ids to the classes they carry in this frame
only; ``texts`` maps element ids to their HTML from this frame on (folded from frame 0); ``focus`` is
the element kept in view when the graph scrolls sideways. Ids are the figure's (``p-node-i``, ``p-edge-i-k``,
``p-op-i``) plus ``p-node-i-grad``, ``p-order-j``, ``p-schedule-j``, ``p-path``, ``p-card`` and ``p-step-n``
(trace card n). Without JavaScript the static HTML is complete: both order lists, the whole trace.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from importlib import resources
from typing import Any

from glassgrad.viz.cards import show_backward_steps, step_card
from glassgrad.viz.graph import (
    HIDDEN,
    MAX_LINKS,
    MAX_VALUES,
    GraphFigure,
    GraphIds,
    Value,
    chips,
    draw_graph,
    graph_fingerprint,
    names,
    walk,
)
from glassgrad.viz.html import _CONTROL, HtmlFragment, escape, fmt, short

SPEEDS = (0.5, 1.0, 2.0, 4.0)  # the speed menu (1 = one step every 1.2 s)
ORDER_MAX_VALUES = 100  # each frame of animate_order marks every value: its HTML grows with values² (about 3 MB here)

# Characters that could end the <script> element or break a JavaScript parser, as JSON escapes.
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def frames_json(data: Any) -> str:
    """`data` as JSON that is safe inside ``<script type="application/json">`` (``json.loads`` gives it back).

    Examples:
        >>> frames_json({"label": "</script><b>&"})
        '{"label": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))
    for character, escaped in _JSON_ESCAPES.items():
        text = text.replace(character, escaped)
    return text.translate(_CONTROL)  # lone surrogates and U+FFFE/U+FFFF as escape() shows them (JSON escaped the rest)


def _frame(
    label: str, text: str, marks: dict[str, list[str]], texts: dict[str, str], focus: str | None = None
) -> dict[str, Any]:
    return {
        "label": label,
        "text": text,
        "marks": {i: " ".join(c) for i, c in marks.items()},
        "texts": texts,
        "focus": focus,
    }


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
        _frame(
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
            if event.depth == 0:
                text = f"Visit {name[node]}, the root: follow its saved links in stored order."
            else:
                text = (
                    f"Follow {via} to {name[node]}: visit it{', then its own parents first' if node.parents else ''}."
                )
        elif event.kind == "skip":
            text = f"Follow {via} to {name[node]}: already in the list (seen), so skip it."
        else:
            path.pop()
            order.append(node)
            reason = f"All parents of {name[node]} are in the list" if node.parents else "It has no parents"
            text = f"{reason}: append {name[node]} (position {len(order)})."
        marks = marks_now()
        css = {"enter": "gg-current", "skip": "gg-skipped", "append": "gg-appended"}[event.kind]
        marks[ids.node_id(node)].append(css)
        if event.kind != "enter":
            marks[f"{p}-order-{order.index(node)}"].append(css)
        if edge:
            marks[edge] = marks[ids.op_id(output)] = ["gg-active"]
        frames.append(_frame(f"Event {number} of {len(events)}", text, marks, path_text(), edge or ids.node_id(node)))
    schedule = " → ".join(name[node] for node in reversed(order))
    frames.append(_frame("Reverse", f"Reverse the list: backward processes {schedule}.", marks_now(True), {}))
    return frames


def backward_frames(root: Value, steps: Sequence[Any], ids: GraphIds, trace: bool = True) -> list[dict[str, Any]]:
    """Start (grads "—"), Seed (0, the root 1), then one frame per step of `backward(root)`'s log (and its trace card)."""
    p, name = ids.prefix, {node: short(text) for node, text in names(root, ids.order).items()}
    grad = {node: f"{ids.node_id(node)}-grad" for node in ids.order}

    def rows(n: int) -> dict[str, list[str]]:  # trace card n is the current one, if the player shows the trace
        return {f"{p}-step-{n}": ["gg-current"]} if trace else {}

    frames = [
        _frame(
            "Start",
            "Before backward: the forward pass saved every local derivative; no gradient yet.",
            {grad[node]: ["gg-t-empty"] for node in ids.order},
            {grad[node]: f"grad {HIDDEN}" for node in ids.order},
        ),
        _frame(
            "Seed",
            f"Clear every .grad to 0, then seed {name[root]}.grad = ∂{name[root]}/∂{name[root]} = 1.",
            {ids.node_id(root): ["gg-current"], **rows(0)},
            {**{grad[node]: f"grad {fmt(0.0)}" for node in ids.order}, grad[root]: f"grad {fmt(1.0)}"},
            ids.node_id(root),
        ),
    ]
    used: dict[Value, int] = defaultdict(int)
    for number, step in enumerate(steps, start=1):
        k = used[step.output]  # an output's steps come in the order of its links
        used[step.output] += 1
        if k >= len(step.output.parents) or step.output.parents[k].value is not step.parent:
            raise ValueError(
                "the steps do not follow the stored links of their outputs (were they logged from this graph?)"
            )
        out, parent, edge = name[step.output], name[step.parent], ids.edge_id(step.output, k)
        marks = {
            edge: ["gg-active"],
            ids.op_id(step.output): ["gg-active"],
            ids.node_id(step.output): ["gg-current"],
            ids.node_id(step.parent): ["gg-appended"],
            f"{p}-card": ["gg-shown"],
            **rows(number),
        }
        text = (
            f"{out} → {parent}: g{out} = {fmt(step.upstream)} × ∂{out}/∂{parent} = {fmt(step.local)} "
            f"gives {fmt(step.contribution)}; {parent}.grad goes from {fmt(step.before)} to {fmt(step.after)}."
        )
        frames.append(
            _frame(
                f"Step {number} of {len(steps)}",
                text,
                marks,
                {grad[step.parent]: f"grad {fmt(step.after)}", f"{p}-card": step_card(number, step, out, parent)},
                edge,
            )
        )
    return frames


class PlayerFragment(HtmlFragment):
    """A player's markup `html` (``str(player)``, for the site, which links script and stylesheet) plus its `data` (the frames).

    ``_repr_html_()`` inlines both for Jupyter (the script is guarded: several players define it once).
    """

    __slots__ = ("data",)

    def __init__(self, html: str, data: dict[str, Any]) -> None:
        super().__init__(html)
        self.data = data

    def _repr_html_(self) -> str:
        css = resources.files("glassgrad.viz").joinpath("animate.css").read_text(encoding="utf-8")
        return f"<style>\n{css}</style>{self.html}<script>\n{script_text()}</script>"


def script_text() -> str:
    """The player script (`glassgrad/viz/glassgrad.js`), safe to inline in a ``<script>``."""
    text = resources.files("glassgrad.viz").joinpath("glassgrad.js").read_text(encoding="utf-8")
    return text.replace("</", "<\\/")  # cannot end its own <script> element


def _player(
    kind: str,
    prefix: str,
    title: str,
    body: str,
    frames: list[dict[str, Any]],
    rankdir: str = "LR",
    graph: str | None = None,
    status: str = "",
    graph_width: int | None = None,
) -> PlayerFragment:
    """The player markup: title, controls and status (hidden until the script runs), `body`, frames.

    A ``"TB"`` player puts its graph beside the controls where there is room, in a column as wide as the graph
    is shown at most (`graph_width`, CSS px) while the controls keep 18em; `graph` is the id of a figure
    elsewhere on the page that the player plays on (it then has no full-screen button: it holds no graph).
    """
    layout = f' data-gg-rankdir="{rankdir}"' if graph is None else f' data-gg-graph="{escape(graph)}"'
    if graph_width is not None:
        layout += f' style="--gg-player-graph: {graph_width}px"'
    fullscreen = (
        ""
        if graph
        else '<button type="button" data-gg-action="fullscreen" aria-pressed="false">Open full screen</button>'
    )
    speeds = "".join(f'<option value="{s:g}"{" selected" if s == 1 else ""}>{s:g}×</option>' for s in SPEEDS)
    data = {"kind": kind, "frames": frames}
    return PlayerFragment(
        f'<section class="gg gg-player" id="{prefix}-player" data-gg-player="{kind}"{layout} tabindex="0" '
        f'aria-label="{escape(title)} (step-through animation; arrow keys step, space plays)">'
        f'<p class="gg-player-title">{escape(title)}</p>'
        '<div class="gg-player-controls gg-js" role="toolbar" aria-label="Animation controls" hidden>'
        '<button type="button" data-gg-action="reset">Reset</button>'
        '<button type="button" data-gg-action="back" aria-label="Step back">◀ Back</button>'
        '<button type="button" data-gg-action="play" aria-pressed="false">Play</button>'
        '<button type="button" data-gg-action="forward" aria-label="Step forward">Forward ▶</button>'
        f'<label class="gg-player-speed-label">Speed <select class="gg-player-speed">{speeds}</select></label>'
        f"{fullscreen}</div>"
        f'<p class="gg-player-status gg-js" hidden>{escape(status)}</p>{body}'
        f'<script type="application/json" class="gg-frames">{frames_json(data)}</script></section>',
        data,
    )


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
    return _player("order", prefix, title, body, order_frames(root, ids), rankdir, graph_width=figure.widest)


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
        return _player("backward", graph.prefix, title, body, frames, graph=graph.prefix, status=status)
    order = walk(root, max_values=MAX_VALUES, max_links=MAX_LINKS, caller="animate_backward")
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(order, True, options, "ggb")
    figure = draw_graph(root, show_grad=True, min_width=min_width, id_prefix=prefix, rankdir=rankdir)
    frames = backward_frames(root, steps, figure.ids, trace)
    body = (
        f'<div class="gg-player-graph">{figure}</div><div class="gg-player-card gg-js" id="{prefix}-card" hidden></div>'
    )
    if trace:
        body += f'<div class="gg-player-trace">{show_backward_steps(steps, highlight_outputs=highlight_outputs, graph=figure)}</div>'
    return _player("backward", prefix, title, body, frames, rankdir, graph_width=figure.widest)


def side_by_side(*players: PlayerFragment) -> PlayerFragment:
    """Players in columns on wide screens, stacked on phones; ``.data["players"]`` holds each one's data."""
    cells = "".join(f'<div class="gg-side-cell">{player}</div>' for player in players)
    return PlayerFragment(
        f'<div class="gg gg-side-by-side">{cells}</div>', {"kind": "group", "players": [p.data for p in players]}
    )

"""Step-through animations: the ordering walk and the backward pass, replayed on a `draw_graph` figure.

Every frame is computed here, at build time, from the engine's own traces
(the ordering walk's events and the step log `backward` returned), and embedded in the page as JSON inside
``<script type="application/json" class="gg-frames">``. The browser script
(``glassgrad.js``) only moves between frames: it toggles classes on the graph's elements
(addressed by `draw_graph`'s stable ids) and copies the pre-formatted numbers into the SVG.

The static HTML is complete without JavaScript: the order player lists the whole
dependency-first order and the backward schedule, the backward player holds the whole trace
(`show_backward_steps`). The controls, the step card and the status line appear only when the
script runs.

Frame format (``json.loads`` of the embedded script; ids are element ids of the figure):

* order player: ``{"kind": "order", "labels": {id: name}, "frames": [...]}``, one frame per
  event of `glassgrad.viz.graph.walk` between a ``"start"`` frame and a final ``"reverse"`` frame. Each frame has
  ``event`` (start/enter/skip/append/reverse), ``node`` (id or null), ``depth``, ``path``
  (ids of the open visits, outermost first), ``order`` (ids appended so far), ``edges``
  (the link being followed and its operation circle).
* backward player: ``{"kind": "backward", "labels": ..., "frames": [...]}``: a ``"start"``
  frame (every grad "—"), a ``"seed"`` frame (every grad 0, the root 1), then one ``"step"``
  frame per `BackwardStep` with ``step`` (its 1-based number, as in the trace cards),
  ``edge``, ``output``, ``parent``, the formatted ``upstream``, ``local``, ``contribution``,
  ``before``, ``after``, the exact floats in ``exact``, ``label`` ("Step 4 of 7"), ``text``
  and ``grads``: the grad texts that change at this frame (``{node id: text}``; the script
  folds them from frame 0). Every frame has ``event``, ``label`` and ``text``.
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Any, Sequence

from glassgrad.viz.cards import show_backward_steps
from glassgrad.viz.graph import HIDDEN, GraphIds, Value, chips, draw_graph, graph_fingerprint, walk
from glassgrad.viz.html import HtmlFragment, caption, escape, fmt

SPEEDS = (0.5, 1.0, 2.0, 4.0)
"""Playback speeds offered by the speed menu (1 = one step every 1.2 s)."""

# Characters that could end the <script> element or break a JavaScript parser, as JSON escapes.
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def frames_json(data: Any) -> str:
    """`data` as JSON that is safe inside ``<script type="application/json">``.

    ``<``, ``>``, ``&``, U+2028 and U+2029 are written as ``\\u`` escapes, so no label can close
    the script element or open a comment; ``json.loads`` of the result gives `data` back.

    Examples:
        >>> frames_json({"label": "</script><b>&"})
        '{"label": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))
    for character, escaped in _JSON_ESCAPES.items():
        text = text.replace(character, escaped)
    return text


def _exact(number: float) -> float | str:
    """A float for JSON: itself when finite (``repr`` round-trips), else its name (JSON has no NaN)."""
    return number if math.isfinite(number) else repr(number)


def _labels(ids: GraphIds) -> dict[str, str]:
    """Display name of every value box, by element id (the same captions the figure shows)."""
    return {ids.node_id(node): caption(node, i) for i, node in enumerate(ids.order)}


def order_frames(root: Value, ids: GraphIds) -> list[dict[str, Any]]:
    """The frames of the ordering walk from `root`, one per event of `walk`.

    A ``"start"`` frame comes first and a ``"reverse"`` frame (the list reversed into the
    backward schedule) last. `ids` addresses the figure the frames will be played on.
    """
    events: list[Any] = []
    walk(root, events)
    name = {node: caption(node, ids.index(node)) for node in ids.order}
    path: list[Value] = []  # the open visits, outermost first
    order: list[Value] = []
    next_link: dict[Value, int] = {}  # per open visit, how many of its links the walk has followed
    root_name = name[root]
    frames: list[dict[str, Any]] = [
        {
            "event": "start", "node": None, "depth": None, "path": [], "order": [], "edges": [],
            "label": "Start", "text": f"Start at {root_name}: nothing is visited yet and the list is empty.",
        }
    ]
    for number, event in enumerate(events, start=1):
        node = event.node
        edges: list[str] = []
        via = ""
        if event.kind in ("enter", "skip") and event.depth > 0:
            # The link being followed is the next unread link of the innermost open visit.
            output = path[event.depth - 1]
            k = next_link[output]
            next_link[output] = k + 1
            edges = [ids.edge_id(output, k), ids.op_id(output)]
            via = f"{name[output]}.parents[{k}]"
        if event.kind == "enter":
            path.append(node)
            next_link[node] = 0
            if event.depth == 0:
                text = f"Visit {name[node]}, the root: follow its saved links in stored order."
            elif node.parents:
                text = f"Follow {via} to {name[node]}: visit it, then its own parents first."
            else:
                text = f"Follow {via} to {name[node]}: visit it."
        elif event.kind == "skip":
            text = f"Follow {via} to {name[node]}: already in the list (seen), so skip it."
        else:
            path.pop()
            order.append(node)
            reason = "it has no parents" if not node.parents else f"all parents of {name[node]} are in the list"
            text = f"{reason[0].upper()}{reason[1:]}: append {name[node]} (position {len(order)})."
        frames.append(
            {
                "event": event.kind,
                "node": ids.node_id(node),
                "depth": event.depth,
                "path": [ids.node_id(open_node) for open_node in path],
                "order": [ids.node_id(done) for done in order],
                "edges": edges,
                "label": f"Event {number} of {len(events)}",
                "text": text,
            }
        )
    schedule = " → ".join(name[node] for node in reversed(order))
    frames.append(
        {
            "event": "reverse", "node": None, "depth": None, "path": [],
            "order": [ids.node_id(done) for done in order], "edges": [],
            "label": "Reverse", "text": f"Reverse the list: backward processes {schedule}.",
        }
    )
    return frames


def _link_indices(steps: Sequence[Any]) -> list[int]:
    """For each step, which of its output's links it used (steps of one output come in link order)."""
    used: dict[Value, int] = {}
    indices = []
    for step in steps:
        k = used.get(step.output, 0)
        used[step.output] = k + 1
        if k >= len(step.output.parents) or step.output.parents[k].value is not step.parent:
            raise ValueError("the steps do not follow the stored links of their outputs (were they logged from this graph?)")
        indices.append(k)
    return indices


def backward_frames(root: Value, steps: Sequence[Any], ids: GraphIds) -> list[dict[str, Any]]:
    """The frames of one backward pass from `root`: start ("—"), seed (0, root 1), then one per step.

    `steps` is the log `backward(root)` returned (either engine); every number comes from it, formatted
    with the figures' `fmt`.
    """
    name = {node: caption(node, ids.index(node)) for node in ids.order}
    root_id = ids.node_id(root)
    root_name = name[root]
    frames: list[dict[str, Any]] = [
        {
            "event": "start", "node": None,
            "grads": {ids.node_id(node): HIDDEN for node in ids.order},
            "label": "Start", "text": "Before backward: the forward pass saved every local derivative; no gradient yet.",
        },
        {
            "event": "seed", "node": root_id,
            "grads": {**{ids.node_id(node): fmt(0.0) for node in ids.order}, root_id: fmt(1.0)},
            "label": "Seed", "text": f"Clear every .grad to 0, then seed {root_name}.grad = ∂{root_name}/∂{root_name} = 1.",
        },
    ]
    for number, (step, k) in enumerate(zip(steps, _link_indices(steps)), start=1):
        out, parent = name[step.output], name[step.parent]
        upstream, local, contribution = fmt(step.upstream), fmt(step.local), fmt(step.contribution)
        before, after = fmt(step.before), fmt(step.after)
        frames.append(
            {
                "event": "step",
                "step": number,
                "edge": ids.edge_id(step.output, k),
                "edges": [ids.op_id(step.output)],
                "output": ids.node_id(step.output),
                "parent": ids.node_id(step.parent),
                "upstream": upstream,
                "local": local,
                "contribution": contribution,
                "before": before,
                "after": after,
                "exact": [_exact(x) for x in (step.upstream, step.local, step.contribution, step.before, step.after)],
                "grads": {ids.node_id(step.parent): after},
                "label": f"Step {number} of {len(steps)}",
                "text": (
                    f"{out} → {parent}: g{out} = {upstream} × ∂{out}/∂{parent} = {local} "
                    f"gives {contribution}; {parent}.grad goes from {before} to {after}."
                ),
            }
        )
    return frames


class PlayerFragment(HtmlFragment):
    """A step-through player: the markup (`str`) plus its frame data (``.data``).

    ``str(player)`` is for the site, which links ``glassgrad.js`` and ``animate.css`` on every
    page; ``_repr_html_()`` adds both inline for Jupyter (the script is guarded, so several
    players in one notebook define it once). The graph colours come from
    `glassgrad.viz.html.stylesheet`, displayed once per notebook as for every figure.
    """

    __slots__ = ("data",)

    def __init__(self, html: str, data: dict[str, Any]) -> None:
        super().__init__(html)
        self.data = data

    def _repr_html_(self) -> str:
        """The player's stylesheet, markup and script, for Jupyter (where no site links them)."""
        return f"<style>\n{_package_text('animate.css')}</style>{self.html}<script>\n{script_text()}</script>"


def _package_text(name: str) -> str:
    return resources.files("glassgrad.viz").joinpath(name).read_text(encoding="utf-8")


def script_text() -> str:
    """The player script (`glassgrad/viz/glassgrad.js`) as text, safe to inline in a ``<script>``."""
    return _package_text("glassgrad.js").replace("</", "<\\/")  # cannot end its own <script> element




def _controls() -> str:
    """The control bar (hidden until the script runs: without it the buttons could do nothing)."""
    speeds = "".join(
        f'<option value="{speed:g}"{" selected" if speed == 1 else ""}>{speed:g}×</option>' for speed in SPEEDS
    )
    return (
        '<div class="gg-player-controls" role="toolbar" aria-label="Animation controls" hidden>'
        '<button type="button" data-gg-action="reset">Reset</button>'
        '<button type="button" data-gg-action="back" aria-label="Step back">◀ Back</button>'
        '<button type="button" data-gg-action="play" aria-pressed="false">Play</button>'
        '<button type="button" data-gg-action="forward" aria-label="Step forward">Forward ▶</button>'
        f'<label class="gg-player-speed-label">Speed <select class="gg-player-speed">{speeds}</select></label>'
        '<button type="button" data-gg-action="fullscreen" aria-pressed="false">Open full screen</button>'
        "</div>"
    )


def _player(kind: str, prefix: str, title: str, body: str, data: dict[str, Any]) -> PlayerFragment:
    """Wrap a figure and its static content in the player markup with its frames."""
    return PlayerFragment(
        f'<section class="gg gg-player" id="{escape(prefix)}-player" data-gg-player="{escape(kind)}" '
        f'tabindex="0" aria-label="{escape(title)} (step-through animation; arrow keys step, space plays)">'
        f'<h4 class="gg-player-title">{escape(title)}</h4>'
        f"{_controls()}"
        '<p class="gg-player-status"></p>'
        f"{body}"
        f'<script type="application/json" class="gg-frames">{frames_json(data)}</script>'
        "</section>",
        data,
    )


def animate_order(
    root: Value,
    *,
    title: str = "Dependency-safe ordering, step by step",
    min_width: int | None = None,
    id_prefix: str | None = None,
) -> PlayerFragment:
    """A player replaying the ordering walk (`walk`) on the graph of `root`.

    Each step shows the node being visited (and the open visit path), a node skipped because
    it is already in the list, or a node appended; the dependency-first list grows under the
    graph and is finally reversed into the backward schedule. Without JavaScript both lists
    are shown complete.

    Args:
        root: the output whose graph is walked (usually the loss).
        title: the player's heading.
        min_width: the narrowest the graph is scaled to, in CSS pixels (see `draw_graph`); the
            player scrolls its graph to keep the current step in view.
        id_prefix: element id prefix of the figure (default: derived from the graph, distinct
            from the prefix of a plain `draw_graph` of it on the same page).
    """
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(walk(root), False, f"order|{min_width}", "ggo")
    figure = draw_graph(root, show_grad=False, min_width=min_width, id_prefix=prefix)
    ids = figure.ids
    frames = order_frames(root, ids)
    labels = _labels(ids)
    order_ids = frames[-1]["order"]
    names = [labels[node_id] for node_id in order_ids]
    lists = (
        '<div class="gg-order gg-player-lists">'
        '<div class="gg-order-row gg-player-path-row" hidden><span class="gg-order-name">Open visits:</span>'
        '<span class="gg-player-path"></span></div>'
        '<div class="gg-order-row gg-order-list"><span class="gg-order-name">Dependency-safe order:</span>'
        f"{chips(names, order_ids)}</div>"
        '<div class="gg-order-row gg-schedule-list"><span class="gg-order-name">Backward schedule:</span>'
        f"{chips(names[::-1], order_ids[::-1])}</div></div>"
    )
    data = {"kind": "order", "labels": labels, "frames": frames}
    return _player("order", prefix, title, f'<div class="gg-player-graph">{figure}</div>{lists}', data)


def animate_backward(
    root: Value,
    steps: Sequence[Any] | None = None,
    *,
    title: str = "Backward pass, step by step",
    highlight_outputs: Sequence[str] = (),
    trace: bool = True,
    min_width: int | None = None,
    id_prefix: str | None = None,
) -> PlayerFragment:
    """A player replaying one backward pass on the graph of `root`, edge by edge.

    Each step highlights the edge being processed, shows upstream × local = contribution in a
    card and moves the parent's grad in the graph from before to after; the first frames show
    the grads empty ("—"), then cleared to 0 with the root seeded to 1. The complete trace
    (`show_backward_steps`) sits under the graph, linked to it: pointing at (or focusing) a
    card highlights its edge and both nodes, pointing at an edge highlights its card.

    Args:
        root: the loss; its graph is drawn with the gradients as they are after `steps`.
        steps: the step log `backward(root)` returned (either engine's). ``None`` runs `glassgrad.backward`
            now (which sets every ``.grad`` reachable from `root`).
        title: the player's heading.
        highlight_outputs: display names whose trace cards are highlighted (see `show_backward_steps`).
        trace: include the complete trace under the graph (``False`` when the page shows it
            elsewhere; without JavaScript the player is then the graph after backward).
        min_width: the narrowest the graph is scaled to, in CSS pixels (see `draw_graph`).
        id_prefix: element id prefix of the figure (default: derived from the graph).

    Raises:
        ValueError: if `steps` were not logged from the graph of `root`.
    """
    if steps is None:
        from glassgrad.autograd import backward

        steps = backward(root)
    steps = list(steps)
    if steps and steps[0].output is not root:
        raise ValueError("the steps were not logged by backward(root): their first output is not root")
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(walk(root), True, f"backward|{min_width}", "ggb")
    figure = draw_graph(root, show_grad=True, min_width=min_width, id_prefix=prefix)
    ids = figure.ids
    frames = backward_frames(root, steps, ids)
    out, parent = '<span data-gg-slot="output"></span>', '<span data-gg-slot="parent"></span>'
    # The same notation as the trace cards; the script fills the slots from the current frame.
    card = (
        '<div class="gg-player-card" hidden>'
        '<p class="gg-player-note" data-gg-slot="note"></p>'
        f'<div class="gg-player-card-step"><div class="gg-step-head">{out} → {parent}</div>'
        f'<div class="gg-step-calc"><span class="gg-upstream">g<sub>{out}</sub> = <span data-gg-slot="upstream"></span></span>'
        f' × <span class="gg-local">∂{out}/∂{parent} = <span data-gg-slot="local"></span></span>'
        f' = <span class="gg-contribution">Δg<sub>{parent}</sub> = <span data-gg-slot="contribution"></span></span></div>'
        f'<div><code>{parent}.grad</code>: <span data-gg-slot="before"></span> → '
        '<span class="gg-grad" data-gg-slot="after"></span></div></div></div>'
    )
    cards = show_backward_steps(steps, highlight_outputs=highlight_outputs, graph=figure) if trace else ""
    data = {"kind": "backward", "labels": _labels(ids), "grad_prefix": "grad ", "frames": frames}
    body = f'<div class="gg-player-graph">{figure}</div>{card}'
    if trace:
        body += f'<div class="gg-player-trace">{cards}</div>'
    return _player("backward", prefix, title, body, data)


def side_by_side(*players: PlayerFragment) -> PlayerFragment:
    """Players in columns on wide screens, stacked on phones; ``.data["players"]`` holds each one's data."""
    cells = "".join(f'<div class="gg-side-cell">{player}</div>' for player in players)
    data = {"kind": "group", "players": [player.data for player in players]}
    return PlayerFragment(f'<div class="gg gg-side-by-side">{cells}</div>', data)

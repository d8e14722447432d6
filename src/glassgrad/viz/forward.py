"""Forward mode, shown: a player that pushes tangents along the saved links, the twin of `animate_backward`.

Frames as in `glassgrad.viz.animate` (computed here from `trace_jvp`'s log, applied by ``glassgrad.js``); the
graph is `draw_graph`'s, with each value's tangent in the slot where the backward player shows its grad.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from glassgrad.viz.graph import MAX_LINKS, MAX_VALUES, draw_graph
from glassgrad.viz.html import escape, fmt, short
from glassgrad.viz.players import PlayerFragment, frame, link_step_frames, player, start_frame
from glassgrad.viz.walking import GraphIds, Value, graph_fingerprint, names, walk


def _t(name: str) -> str:
    """``t`` with an escaped subscript: the tangent of `name`."""
    return f"t<sub>{escape(name)}</sub>"


def forward_card(number: int, step: Any, out: str, parent: str) -> str:
    """The inside of forward card `number` for the `ForwardStep` `step` along ``parent → out`` (display names).

    It reads ``n. parent → out``, then ``t_parent × ∂out/∂parent = Δt_out``, then the output's tangent ``before → after``.
    """
    return (
        f'<div class="gg-step-head"><span class="gg-step-no">{number}.</span>{escape(parent)} → {escape(out)}</div>'
        f'<div class="gg-step-calc"><span class="gg-upstream">{_t(parent)} = {escape(fmt(step.parent_tangent))}</span> × '
        f'<span class="gg-local">∂{escape(out)}/∂{escape(parent)} = {escape(fmt(step.local))}</span> = '
        f'<span class="gg-contribution">Δ{_t(out)} = {escape(fmt(step.contribution))}</span></div>'
        f"<div>tangent of <code>{escape(out)}</code>: {escape(fmt(step.before))} → "
        f'<span class="gg-grad">{escape(fmt(step.after))}</span></div>'
    )


def forward_frames(
    root: Value, steps: Sequence[Any], seeds: Mapping[Value, float], ids: GraphIds
) -> list[dict[str, Any]]:
    """Start (tangents "—"), Seed (each leaf's seed, 0 if none), then one frame per step of `trace_jvp(root, seeds)`.

    `steps` is that log; `ids` the `GraphIds` of the figure the frames play on (each value's tangent goes
    in its grad slot, ``{node id}-grad``).

    Raises:
        ValueError: if `steps` were not logged from the graph of `root`.
    """
    p, name = ids.prefix, {node: short(text) for node, text in names(root, ids.order).items()}
    slot = {node: f"{ids.node_id(node)}-grad" for node in ids.order}
    leaves = [node for node in ids.order if not node.parents]
    seeded = ", ".join(f"t{name[leaf]} = {fmt(seeds.get(leaf, 0.0))}" for leaf in leaves)
    frames = [
        start_frame(
            "After the forward pass: every local derivative is saved; no tangent yet.", list(slot.values()), "tangent"
        ),
        frame(
            "Seed",
            f"Seed the inputs with the direction they move in: {seeded}.",
            {ids.node_id(leaf): ["gg-current"] for leaf in leaves if seeds.get(leaf, 0.0)},
            {slot[leaf]: f"tangent {fmt(seeds.get(leaf, 0.0))}" for leaf in leaves},
            ids.node_id(leaves[0]) if leaves else None,
        ),
    ]

    def describe(number: int, step: Any) -> tuple[str, dict[str, str]]:
        out, parent = name[step.output], name[step.parent]
        text = (
            f"{parent} → {out}: t{parent} = {fmt(step.parent_tangent)} × ∂{out}/∂{parent} = {fmt(step.local)} "
            f"gives {fmt(step.contribution)}; the tangent of {out} goes from {fmt(step.before)} to {fmt(step.after)}."
        )
        card = forward_card(number, step, out, parent)
        return text, {slot[step.output]: f"tangent {fmt(step.after)}", f"{p}-card": card}

    return frames + link_step_frames(steps, ids, describe, current="parent")


def animate_forward(
    root: Value,
    seeds: Mapping[Value, float],
    steps: Sequence[Any] | None = None,
    *,
    title: str = "Forward mode, step by step",
    min_width: int | None = None,
    id_prefix: str | None = None,
    rankdir: str = "LR",
) -> PlayerFragment:
    """A player replaying one forward-mode pass on the graph of `root`, edge by edge: `animate_backward` read forwards.

    The tangents start empty ("—"); the leaves get their seeds (0 where `seeds` has none); then each step
    highlights its edge, shows its card (``t_parent × ∂out/∂parent``) and moves the output's tangent.

    Args:
        root: the output; its graph is drawn with every value's tangent after the pass.
        seeds: ``{leaf: tangent}``, as for `glassgrad.jvp`.
        steps: the log `glassgrad.trace_jvp(root, seeds)` returned; ``None`` runs it now.
        title: the player's heading.
        min_width: `draw_graph`'s.
        id_prefix: the figure's id prefix (default: derived from the graph and the seeds).
        rankdir: `draw_graph`'s layout, ``"LR"`` or ``"TB"``.

    Raises:
        ValueError: if `steps` were not logged from the graph of `root`.
    """
    options = {name: value for name, value in locals().items() if name not in ("root", "id_prefix")}  # the ids' source
    from glassgrad.forward_mode import trace_jvp

    log = trace_jvp(root, seeds) if steps is None else steps
    tangents = getattr(log, "tangents", None)
    if tangents is None:  # a plain list of steps: the tangents of the pass it logged
        tangents = dict(trace_jvp(root, seeds).tangents)
    steps = list(log)
    if options["steps"] is not None:
        options["steps"] = steps  # an iterator is read once
    order = walk(root, max_values=MAX_VALUES, max_links=MAX_LINKS, caller="animate_forward")
    prefix = id_prefix if id_prefix is not None else graph_fingerprint(order, False, options, "ggf")
    figure = draw_graph(root, tangents=tangents, min_width=min_width, id_prefix=prefix, rankdir=rankdir)
    frames = forward_frames(root, steps, seeds, figure.ids)
    body = (
        f'<div class="gg-player-graph">{figure}</div><div class="gg-player-card gg-js" id="{prefix}-card" hidden></div>'
    )
    return player("forward", prefix, title, body, frames, rankdir, graph_width=figure.widest)

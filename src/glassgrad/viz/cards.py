"""HTML cards: the backward trace, edge by edge, and the complete stored state of every Value."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from glassgrad.viz.graph import MAX_LINKS, MAX_VALUES, GraphFigure, Value, names, walk
from glassgrad.viz.html import HtmlFragment, escape, fmt, short


def _g(name: str) -> str:
    """``g`` with an escaped subscript: the gradient of the loss with respect to `name`."""
    return f"g<sub>{escape(name)}</sub>"


def _partial_text(top: str, bottom: str) -> str:
    """``∂top/∂bottom`` with both names escaped."""
    return f"∂{escape(top)}/∂{escape(bottom)}"


def step_card(number: int, step: Any, out: str, parent: str) -> str:
    """The inside of trace card `number`: ``n. out → parent``, ``g_out × ∂out/∂parent = Δg_parent``, ``before → after``."""
    return (
        f'<div class="gg-step-head"><span class="gg-step-no">{number}.</span>{escape(out)} → {escape(parent)}</div>'
        f'<div class="gg-step-calc"><span class="gg-upstream">{_g(out)} = {escape(fmt(step.upstream))}</span> × '
        f'<span class="gg-local">{_partial_text(out, parent)} = {escape(fmt(step.local))}</span> = '
        f'<span class="gg-contribution">Δ{_g(parent)} = {escape(fmt(step.contribution))}</span></div>'
        f"<div><code>{escape(parent)}.grad</code>: {escape(fmt(step.before))} → "
        f'<span class="gg-grad">{escape(fmt(step.after))}</span></div>'
    )


def show_backward_steps(
    steps: Sequence[Any],
    highlight_outputs: Collection[str] = (),
    graph: GraphFigure | None = None,
) -> HtmlFragment:
    """The backward trace: the seed line, then one card per reverse edge, in processing order.

    Card n reads ``n. output → parent``, then ``g_out × ∂out/∂parent = Δg_parent`` in the legend's
    colours, then ``parent.grad: before → after``. It carries ``data-gg-step`` (n), ``data-gg-output``
    and ``data-gg-parent`` (display names).

    Args:
        steps: the log returned by `backward(root)` (glassgrad or chapter 2's engine).
        highlight_outputs: display names of outputs whose cards are highlighted (``gg-highlight``).
        graph: the `draw_graph` figure of the same graph: card n then has the id ``{prefix}-step-{n}`` (the
            seed is step 0) and names its elements (``data-gg-edge``, ``data-gg-op``, ``data-gg-output-node``,
            ``data-gg-parent-node``).
    """
    steps = list(steps)
    if not steps:
        return HtmlFragment(
            '<div class="gg gg-trace"><p class="gg-seed">No saved links: nothing to propagate.</p></div>'
        )
    root = steps[0].output  # backward processes the root first
    if len(steps) > MAX_LINKS:
        raise ValueError(
            f"show_backward_steps: {len(steps):,} steps, more than {MAX_LINKS:,}; show the steps of a smaller graph"
        )
    order = walk(root, max_values=MAX_VALUES, max_links=MAX_LINKS, caller="show_backward_steps")
    shown = {node: short(text) for node, text in names(root, order).items()}
    highlighted = set(highlight_outputs)
    root_name = shown[root]
    step_id = (lambda n: f' id="{graph.prefix}-step-{n}"') if graph is not None else (lambda n: "")
    cards = [
        f'<p class="gg-seed"{step_id(0)} data-gg-step="0">Seed: <code>{escape(root_name)}.grad</code> = '
        f'{_partial_text(root_name, root_name)} = <span class="gg-grad">1</span></p>'
    ]
    link_number: dict[Value, int] = {}
    for number, step in enumerate(steps, start=1):
        out, parent = shown[step.output], shown[step.parent]
        k = link_number.get(step.output, 0)  # steps of one output come in its link order
        link_number[step.output] = k + 1
        attrs = f'{step_id(number)} data-gg-step="{number}" data-gg-output="{escape(out)}" data-gg-parent="{escape(parent)}"'
        if graph is not None:
            attrs += (
                f' data-gg-edge="{escape(graph.ids.edge_id(step.output, k))}"'
                f' data-gg-op="{escape(graph.ids.op_id(step.output))}"'
                f' data-gg-output-node="{escape(graph.ids.node_id(step.output))}"'
                f' data-gg-parent-node="{escape(graph.ids.node_id(step.parent))}"'
            )
        css = "gg-step gg-highlight" if out in highlighted else "gg-step"
        cards.append(f'<li class="{css}"{attrs}>{step_card(number, step, out, parent)}</li>')
    seed, rows = cards[0], "".join(cards[1:])
    return HtmlFragment(
        f'<div class="gg gg-trace" data-gg-steps="{len(steps)}">{seed}'
        f'<ol class="gg-steps" aria-label="Backward steps, in processing order">{rows}</ol></div>'
    )


def show_complete_state(root: Value) -> HtmlFragment:
    """One card per Value reachable from `root`, in dependency-first order, with every stored field.

    ``.label``, ``.data``, ``.grad`` (``= ∂L/∂x``), ``.op``, the number of saved links, then each
    ``.parents[k]``: ``.value`` and ``.local_grad`` (``= ∂m/∂w``). No field holds an edge contribution:
    it exists only during backward.
    """
    order = walk(root, max_values=MAX_VALUES, max_links=MAX_LINKS, caller="show_complete_state")
    shown = {node: short(text) for node, text in names(root, order).items()}
    root_name = shown[root]
    cards = []
    for i, node in enumerate(order):
        name = shown[node]
        count = len(node.parents)
        leaf = ' <span class="gg-tag">— input / leaf</span>' if not node.parents else ""
        fields = (
            f"<dt>.data</dt><dd>{escape(fmt(node.data))}</dd>"
            f'<dt>.grad</dt><dd><span class="gg-grad">{escape(fmt(node.grad))}</span> '
            f'<span class="gg-dim">(= {_partial_text(root_name, name)})</span></dd>'
            f"<dt>.op</dt><dd><code>{escape(short(repr(node.op)))}</code>{leaf}</dd>"
            f"<dt>.parents</dt><dd>{count} saved link{'' if count == 1 else 's'}</dd>"
        )
        if node.parents:
            links = "".join(
                f'<dl class="gg-link-card" data-gg-link="{k}">'
                f"<dt>.parents[{k}]</dt><dd>ParentLink(value={escape(shown[link.value])})</dd>"
                f"<dt>.value</dt><dd>{escape(shown[link.value])}</dd>"
                f'<dt>.local_grad</dt><dd><span class="gg-local">{escape(fmt(link.local_grad))}</span> '
                f'<span class="gg-dim">(= {_partial_text(name, shown[link.value])})</span></dd></dl>'
                for k, link in enumerate(node.parents)
            )
        else:
            links = '<p class="gg-link-card"><code>.parents = ()</code> <span class="gg-tag">— no direct operands</span></p>'
        cards.append(
            f'<section class="gg-card" data-gg-index="{i}" data-gg-label="{escape(name)}">'
            f'<div class="gg-card-head">Value {escape(name)} '
            f'<span class="gg-dim"><code>.label = {escape(short(repr(node.label)))}</code></span></div>'
            f"<dl>{fields}</dl>{links}</section>"
        )
    order_text = " → ".join(escape(shown[node]) for node in order)
    return HtmlFragment(
        f'<div class="gg gg-state" data-gg-values="{len(order)}">'
        f'<p class="gg-state-order">Dependency-first order: {order_text}</p>{"".join(cards)}</div>'
    )

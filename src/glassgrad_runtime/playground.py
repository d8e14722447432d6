"""What a Run shows: the graph of the program's ``L``, its backward replayed, its walk and every field."""

from __future__ import annotations

from typing import Any

from glassgrad.autograd import walk_parents
from glassgrad.exercises import kind_of
from glassgrad.exercises.drawable import VALUE_FIELDS, graph_problem
from glassgrad_runtime.program import safe_str
from glassgrad_runtime.result import Result

MAX_NODES = 40
"""The largest graph the playground draws (bigger drawings are unreadable and slow to lay out)."""


def _steps(given: Any, root: Any) -> list[Any] | None:
    """The backward steps the program kept (either engine's list of them) if they were logged from `root`."""
    if isinstance(given, (str, bytes)) or not hasattr(given, "__len__"):
        return None
    try:
        steps = list(given)
        if steps and all(hasattr(step, "contribution") for step in steps) and steps[0].output is root:
            return steps
    except BaseException:  # a sequence of the reader's that cannot be read: no replay
        return None
    return None


def run_result(namespace: dict[str, Any], prefix: str | None) -> Result:
    """``{"error": message}``, ``{"note": message}`` when there is no ``L`` to draw, or the HTML of the figures for the program's ``L`` and a one-line summary."""
    from glassgrad.viz import animate_backward, animate_order, draw_graph, fmt, show_complete_state
    from glassgrad.viz.html import caption, escape

    root: Any = namespace.get("L")
    if root is None:
        return {"note": "The program ran. To see a graph drawn, name the output L (for example L = square(e, 'L'))."}
    if not all(hasattr(root, name) for name in VALUE_FIELDS):
        return {"error": f"L is {kind_of(root)}, not a Value: the playground draws the graph of a Value."}
    problem = graph_problem(root, MAX_NODES)
    if problem:
        return {"error": problem}
    order = walk_parents(root)
    steps = _steps(namespace.get("steps"), root)
    leaves = [node for node in order if not node.parents]
    summary = f"{caption(root, order.index(root))} = {fmt(root.data)}; " + ", ".join(
        f"{caption(node, order.index(node))}.grad = {fmt(node.grad)}" for node in leaves
    )
    try:
        # Top to bottom, as the chapters draw their graphs: narrow enough for a phone, the text full size.
        if steps:
            figure = str(animate_backward(root, steps, id_prefix=prefix, rankdir="TB"))
        else:
            figure = str(draw_graph(root, id_prefix=prefix, rankdir="TB"))
        order_player = animate_order(root, id_prefix=f"{prefix}-order" if prefix else None, rankdir="TB")
        cards = str(show_complete_state(root))
    except BaseException as error:  # the reader's objects (a label's methods, ...): any error, KeyboardInterrupt too
        return {"error": f"The graph of L could not be drawn: {type(error).__name__}: {safe_str(error)}"}
    return {
        "summary": escape(summary),
        "figure": figure,
        "order": f"<details><summary>How backward chose its order: the walk, step by step</summary>{order_player}</details>",
        "cards": cards,
    }

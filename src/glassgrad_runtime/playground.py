"""What a Run shows: the graph of the program's ``L``, its backward replayed, its walk and every field."""

from __future__ import annotations

import math
from typing import Any

from glassgrad.autograd import CycleError, OrderEvent, walk_parents
from glassgrad.exercises import kind_of, safe_repr
from glassgrad_runtime.program import safe_str
from glassgrad_runtime.result import Result

MAX_NODES = 40
"""The largest graph the playground draws (bigger drawings are unreadable and slow to lay out)."""

VALUE_FIELDS = ("data", "grad", "label", "op", "parents")


def _is_number(thing: object) -> bool:
    return isinstance(thing, (int, float)) and not isinstance(thing, bool) and math.isfinite(thing)


def _name(node: Any, root: Any) -> str:
    label = getattr(node, "label", "")
    return label if isinstance(label, str) and label else "L" if node is root else "a value"


def _node_problem(node: Any, root: Any) -> str | None:
    """What in `node`'s own fields stops the graph from being drawn (None when nothing does), in words."""
    missing = [name for name in VALUE_FIELDS if not hasattr(node, name)]
    if missing:
        return f"{safe_repr(node)} is in the graph of L but is not a Value (it has no {', '.join(missing)})."
    for name in ("data", "grad"):
        number = getattr(node, name)
        if not _is_number(number):
            return f"{_name(node, root)}.{name} is {safe_repr(number)} ({kind_of(number)}), not a finite number."
    parents = node.parents
    if not isinstance(parents, (tuple, list)):
        return f"{_name(node, root)}.parents is {kind_of(parents)}; make it a tuple of ParentLinks."
    for k, link in enumerate(parents):
        if all(hasattr(link, name) for name in ("data", "parents")) and not hasattr(link, "value"):
            return (
                f"{_name(node, root)}.parents holds Values; wrap each in ParentLink(value, local_grad): "
                f"parents[{k}] is {_name(link, root)} itself."
            )
        if not (hasattr(link, "value") and hasattr(link, "local_grad")):
            return f"{_name(node, root)}.parents[{k}] is {safe_repr(link)}, not a ParentLink(value, local_grad)."
        if not _is_number(link.local_grad):
            local = link.local_grad
            return (
                f"The local derivative of {_name(node, root)}.parents[{k}] is {safe_repr(local)} "
                f"({kind_of(local)}), not a finite number."
            )
        if not all(hasattr(link.value, name) for name in VALUE_FIELDS):
            return _node_problem(link.value, root)  # (one level: a non-Value has no parents to follow)
    return None


def graph_problem(root: Any, limit: int = MAX_NODES) -> str | None:
    """What stops the graph of `root` from being drawn (None when nothing does), in words for the reader.

    The graph is walked once, by glassgrad's public walk (`glassgrad.autograd.walk_parents`): a graph of more
    than `limit` values is named with its size, a cycle named. Then each node the walk reached has its
    fields read: a link that is not a ``ParentLink``, a number that is not one; a field whose reading raises
    (anything, KeyboardInterrupt too) is named too.
    """
    events: list[OrderEvent] = []
    walked = False
    try:
        try:
            nodes = walk_parents(root, events)
        except CycleError as error:
            message = str(error)
            return f"{message[:1].upper()}{message[1:]}: a node cannot be its own ancestor."
        except BaseException:  # a link the walk cannot follow: one of the nodes it reached says which
            nodes = [root, *(event.node for event in events if event.kind == "enter" and event.node is not root)]
        else:
            walked = True
            if len(nodes) > limit:  # too big to draw: no need to read every field
                return f"The graph of L has {len(nodes)} values; the playground draws at most {limit}."
        for node in nodes:
            problem = _node_problem(node, root)
            if problem:
                return problem
    except BaseException as error:  # a property of the reader's class raised while being read
        return f"The graph of L could not be read: {type(error).__name__} while reading a node's fields."
    if not walked:
        return "The graph of L could not be read: a link could not be followed."
    return None


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
    problem = graph_problem(root)
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

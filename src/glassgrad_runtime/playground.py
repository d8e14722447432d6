"""What a Run shows: the graph of the program's ``L``, its backward replayed, its walk and every field."""

from __future__ import annotations

import math
from typing import Any

from glassgrad.exercises import kind_of, safe_repr

MAX_NODES = 40
"""The largest graph the playground draws (bigger drawings are unreadable and slow to lay out)."""

VALUE_FIELDS = ("data", "grad", "label", "op", "parents")


def _is_number(thing: object) -> bool:
    return isinstance(thing, (int, float)) and not isinstance(thing, bool) and math.isfinite(thing)


def _name(node: Any, root: Any) -> str:
    label = getattr(node, "label", "")
    return label if isinstance(label, str) and label else "L" if node is root else "a value"


def _reachable(root: Any) -> int | None:
    """How many values the graph of `root` has (None when a link cannot be followed): a quick walk, ids only."""
    seen = {id(root)}
    stack = [root]
    try:
        while stack:
            parents = getattr(stack.pop(), "parents", None)
            if not isinstance(parents, (tuple, list)):
                return None
            for link in parents:
                parent = getattr(link, "value", None)
                if parent is None:
                    return None
                if id(parent) not in seen:
                    seen.add(id(parent))
                    stack.append(parent)
    except BaseException:  # a property of the reader's class raised: graph_problem names it
        return None
    return len(seen)


def graph_problem(root: Any, limit: int = MAX_NODES) -> str | None:
    """What stops the graph of `root` from being drawn (None when nothing does), in words for the reader.

    A graph of more than `limit` values is named after a quick count. Otherwise each node's fields are read
    once, with its own stack (a graph of any depth): a link that is not a ``ParentLink``, a number that is
    not one; a field whose reading raises is named too. A cycle is left to `glassgrad.viz.graph.walk`.
    """
    count = _reachable(root)
    if count is not None and count > limit:  # too big to draw: no need to read every field
        return f"The graph of L has {count} values; the playground draws at most {limit}."
    seen: dict[int, Any] = {id(root): root}
    stack = [root]
    try:
        while stack:
            node = stack.pop()
            missing = [name for name in VALUE_FIELDS if not hasattr(node, name)]
            if missing:
                return f"{safe_repr(node)} is in the graph of L but is not a Value (it has no {', '.join(missing)})."
            for name in ("data", "grad"):
                number = getattr(node, name)
                if not _is_number(number):
                    return (
                        f"{_name(node, root)}.{name} is {safe_repr(number)} ({kind_of(number)}), not a finite number."
                    )
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
                    return (
                        f"{_name(node, root)}.parents[{k}] is {safe_repr(link)}, not a ParentLink(value, local_grad)."
                    )
                if not _is_number(link.local_grad):
                    local = link.local_grad
                    return (
                        f"The local derivative of {_name(node, root)}.parents[{k}] is {safe_repr(local)} "
                        f"({kind_of(local)}), not a finite number."
                    )
                parent = link.value
                if id(parent) not in seen:
                    seen[id(parent)] = parent
                    stack.append(parent)
    except BaseException as error:  # a property of the reader's class raised while being read
        return f"The graph of L could not be read: {type(error).__name__} while reading a node's fields."
    if len(seen) > limit:
        return f"The graph of L has {len(seen)} values; the playground draws at most {limit}."
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


def run_result(namespace: dict[str, Any], prefix: str | None) -> dict[str, str]:
    """``{"error": message}``, ``{"note": message}`` when there is no ``L`` to draw, or the HTML of the figures for the program's ``L`` and a one-line summary."""
    from glassgrad.viz import animate_backward, animate_order, draw_graph, fmt, show_complete_state
    from glassgrad.viz.graph import walk
    from glassgrad.viz.html import caption, escape

    root: Any = namespace.get("L")
    if root is None:
        return {"note": "The program ran. To see a graph drawn, name the output L (for example L = square(e, 'L'))."}
    if not all(hasattr(root, name) for name in VALUE_FIELDS):
        return {"error": f"L is {kind_of(root)}, not a Value: the playground draws the graph of a Value."}
    problem = graph_problem(root)
    if problem:
        return {"error": problem}
    try:
        order = walk(root)
    except ValueError as error:  # the one thing graph_problem leaves to the walk: a cycle
        message = str(error)
        return {"error": f"{message[:1].upper()}{message[1:]}: a node cannot be its own ancestor."}
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
    except Exception as error:  # the graph was built by the reader's code: say what could not be drawn
        return {"error": f"The graph of L could not be drawn: {type(error).__name__}: {error}"}
    return {
        "summary": escape(summary),
        "figure": figure,
        "order": f"<details><summary>How backward chose its order: the walk, step by step</summary>{order_player}</details>",
        "cards": cards,
    }

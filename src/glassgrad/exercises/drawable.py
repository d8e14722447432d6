"""What stops a reader's graph from being drawn, in words for the reader (None when nothing does).

The playground draws the graph of a program's ``L``: a graph the reader built by hand may hold something that is
not a Value, a link that is not a ``ParentLink``, a number that is not one, a cycle, or too many values.
`graph_problem` names the first of these, reading the reader's objects as carefully as the checker does.
"""

from __future__ import annotations

import math
from typing import Any

from glassgrad.autograd import CycleError, OrderEvent, walk_parents
from glassgrad.exercises.verdict import kind_of, safe_repr

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


def graph_problem(root: Any, limit: int) -> str | None:
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

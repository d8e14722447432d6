"""The small graphs the order, backward and training checks build with chapter 2's engine."""

from __future__ import annotations

from typing import Any

from glassgrad import scratch
from glassgrad.exercises import verdict
from glassgrad.protocol import is_value

# ---------------------------------------------------------------- graphs


def diamond(x: float, a: float, b: float) -> Any:
    """Exercise 5's graph: x feeds two branches that meet again in L."""
    xv, av, bv = scratch.Value(x, "x"), scratch.Value(a, "a"), scratch.Value(b, "b")
    p = scratch.multiply(xv, av, "p")
    q = scratch.add(xv, bv, "q")
    return scratch.multiply(p, q, "L")


def shared(w: float) -> Any:
    """w * w: one value on both sides of an operation."""
    wv = scratch.Value(w, "w")
    return scratch.multiply(wv, wv, "L")


def linear(w: float, x: float, b: float, y: float) -> Any:
    """Chapter 1's graph (the squared error of w * x + b against y), built with chapter 2's engine."""
    from glassgrad.examples import linear_loss

    return linear_loss(scratch, w=w, x=x, b=b, y=y)["L"]


def twins_of(root: Any, reference: Any, exercise: str) -> dict[int, Any]:
    """The reader's node for each node of `reference` (by id), pairing the two graphs link by link from their
    roots; raises `_Failed` where the reader's graph is not the same graph (labels, numbers, links)."""
    twins: dict[int, Any] = {}
    stack = [(reference, root)]
    while stack:
        ref, node = stack.pop()
        if id(ref) in twins:
            if twins[id(ref)] is not node:
                raise verdict.fail(
                    exercise, f"{verdict.name(ref)} appears twice in the graph of L as two different Values."
                )
            continue
        wrong = (
            not is_value(node)
            or getattr(node, "label", None) != ref.label
            or not verdict.same(node.data, ref.data)
            or not isinstance(node.parents, (tuple, list))
            or len(node.parents) != len(ref.parents)
            or not all(verdict.is_link(link) for link in node.parents)
        )
        if wrong:
            raise verdict.fail(
                exercise,
                f"The graph of L is not the starting code's (at {verdict.name(ref)}): keep the lines that build it, "
                "and change only `order`.",
            )
        twins[id(ref)] = node
        stack.extend((ref_link.value, link.value) for ref_link, link in zip(ref.parents, node.parents))
    return twins

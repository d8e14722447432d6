"""The dependency-safe order exercise."""

from __future__ import annotations

from typing import Any

from glassgrad.autograd import walk_parents
from glassgrad.exercises import verdict
from glassgrad.exercises.graphs import diamond, twins_of
from glassgrad.exercises.verdict import Verdict, kind_of
from glassgrad.protocol import is_value


def _check_order(order: Any, namespace: dict[str, Any], exercise: str) -> Verdict:
    root: Any = namespace.get("L")
    if not is_value(root):
        return Verdict(exercise, False, "The program has no L: keep the lines that build the graph.")
    reference = diamond(2.0, 3.0, 1.0)  # the starting code's graph, built here
    twins = twins_of(root, reference, exercise)
    nodes = walk_parents(reference)
    if not isinstance(order, (list, tuple)):
        return Verdict(exercise, False, f"order is {kind_of(order)}; make it a list: order = [x, a, ...].")
    if not order:
        return Verdict(
            exercise, False, f"order is empty: list the {len(nodes)} Values of the graph, each after its parents."
        )
    reference_of = {id(twins[id(ref)]): ref for ref in nodes}  # the reader's node -> the checker's
    seen: dict[int, int] = {}
    for i, node in enumerate(order):
        if id(node) not in reference_of:
            return Verdict(
                exercise, False, f"order[{i}] is {verdict.shown(node)}, which is not a Value of the graph of L."
            )
        if id(node) in seen:
            return Verdict(
                exercise,
                False,
                f"{verdict.name(node)} appears twice in order (positions {seen[id(node)]} and {i}): list each Value once.",
            )
        seen[id(node)] = i
    missing = [ref.label for ref in nodes if id(twins[id(ref)]) not in seen]
    if missing:
        return Verdict(
            exercise, False, f"order is missing {', '.join(missing)}: list all {len(nodes)} Values of the graph."
        )
    placed: set[int] = set()
    for i, node in enumerate(order):
        for k, link in enumerate(reference_of[id(node)].parents):
            if id(link.value) not in placed:
                parent = link.value.label
                return Verdict(
                    exercise,
                    False,
                    f"{verdict.name(node)} is at position {i}, before its parent {parent}.\n"
                    f"{verdict.name(node)} is computed from {parent} (the marked edge), so {parent} must come earlier in the list.",
                    graph=root,
                    marked=[(node, k)],
                    operand=parent,
                    edge=f"∂{verdict.name(node)}/∂{parent}",
                )
        placed.add(id(reference_of[id(node)]))
    return Verdict(
        exercise,
        True,
        f"Passed: all {len(nodes)} Values come after their parents. Backward walks this list in reverse.",
    )

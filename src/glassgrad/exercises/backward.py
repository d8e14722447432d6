"""The exercise on accumulating in backward."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from glassgrad import scratch
from glassgrad.autograd import walk_parents
from glassgrad.exercises import verdict
from glassgrad.exercises.graphs import diamond, linear, shared
from glassgrad.exercises.operations import away_from_zero, rounded
from glassgrad.exercises.verdict import Verdict


def snapshot_of(order: Sequence[Any]) -> list[tuple[Any, float, Any, tuple[tuple[Any, float], ...]]]:
    """Each node of a graph with what the forward pass stored in it: data, the parents tuple, each link's fields."""
    return [
        (node, node.data, node.parents, tuple((link.value, link.local_grad) for link in node.parents)) for node in order
    ]


def first_change(snapshot: list[tuple[Any, float, Any, tuple[tuple[Any, float], ...]]]) -> str | None:
    """The first field the reader's backward changed in a graph (None when it changed nothing but .grad)."""
    for node, data, parents, links in snapshot:
        if node.data != data:
            return f"{verdict.name(node)}.data"
        if node.parents is not parents:
            return f"{verdict.name(node)}.parents"
        for k, (link, (value, local)) in enumerate(zip(parents, links)):
            if link.value is not value or link.local_grad != local:
                return f"{verdict.name(node)}.parents[{k}]"
    return None


def _wrong_grad(
    title: str, exercise: str, root: Any, reference: Any, pairs: list[tuple[Any, Any]], again: bool
) -> Verdict | None:
    """The verdict on the first node (from the root back) whose .grad differs from the reference's, or None."""
    twin = {id(ref): node for node, ref in pairs}
    for node, ref in reversed(pairs):
        given, expected = node.grad, ref.grad
        if verdict.same(given, expected):
            continue
        want, got = (
            verdict.pair(expected, float(given))
            if verdict.is_number(given)
            else (verdict.num(expected), verdict.shown(given))
        )
        details: dict[str, Any] = {
            "graph": root,
            "show_grad": True,
            "expected": expected,
            "given": float(given) if verdict.is_number(given) else None,
        }
        if again:
            return Verdict(
                exercise,
                False,
                f"Called a second time on {title} (training calls it once per step), {verdict.name(node)}.grad is {got}; "
                f"it should still be {want}. The gradients of the first call were still there.",
                answer="Set every .grad to 0.0 first, then root.grad = 1.0, then add the contributions.",
                **details,
            )
        head = f"On {title}, {verdict.name(node)}.grad is {got}; it should be {want}."
        if ref is reference:
            return Verdict(
                exercise,
                False,
                head + "\nThe root's gradient starts the pass.",
                answer="Set root.grad = 1.0 (dL/dL) before the loop.",
                **details,
            )
        edges = [
            (output, k, output.grad * link.local_grad)
            for _, output in pairs
            for k, link in enumerate(output.parents)
            if link.value is ref
        ]
        lost = next(((o, k, c) for o, k, c in edges if verdict.same(given, expected - c)), None) or (
            edges[0] if edges else None
        )
        if lost is None:
            return Verdict(exercise, False, head, **details)
        output, k, contribution = lost
        out_name, answer = verdict.name(output), ""
        if given == 0:
            why = (
                f"\nNo contribution reached {verdict.name(node)}. Does the loop visit every output before its parents "
                "(the dependency-safe order, reversed)?"
            )
            answer = "Loop over reversed(dependency_safe_order(root)): each output's .grad is complete before it is passed on."
        elif len(edges) > 1 and verdict.same(given, expected - contribution):
            upstream, local = output.grad, output.parents[k].local_grad
            why = (
                f"\n{verdict.name(node)} gets a contribution from each of {len(edges)} edges. The one along the marked edge "
                f"∂{out_name}/∂{verdict.name(node)}, {verdict.num(upstream)} × {verdict.num(local)} = {verdict.num(contribution)}, was lost."
            )
            answer = "Add each contribution to .grad (+=): every edge into a Value contributes."
        elif verdict.is_number(given) and verdict.close(float(given), -expected):
            why = "\nThe sign is flipped."
            answer = "A contribution is upstream × local, added to the parent's .grad."
        else:
            why = (
                "\nA contribution is the output's grad (upstream) × the link's local_grad, added to the parent's grad."
            )
        return Verdict(
            exercise,
            False,
            head + why,
            answer=answer,
            marked=[(twin[id(output)], k)],
            operand=verdict.name(node),
            edge=f"∂{out_name}/∂{verdict.name(node)}",
            **details,
        )
    return None


def _check_backward(fn: Any, exercise: str, rng: random.Random) -> Verdict:
    if not callable(fn):
        return verdict.not_a_function(exercise, fn, "backward(root)")
    graphs: list[tuple[str, Callable[..., Any], tuple[float, ...]]] = [
        ("w * w", shared, (away_from_zero(rng),)),
        ("the diamond", diamond, tuple(rounded(rng, -3, 3) for _ in range(3))),
        ("chapter 1's graph", linear, (2.0, 3.0, 1.0, 10.0)),
        ("chapter 1's graph", linear, tuple(rounded(rng, -3, 3) for _ in range(4))),
    ]
    for title, build, inputs in graphs:
        root, reference = build(*inputs), build(*inputs)
        order = walk_parents(root)  # before the reader's code touches the graph
        pairs = list(zip(order, walk_parents(reference), strict=True))
        snapshot = snapshot_of(order)
        scratch.backward(reference)
        for again in (False, True):
            verdict.call(f"backward(L) on {title}" + (", a second time" if again else ""), fn, root)
            changed = first_change(snapshot)
            if changed:
                return Verdict(
                    exercise,
                    False,
                    f"On {title}, your backward changed {changed}. Backward only fills in .grad: the links the "
                    "forward pass saved are what it reads.",
                )
            wrong = _wrong_grad(title, exercise, root, reference, pairs, again)
            if wrong is not None:
                return wrong
    return Verdict(
        exercise,
        True,
        "Passed: on w * w, the diamond and chapter 1's graph, called once and then again, every .grad matches "
        "the checker's own backward.",
    )

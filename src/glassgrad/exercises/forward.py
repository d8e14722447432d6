"""The forward-mode exercise: the reader's tangents against the checker's."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from glassgrad.autograd import walk_parents
from glassgrad.exercises import verdict
from glassgrad.exercises.backward import first_change, snapshot_of
from glassgrad.exercises.graphs import diamond, linear, shared
from glassgrad.exercises.operations import away_from_zero, rounded
from glassgrad.exercises.verdict import Verdict


def _reference_tangents(root: Any, seeds: dict[int, float]) -> dict[int, float]:
    """The checker's own forward mode on chapter 2's engine: each value's tangent by id (`seeds` by id too)."""
    tangent: dict[int, float] = {}
    for node in walk_parents(root):
        if not node.parents:
            tangent[id(node)] = seeds.get(id(node), 0.0)
            continue
        total = 0.0
        for link in node.parents:
            total += tangent[id(link.value)] * link.local_grad
        tangent[id(node)] = total
    return tangent


def _check_forward(fn: Any, exercise: str, rng: random.Random) -> Verdict:
    if not callable(fn):
        return verdict.not_a_function(exercise, fn, "tangents(root, seeds)")
    rule = (
        "A leaf's tangent is its seed (0 if it has none); any other value's is the sum, over its links, "
        "of tangent[link.value] × link.local_grad."
    )
    graphs: list[tuple[str, Callable[..., Any], tuple[float, ...], str]] = [
        ("w * w", shared, (away_from_zero(rng),), "every"),
        ("the diamond", diamond, tuple(rounded(rng, -3, 3) for _ in range(3)), "every"),
        ("chapter 1's graph", linear, (2.0, 3.0, 1.0, 10.0), "w"),
        ("chapter 1's graph", linear, tuple(rounded(rng, -3, 3) for _ in range(4)), "every"),
    ]
    for title, build, inputs, seeded in graphs:
        root = build(*inputs)
        order = walk_parents(root)  # before the reader's code touches the graph
        leaves = [node for node in order if not node.parents]
        if seeded == "every":  # each leaf moves, at a speed of its own
            seeds = {leaf: away_from_zero(rng) for leaf in leaves}
        else:  # one leaf moves at 1: the tangents are the derivatives with respect to it
            seeds = {leaf: 1.0 for leaf in leaves if leaf.label == seeded}
        snapshot = snapshot_of(order)
        expected = _reference_tangents(root, {id(leaf): tangent for leaf, tangent in seeds.items()})
        shown = ", ".join(f"{verdict.name(leaf)} = {verdict.num(tangent)}" for leaf, tangent in seeds.items())
        where = f"On {title} with the seeds {shown}"
        given = verdict.call(f"tangents(L, seeds) on {title}", fn, root, dict(seeds))
        changed = first_change(snapshot)
        if changed:
            return Verdict(
                exercise,
                False,
                f"On {title}, your tangents changed {changed}. Forward mode only reads the links the forward "
                "pass saved.",
            )
        if not isinstance(given, dict):
            return Verdict(
                exercise,
                False,
                f"tangents returned {verdict.shown(given)}; return a dict with a tangent for every value: {{node: tangent}}.",
            )
        for node in order:
            want = expected[id(node)]
            if node not in given:
                return Verdict(
                    exercise,
                    False,
                    f"{where}, the dict has no tangent for {verdict.name(node)}: give every value one.",
                    answer=rule,
                )
            got = given[node]
            if verdict.same(got, want):
                continue
            if not verdict.is_number(got):
                what = f"{where}, the tangent of {verdict.name(node)}"
                return verdict.not_a_number(exercise, what, got, ".", answer=rule)
            wanted, gave = verdict.pair(want, float(got))
            head = f"{where}, the tangent of {verdict.name(node)} is {gave}; it should be {wanted}."
            if not node.parents:
                return Verdict(
                    exercise,
                    False,
                    head + "\nA leaf's tangent is its seed, or 0 if it has none.",
                    answer=rule,
                    graph=root,
                    expected=want,
                    given=float(got),
                )
            contributions = [expected[id(link.value)] * link.local_grad for link in node.parents]
            k = 0
            if got == 0:
                why = f"\nNothing reached {verdict.name(node)}: push each parent's tangent along its link."
            elif len(contributions) > 1 and any(verdict.close(want - c, got) for c in contributions):
                k = next(j for j, c in enumerate(contributions) if verdict.close(want - c, got))
                link = node.parents[k]
                why = (
                    f"\n{verdict.name(node)} gets a contribution along each of its {len(contributions)} links. The one along "
                    f"the marked edge ∂{verdict.name(node)}/∂{verdict.name(link.value)}, {verdict.num(expected[id(link.value)])} × "
                    f"{verdict.num(link.local_grad)} = {verdict.num(contributions[k])}, is missing: add every link's contribution (+=)."
                )
            elif verdict.close(got, sum(expected[id(link.value)] for link in node.parents)):
                k = next((j for j, link in enumerate(node.parents) if link.local_grad != 1), 0)
                why = "\nThat is the parents' tangents added up: multiply each by its link's local_grad."
            elif verdict.close(got, -want):
                why = "\nThe sign is flipped: a contribution is the parent's tangent × the link's local_grad."
            else:
                why = "\nA contribution is the parent's tangent × the link's local_grad."
            link = node.parents[k]
            return Verdict(
                exercise,
                False,
                head + why,
                answer=rule,
                graph=root,
                marked=[(node, k)],
                operand=verdict.name(link.value),
                edge=f"∂{verdict.name(node)}/∂{verdict.name(link.value)}",
                expected=want,
                given=float(got),
            )
    return Verdict(
        exercise,
        True,
        "Passed: on w * w, the diamond and chapter 1's graph, every value's tangent matches the checker's forward "
        "mode. With only w seeded 1, L's tangent is dL/dw, the w.grad backward finds.",
    )

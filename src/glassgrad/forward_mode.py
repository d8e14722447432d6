"""Forward mode along the saved links: tangents from the leaves to the root, after `backward`'s own walk.

Each value's tangent is the sum, over its saved links, of the parent's tangent × the link's ``local_grad``
(the same numbers `glassgrad.autograd.backward` multiplies by), computed in dependency-safe order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, overload

from glassgrad.autograd import _as_roots, _name, _walk
from glassgrad.steps import ForwardSteps
from glassgrad.value import Value, _edges, as_float


def _tangents_in(roots: tuple[Value, ...], seeds: Mapping[Value, float]) -> tuple[list[Value], dict[int, float]]:
    """The dependency-safe order from `roots` and the seeds keyed by id, each checked (leaf, real number)."""
    if not isinstance(seeds, Mapping):
        raise TypeError(
            f"jvp: seeds must map leaf Values to numbers, such as {{w: 1.0}}; got {type(seeds).__name__} {seeds!r:.60}"
        )
    order = _walk(roots, None)
    by_id: dict[int, float] = {}
    for leaf, tangent in seeds.items():
        if not isinstance(leaf, Value):
            raise TypeError(
                f"jvp: seeds must map leaf Values to numbers; got the key {type(leaf).__name__} {leaf!r:.60}"
            )
        if _edges(leaf):
            raise ValueError(
                f"jvp: {_name(leaf)} is not a leaf (it was made by {leaf.op or 'an operation'}); "
                "seed the inputs it was made from instead"
            )
        by_id[id(leaf)] = as_float(tangent, f"jvp: the tangent of {_name(leaf)}")
    return order, by_id


@overload
def jvp(root: Value, seeds: Mapping[Value, float]) -> float: ...
@overload
def jvp(root: Sequence[Value], seeds: Mapping[Value, float]) -> list[float]: ...
def jvp(root: Value | Sequence[Value], seeds: Mapping[Value, float]) -> float | list[float]:
    """Forward mode: the derivative of `root` when the leaves move in the direction `seeds`.

    `seeds` gives a tangent to some leaves (any leaf left out has tangent 0). Each value gets a tangent,
    in dependency-safe order, so that its parents' tangents are complete first: a leaf's is its seed, any
    other value's is the sum, over its saved links, of the parent's tangent × the link's ``local_grad``.
    The root's tangent is the Jacobian-vector product: the sum over the seeded leaves of
    ``seed × d(root)/d(leaf)``, what `backward` gives from ``root.grad = 1``, found in one forward pass
    instead. Nothing is stored on the values (`.grad` is untouched), and the walk is iterative, as for
    `backward`: depth costs memory, not Python frames.

    Several outputs (`root` a list ``[y_1, ..., y_m]``) share the one pass: the list of their tangents
    is the Jacobian ``J`` times the seeds' vector, PyTorch's ``torch.func.jvp``.

    Args:
        root: the output whose derivative is wanted, or a list of outputs.
        seeds: ``{leaf: tangent}``, the direction the leaves move in (``{w: 1.0}``: d(root)/dw alone).

    Returns:
        The tangent of `root` (a float), or a list of one tangent per output.

    Raises:
        TypeError: if `root` is not a `Value` (or a list of them), `seeds` is not a mapping of Values to real numbers.
        ValueError: if a seeded value is not a leaf.
        CycleError: if the graph has a cycle.

    Examples:
        >>> from glassgrad import Value, jvp
        >>> w, x = Value(2.0, "w"), Value(3.0, "x")
        >>> m = w * x
        >>> jvp(m, {w: 1.0})  # ∂m/∂w = x
        3.0
        >>> jvp(m, {w: 1.0, x: 10.0})  # 1·x + 10·w
        23.0
        >>> jvp([m, w + x], {w: 1.0})  # ∂m/∂w and ∂(w + x)/∂w in one pass
        [3.0, 1.0]
    """
    roots = _as_roots(root)
    order, seed = _tangents_in(roots, seeds)
    tangent = seed.copy()  # by id(): every node of the order stays alive during the pass
    for node in order:
        edges = _edges(node)
        if not edges:
            continue  # a leaf: its seed, or 0
        total = 0.0
        for parent, local in edges:
            total += tangent.get(id(parent), 0.0) * local
        tangent[id(node)] = total
    if isinstance(root, Value):
        return tangent.get(id(root), 0.0)
    return [tangent.get(id(output), 0.0) for output in roots]


def trace_jvp(root: Value | Sequence[Value], seeds: Mapping[Value, float]) -> ForwardSteps:
    """The same forward pass as `jvp` from `root` (or a list of outputs) with the tangents `seeds`, as `ForwardStep`s.

    One step per saved link, to show. Values are processed in dependency-safe order (`dependency_safe_order`),
    and each value's links in stored order; a step adds ``parent_tangent × local`` into the output's tangent. The last
    step's `after` is the root's tangent (for a graph with at least one link), and the log's
    `tangents` holds every value's.

    Raises:
        TypeError, ValueError, CycleError: as for `jvp`.

    Examples:
        >>> from glassgrad import Value, trace_jvp
        >>> w, x = Value(2.0, "w"), Value(3.0, "x")
        >>> [(s.parent.label, s.parent_tangent, s.local, s.after) for s in trace_jvp(w * x, {w: 1.0})]
        [('w', 1.0, 3.0, 3.0), ('x', 0.0, 2.0, 3.0)]
        >>> [(value.label, tangent) for value, tangent in trace_jvp(w * x, {w: 1.0}).tangents.items()]
        [('w', 1.0), ('x', 0.0), ('', 3.0)]
    """
    order, tangent = _tangents_in(_as_roots(root), seeds)
    log: list[Any] = []
    extend = log.extend
    for output in order:
        edges = _edges(output)
        after = 0.0
        for parent, local in edges:
            parent_tangent = tangent.get(id(parent), 0.0)
            contribution = parent_tangent * local
            before, after = after, after + contribution
            extend((output, parent, parent_tangent, local, contribution, before, after))
        if edges:  # a leaf keeps its seed
            tangent[id(output)] = after
    return ForwardSteps(log, {node: tangent.get(id(node), 0.0) for node in order})

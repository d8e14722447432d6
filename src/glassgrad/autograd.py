"""Reverse mode along the saved links, after one dependency-safe ordering walk.

`backward` pushes gradients back along every link, from the outputs to the leaves; forward mode
(`glassgrad.forward_mode.jvp`) pushes tangents along the same links the other way, after the same walk.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from itertools import filterfalse
from typing import Any, Literal, NamedTuple

from glassgrad import value as _value

# One trace format for both engines: chapter 2's record of one chain-rule update along one link.
from glassgrad.scratch import BackwardStep as BackwardStep  # re-exported: glassgrad.BackwardStep
from glassgrad.steps import BackwardSteps as BackwardSteps  # re-exported: glassgrad.BackwardSteps
from glassgrad.steps import ForwardStep as ForwardStep
from glassgrad.steps import ForwardSteps as ForwardSteps
from glassgrad.value import Value, _edges, as_float

_backward_lock = threading.RLock()  # held for the whole gradient pass of every backward call


class CycleError(ValueError):
    """Raised when following `parents` from the root comes back to a value still being visited."""


class OrderEvent(NamedTuple):
    """One event of the ordering walk, for replaying it step by step.

    `kind` is ``"enter"`` (start visiting `node`), ``"skip"`` (`node` was already appended,
    so the walk does not visit it twice) or ``"append"`` (every parent of `node` is already
    in the order, so `node` joins it). `depth` is how many visits are open around this one.
    """

    kind: Literal["enter", "skip", "append"]
    node: Value
    depth: int


def _walk(roots: Sequence[Value], events: list[OrderEvent] | None) -> list[Value]:
    """Depth-first from each root in turn, parents in stored order, each node appended after all its parents.

    An explicit stack instead of recursion: a million-node chain needs no recursion limit. Each link is read
    inline from the packed links, with no call; no object is allocated per node but a fused op's filter (so a
    deep chain's walk starts no garbage collection).
    """
    for root in roots:
        if not isinstance(root, Value):
            raise TypeError(f"expected a Value as the root, got {type(root).__name__} {root!r:.60}")
    order: list[Value] = []
    # By identity: Value's own hash is its address; once a subclass defines __eq__ or __hash__, the
    # walk keys by id() instead (a call per link), so that no two nodes merge.
    by_id = _value.equality_overridden
    seen: set[object] = set()  # entered: either appended already or still being visited
    appended: set[object] = set()  # in the order already: meeting one again is a skip, not a cycle
    # A fused op (weighted_sum: one link per weight) skips its operands already in the order inside filterfalse,
    # in C: the walk's Python loop runs only for the links it follows (not when it logs its skips, or keys by id).
    plain = events is None and not by_id
    in_order = appended.__contains__
    for root in roots:
        if (id(root) if by_id else root) in seen:  # an earlier root's walk appended it already
            continue
        seen.add(id(root) if by_id else root)
        path = [root]  # the values being visited, outermost first
        # For each of them, how many of its links the walk has followed (in the plain walk, for a fused op, an
        # iterator over its operands not yet in the order instead).
        followed: list[int | Iterator[Value | None]] = [0]
        if events is not None:
            events.append(OrderEvent("enter", root, 0))
        while path:
            node = path[-1]
            k = followed[-1]
            if isinstance(k, int):
                # node.parents[k].value, the packed-link table (value.py's docstring) inlined: no call, no ParentLink.
                du = node._du
                if type(du) is list:  # a fused op: the operands end with None
                    if plain:
                        followed[-1] = k = filterfalse(in_order, node._u)
                        parent = next(k)
                    else:
                        parent = node._u[k]
                        followed[-1] = k + 1
                elif du is None:  # the links are built: _u holds them
                    links = node._u
                    parent = links[k].value if k < len(links) else None
                    followed[-1] = k + 1
                elif k == 0:  # one or two operands, the first in _u
                    parent = node._u
                    followed[-1] = 1
                else:
                    parent = du[1] if k == 1 and type(du) is tuple else None
                    followed[-1] = k + 1
            else:  # a fused op's operands, those already in the order passed over in C
                parent = next(k)  # the operands end with None, never in the order
            if parent is None:  # every parent of node is in the order: node joins it
                path.pop()
                followed.pop()
                appended.add(id(node) if by_id else node)
                order.append(node)
                if events is not None:
                    events.append(OrderEvent("append", node, len(path)))
                continue
            key = id(parent) if by_id else parent
            if key in appended:  # the most frequent case: a parameter every example uses, met again
                if events is not None:
                    events.append(OrderEvent("skip", parent, len(path)))
            elif key not in seen:
                seen.add(key)
                path.append(parent)
                followed.append(0)
                if events is not None:
                    events.append(OrderEvent("enter", parent, len(path) - 1))
            else:  # seen but not appended: its visit is still open, so it is its own ancestor
                raise CycleError(
                    f"the graph has a cycle: {_name(parent)} is one of its own ancestors "
                    f"(reached again from {_name(node)}); backward needs an acyclic graph"
                )
    return order


def _name(node: Value) -> str:
    return repr(node.label) if node.label else repr(node)


def dependency_safe_order(root: Value) -> list[Value]:
    """Return every value reachable from `root`, each one after all of its parents.

    Deterministic: parents are followed in their stored order, so for the tutorial's graph
    the order is ``w, x, m, b, a, y, e, L``. Reversed, it is the order backward processes.

    Raises:
        CycleError: if the graph has a cycle (only possible by mutating `parents`).
        TypeError: if `root` is not a `Value`.
    """
    return _walk((root,), None)


class GraphTooLarge(ValueError):
    """Raised by `walk_parents` as soon as a graph passes its `max_values` or `max_links`.

    Args:
        what: what passed its limit, ``"values"`` or ``"links"``.
        limit: the limit it passed.
    """

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"the graph has more than {limit:,} {what}")
        self.what = what  # "values" or "links"
        self.limit = limit


def walk_parents(
    root: Any,
    events: list[OrderEvent] | None = None,
    *,
    max_values: int | None = None,
    max_links: int | None = None,
    describe: Callable[[Any], str] = _name,
) -> list[Any]:
    """`dependency_safe_order` of `root`'s graph, for any graph of the public shape: the same order, read through
    ``parents[k].value``.

    For what draws or checks graphs it did not build: `root` may be a `glassgrad.Value`, a
    `glassgrad.scratch.Value` or any node with ``parents`` (links with ``.value``) alike, keyed by identity.
    It stops as soon as the graph passes `max_values` values or `max_links` links; when `events` is a list,
    every visit, skip and append is added to it, as `trace_dependency_safe_order` records. `describe` names a node in the cycle error.
    (`dependency_safe_order` reads a `Value`'s packed links directly: the one walk backward runs.)

    Raises:
        CycleError: if a node is its own ancestor (a cycle made by editing ``parents``).
        GraphTooLarge: past `max_values` or `max_links`.
    """
    events = [] if events is None else events
    order: list[Any] = []
    placed: set[int] = set()
    open_visits = {id(root)}
    path = [(root, iter(root.parents))]
    values, links_followed = 1, 0
    events.append(OrderEvent("enter", root, 0))
    while path:
        node, links = path[-1]
        link = next(links, None)
        if link is None:  # every parent is placed: node joins the order
            path.pop()
            open_visits.discard(id(node))
            placed.add(id(node))
            order.append(node)
            events.append(OrderEvent("append", node, len(path)))
            continue
        links_followed += 1
        if max_links is not None and links_followed > max_links:  # stop here: no need to count the rest
            raise GraphTooLarge("links", max_links)
        if id(link.value) in placed:
            events.append(OrderEvent("skip", link.value, len(path)))
        elif id(link.value) in open_visits:
            raise CycleError(f"the graph has a cycle: {describe(link.value)} is one of its own ancestors")
        else:
            values += 1
            if max_values is not None and values > max_values:
                raise GraphTooLarge("values", max_values)
            open_visits.add(id(link.value))
            path.append((link.value, iter(link.value.parents)))
            events.append(OrderEvent("enter", link.value, len(path) - 1))
    return order


def trace_dependency_safe_order(root: Value) -> list[OrderEvent]:
    """The same walk from `root` as `dependency_safe_order`, as a list of `OrderEvent`s to replay.

    Raises:
        CycleError: if the graph has a cycle.
        TypeError: if `root` is not a `Value`.
    """
    events: list[OrderEvent] = []
    _walk((root,), events)
    return events


def _as_roots(root: Value | Sequence[Value]) -> tuple[Value, ...]:
    """One output as a tuple, or a non-empty list or tuple of them as a tuple (each checked by `_walk`)."""
    if isinstance(root, Value):
        return (root,)
    if not isinstance(root, (list, tuple)) or not root:
        raise TypeError(
            f"expected a Value (or a non-empty list of Values) as the root, got {type(root).__name__} {root!r:.60}"
        )
    return tuple(root)


def _roots_and_seeds(
    root: Value | Sequence[Value], gradient: float | Sequence[float]
) -> tuple[tuple[Value, ...], tuple[float, ...]]:
    """The outputs backward starts from and the gradient each is seeded with, checked."""
    roots = _as_roots(root)
    if isinstance(root, Value):
        if isinstance(gradient, (list, tuple)):
            raise TypeError(f"backward: one root takes one number as its gradient, got {gradient!r:.60}")
        return roots, (as_float(gradient, "backward's gradient"),)
    if isinstance(gradient, (list, tuple)):
        if len(gradient) != len(roots):
            raise ValueError(f"backward: {len(roots)} roots but {len(gradient)} gradients; give one number per root")
        return roots, tuple(as_float(g, "backward's gradient") for g in gradient)
    return roots, (as_float(gradient, "backward's gradient"),) * len(roots)


def backward(
    root: Value | Sequence[Value],
    *,
    accumulate: bool = False,
    record: bool = True,
    gradient: float | Sequence[float] = 1.0,
) -> BackwardSteps:
    """Set `.grad` of every value reachable from `root` to d(root)/d(value).

    Default (the tutorial's semantics): every reachable `.grad` is cleared, then
    ``root.grad = 1`` and each saved link adds upstream × local into its parent.

    ``accumulate=True`` (PyTorch's semantics): this call's gradients are *added* to what
    the `.grad` buffers already held, so calling it twice doubles every gradient, as
    PyTorch does for leaves (and for non-leaves with ``retain_grad()``). The propagation
    itself uses only this call's gradients, so old totals are never pushed twice.

    Several outputs at once (a vector-Jacobian product): `root` a list of outputs
    ``[y_1, ..., y_m]`` and `gradient` a list ``v`` of one number each. Each ``y_j.grad`` is
    seeded with ``v_j``, and one pass leaves in every value ``x`` the sum over outputs of
    ``v_j × d(y_j)/d(x)``: the row vector ``vᵀJ``, what PyTorch's
    ``torch.autograd.grad(outputs, inputs, grad_outputs=v)`` returns.

    Threads: graphs that share no value are independent, in any number of threads. The gradient
    pass holds a lock, so backward calls whose graphs share values (parameters used by several
    threads' losses) run one after the other: with ``accumulate=True`` every call's gradients are
    added whole; without it, each call clears and refills, and the last one's gradients remain.
    Reading or assigning ``.grad`` of a shared value while another thread's backward runs may see
    it half-done; building new graphs from shared values (reading ``.data``) is safe.

    Args:
        root: the scalar output to differentiate (the loss), or a list of outputs.
        accumulate: add into existing gradients instead of replacing them.
        record: log a `BackwardStep` per link; ``False`` skips the log (an empty log is returned).
        gradient: the seed, ``root.grad`` before the first link (PyTorch's ``gradient=``): 1 by
            default; for a list of outputs, one number per output (or one number for all).

    Returns:
        `BackwardSteps`: one `BackwardStep` per processed link, in processing order (empty if not `record`).

    Raises:
        TypeError: if `root` is not a `Value` or a list of them, or a gradient is not a real number.
        ValueError: if a list of outputs and a list of gradients differ in length.
        CycleError: if the graph has a cycle.

    Examples:
        >>> from glassgrad import Value, backward
        >>> w, x = Value(2.0, "w"), Value(3.0, "x")
        >>> m, s = w * x, w + x
        >>> len(backward(m))
        2
        >>> w.grad, x.grad
        (3.0, 2.0)
        >>> _ = backward([m, s], gradient=[1.0, 10.0])  # 1·∂m/∂w + 10·∂s/∂w, and the same for x
        >>> w.grad, x.grad
        (13.0, 12.0)
    """
    if type(accumulate) is not bool or type(record) is not bool:
        raise TypeError(
            f"backward: accumulate and record must be True or False, got {accumulate!r:.40} and {record!r:.40}"
        )
    roots, seeds = _roots_and_seeds(root, gradient)
    order = _walk(roots, None)
    with _backward_lock:  # one pass at a time: a value shared by two graphs gets both passes whole
        previous = [node.grad for node in order] if accumulate else None
        for node in order:
            node.grad = 0.0
        for output, seed in zip(roots, seeds):
            output.grad += seed  # a root listed twice is seeded twice, as PyTorch does
        if record:
            log: list[Any] = []
            extend = log.extend  # flat: no object per step
            for output in reversed(order):
                upstream = output.grad
                for parent, local in _edges(output):
                    contribution = upstream * local
                    before = parent.grad
                    parent.grad = after = before + contribution
                    extend((output, parent, upstream, local, contribution, before, after))
            steps = BackwardSteps(log)
        else:  # the same updates, the packed links read inline (value.py's docstring)
            for output in reversed(order):
                upstream = output.grad
                du = output._du
                if type(du) is float:  # one operand, _u
                    output._u.grad += upstream * du
                elif type(du) is tuple:  # two operands: _u, then du[1]
                    output._u.grad += upstream * du[0]
                    du[1].grad += upstream * du[2]
                elif type(du) is list:  # a fused op: zip stops before the operands' closing None
                    for parent, local in zip(output._u, du):
                        parent.grad += upstream * local
                else:
                    for parent, local in _edges(output):
                        parent.grad += upstream * local
            steps = BackwardSteps([])
        if previous is not None:
            for node, old in zip(order, previous):
                node.grad += old
    return steps

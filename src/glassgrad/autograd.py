"""Reverse mode: find a dependency-safe order, then push gradients back along every saved link."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import Any, Literal, NamedTuple, overload

from glassgrad import value as _value

# One trace format for both engines: chapter 2's record of one chain-rule update along one link.
from glassgrad.scratch import BackwardStep as BackwardStep  # re-exported: glassgrad.BackwardStep
from glassgrad.value import Value, _edges, _parent

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


class BackwardSteps(Sequence[BackwardStep]):
    """The log of one backward call: a read-only list of `BackwardStep`s, in processing order.

    Stored flat (seven fields per step in one list) so that recording a large backward
    allocates no object per step; each `BackwardStep` is built when it is read.
    Compares equal to a list or tuple of the same steps.
    """

    __slots__ = ("_flat",)

    def __init__(self, flat: list[Any]) -> None:
        self._flat = flat

    def __len__(self) -> int:
        return len(self._flat) // 7

    @overload
    def __getitem__(self, index: int) -> BackwardStep: ...
    @overload
    def __getitem__(self, index: slice) -> list[BackwardStep]: ...
    def __getitem__(self, index: int | slice) -> BackwardStep | list[BackwardStep]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if not -n <= index < n:
            raise IndexError(f"step {index} out of range for {n} steps")
        start = (index % n) * 7
        return BackwardStep._make(self._flat[start : start + 7])

    def __iter__(self) -> Iterator[BackwardStep]:
        flat = self._flat
        for start in range(0, len(flat), 7):
            yield BackwardStep._make(flat[start : start + 7])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (BackwardSteps, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"BackwardSteps({list(self)!r})"


def _walk(root: Value, events: list[OrderEvent] | None) -> list[Value]:
    """Depth-first, parents in stored order, each node appended after all its parents.

    An explicit stack instead of recursion: a million-node chain needs no recursion limit.
    """
    if not isinstance(root, Value):
        raise TypeError(f"expected a Value as the root, got {type(root).__name__} {root!r:.60}")
    order: list[Value] = []
    # By identity: Value's own hash is its address; once a subclass defines __eq__ or __hash__, the
    # walk keys by id() instead (a call per link), so that no two nodes merge.
    by_id = _value.equality_overridden
    seen = {id(root) if by_id else root}  # entered: either appended already or still being visited
    appended: set[object] = set()  # in the order already: meeting one again is a skip, not a cycle
    path = [root]  # the values being visited, outermost first
    followed = [0]  # for each of them, how many of its links the walk has followed
    if events is not None:
        events.append(OrderEvent("enter", root, 0))
    while path:
        node = path[-1]
        k = followed[-1]
        parent = _parent(node, k)
        if parent is None:  # every parent of node is in the order: node joins it
            path.pop()
            followed.pop()
            appended.add(id(node) if by_id else node)
            order.append(node)
            if events is not None:
                events.append(OrderEvent("append", node, len(path)))
            continue
        followed[-1] = k + 1
        key = id(parent) if by_id else parent
        if key not in seen:
            seen.add(key)
            path.append(parent)
            followed.append(0)
            if events is not None:
                events.append(OrderEvent("enter", parent, len(path) - 1))
        elif key in appended:
            if events is not None:
                events.append(OrderEvent("skip", parent, len(path)))
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
    return _walk(root, None)


def trace_dependency_safe_order(root: Value) -> list[OrderEvent]:
    """The same walk from `root` as `dependency_safe_order`, as a list of `OrderEvent`s to replay.

    Raises:
        CycleError: if the graph has a cycle.
        TypeError: if `root` is not a `Value`.
    """
    events: list[OrderEvent] = []
    _walk(root, events)
    return events


def backward(root: Value, *, accumulate: bool = False, record: bool = True) -> BackwardSteps:
    """Set `.grad` of every value reachable from `root` to d(root)/d(value).

    Default (the tutorial's semantics): every reachable `.grad` is cleared, then
    ``root.grad = 1`` and each saved link adds upstream × local into its parent.

    ``accumulate=True`` (PyTorch's semantics): this call's gradients are *added* to what
    the `.grad` buffers already held, so calling it twice doubles every gradient, as
    PyTorch does for leaves (and for non-leaves with ``retain_grad()``). The propagation
    itself uses only this call's gradients, so old totals are never pushed twice.

    Threads: graphs that share no value are independent, in any number of threads. The gradient
    pass holds a lock, so backward calls whose graphs share values (parameters used by several
    threads' losses) run one after the other: with ``accumulate=True`` every call's gradients are
    added whole; without it, each call clears and refills, and the last one's gradients remain.
    Reading or assigning ``.grad`` of a shared value while another thread's backward runs may see
    it half-done; building new graphs from shared values (reading ``.data``) is safe.

    Args:
        root: the scalar output to differentiate (the loss).
        accumulate: add into existing gradients instead of replacing them.
        record: log a `BackwardStep` per link; ``False`` skips the log (an empty log is returned).

    Returns:
        `BackwardSteps`: one `BackwardStep` per processed link, in processing order (empty if not `record`).
    """
    if type(accumulate) is not bool or type(record) is not bool:
        raise TypeError(
            f"backward: accumulate and record must be True or False, got {accumulate!r:.40} and {record!r:.40}"
        )
    order = _walk(root, None)
    with _backward_lock:  # one pass at a time: a value shared by two graphs gets both passes whole
        previous = [node.grad for node in order] if accumulate else None
        for node in order:
            node.grad = 0.0
        root.grad = 1.0
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
        else:
            for output in reversed(order):
                upstream = output.grad
                for parent, local in _edges(output):
                    parent.grad += upstream * local
            steps = BackwardSteps([])
        if previous is not None:
            for node, old in zip(order, previous):
                node.grad += old
    return steps

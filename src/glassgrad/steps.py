"""The one trace format of both modes: one record per saved link, seven fields, logged flat.

`BackwardStep` (chapter 2's record, defined in `glassgrad.scratch`) is one chain-rule update read backwards;
`ForwardStep` is its twin for forward mode. `BackwardSteps` and `ForwardSteps` hold a pass's steps as one flat
list, so recording a large pass allocates no object per step.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar, overload

from glassgrad.scratch import BackwardStep

if TYPE_CHECKING:
    from glassgrad.value import Value


class ForwardStep(NamedTuple):
    """One tangent update along one saved link, read forwards: the twin of `BackwardStep` for `jvp`.

    The same seven fields in the same places, with the tangent flowing the other way: from `parent`
    into `output`. `contribution` = `parent_tangent` × `local` is added to `output`'s tangent, which
    goes from `before` to `after`.
    """

    output: Value
    parent: Value
    parent_tangent: float  # the parent's tangent, complete when this step runs
    local: float  # link.local_grad, the same number backward multiplies by
    contribution: float  # parent_tangent × local, added to output's tangent
    before: float  # output's tangent before the update
    after: float  # output's tangent after it


_Step = TypeVar("_Step", BackwardStep, ForwardStep)


class _StepLog(Sequence[_Step], Generic[_Step]):
    """A read-only list of steps stored flat (seven fields per step in one list).

    Recording a large pass allocates no object per step; each step is built when it is read.
    Compares equal to a list or tuple of the same steps.
    """

    __slots__ = ("_flat",)
    _make: Any  # the step type's constructor from seven fields

    def __init__(self, flat: list[Any]) -> None:
        self._flat = flat

    def __len__(self) -> int:
        return len(self._flat) // 7

    @overload
    def __getitem__(self, index: int) -> _Step: ...
    @overload
    def __getitem__(self, index: slice) -> list[_Step]: ...
    def __getitem__(self, index: int | slice) -> _Step | list[_Step]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if not -n <= index < n:
            raise IndexError(f"step {index} out of range for {n} steps")
        start = (index % n) * 7
        return self._make(self._flat[start : start + 7])

    def __iter__(self) -> Iterator[_Step]:
        flat, make = self._flat, self._make
        for start in range(0, len(flat), 7):
            yield make(flat[start : start + 7])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (_StepLog, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class BackwardSteps(_StepLog[BackwardStep]):
    """The log of one backward call: a read-only list of `BackwardStep`s, in processing order.

    Stored flat (seven fields per step in one list) so that recording a large backward
    allocates no object per step; each `BackwardStep` is built when it is read.
    Compares equal to a list or tuple of the same steps.
    """

    __slots__ = ()
    _make = BackwardStep._make


class ForwardSteps(_StepLog[ForwardStep]):
    """The log of one forward-mode pass (`trace_jvp`): a read-only list of `ForwardStep`s, in processing order.

    Stored flat like `BackwardSteps`; compares equal to a list or tuple of the same steps. `tangents` maps
    every value of the graph to its tangent after the pass (a leaf's is its seed, or 0), in dependency-safe
    order: what a figure shows on each value.
    """

    __slots__ = ("tangents",)
    _make = ForwardStep._make

    def __init__(self, flat: list[Any], tangents: dict[Value, float]) -> None:
        super().__init__(flat)
        self.tangents = tangents

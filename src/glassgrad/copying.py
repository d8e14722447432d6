"""Copying and pickling a `Value`: `copy.copy`, `copy.deepcopy` and `pickle`, however deep the graph.

`Value.__reduce__`, `__setstate__` and `__copy__` call the functions here. The state of a value starts
with its not yet saved ancestors in dependency-safe order, so that pickle (or deepcopy) saves each of
them before anything links to it: by the time a value's own links are saved, its parents are already
saved, and nothing nests (no recursion limit). Every identity and the class are kept.
"""

from __future__ import annotations

import threading
from typing import Any

from glassgrad import autograd as _autograd  # looked up at call time: autograd imports value, which imports this
from glassgrad.value import ParentLink, Value, _edges

_new_object = object.__new__

_pickling = threading.local()  # per thread: ids of the ancestors a value being saved lists before its links


def reduce_value(value: Value) -> tuple[Any, ...]:
    """`Value.__reduce__`: rebuild with `_shell`, then `set_state` with ``(prelude, grad, links, end, extra)``.

    The record of the ancestors still to come lasts as long as that state (see `_PreludeEnd`).
    """
    scheduled = _scheduled()
    if id(value) in scheduled:  # an ancestor listed by a value being saved: its parents are saved
        scheduled.discard(id(value))
        prelude: tuple[Value, ...] = ()
        end = None
    else:
        prelude = tuple(_autograd.dependency_safe_order(value)[:-1])
        end = _PreludeEnd(prelude) if prelude else None
    links = tuple((parent, local) for parent, local in _edges(value))
    extra = getattr(value, "__dict__", None)  # a subclass's own attributes
    return (_shell, (value.data, value.label, value.op, type(value)), (prelude, value.grad, links, end, extra))


def set_state(value: Value, state: tuple[Any, ...]) -> None:
    """`Value.__setstate__`: the gradient, the links and a subclass's attributes from `reduce_value`'s state."""
    _, value.grad, links, _, extra = state  # (prelude, grad, links, end, extra)
    value.parents = [ParentLink(parent, local) for parent, local in links]
    if extra:
        value.__dict__.update(extra)


def shallow_copy(value: Value) -> Value:
    """A new value with the same number, label, op, grad and parents (new links to the same parent objects)."""
    twin = _shell(value.data, value.label, value.op, type(value))
    twin.grad = value.grad
    twin.parents = [ParentLink(parent, local) for parent, local in _edges(value)]
    if getattr(value, "__dict__", None):
        twin.__dict__.update(value.__dict__)
    return twin


def _scheduled() -> set[int]:
    scheduled: set[int] = _pickling.__dict__.setdefault("scheduled", set())
    return scheduled


class _PreludeEnd:
    """Saved right after a prelude: its values are all saved by then, so none of them is still to come.

    Also released when it is dropped, so a dump that fails half-way leaves no record behind either.
    """

    __slots__ = ("ids",)

    def __init__(self, prelude: tuple[Value, ...]) -> None:
        self.ids = [id(node) for node in prelude]
        _scheduled().update(self.ids)

    def release(self) -> None:
        if self.ids:  # once only: after __reduce__, __del__ has nothing left to do
            _scheduled().difference_update(self.ids)
            self.ids = []

    def __reduce__(self) -> tuple[Any, ...]:
        self.release()
        return (_nothing, ())

    def __del__(self) -> None:
        self.release()


def _nothing() -> None:
    """What a `_PreludeEnd` unpickles to."""


def _shell(data: float, label: str, op: str, cls: type = Value) -> Value:
    """Unpickle a value of class `cls` without its links and gradient (`set_state` adds them)."""
    node: Value = _new_object(cls)
    Value.__init__(node, data, label, (), op)
    return node

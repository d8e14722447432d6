"""The data model: a `Value` holds a number, its gradient and links to the operands that made it.

This is chapter 2's engine (`glassgrad.scratch`) made fast; the public shape is the same. How:
a `Value` has `__slots__` and an operation stores its links packed in two slots, ``_u`` and ``_du``,
built into `ParentLink` objects only when `parents` is first read. The packed-link format:

| ``_du`` holds | ``_u`` holds | the links, in operand order |
| --- | --- | --- |
| a float ``du`` | the one operand ``u`` | ``(u, du)`` |
| a tuple ``(du, v, dv)`` | the first operand ``u`` | ``(u, du), (v, dv)`` |
| a list of local derivatives (a fused op such as `glassgrad.nn.weighted_sum`) | the operands in the same order, then None | ``zip(_u, _du)`` |
| None | the tuple of `ParentLink`s itself (a leaf's is empty) | ``_u`` as it is |

`_edges` is the one decoder: every reader of links goes through it (``parents`` builds its
`ParentLink`s from it), except two hot loops in `glassgrad.autograd` that inline the table because a
call per node is most of their time: ``_walk`` (every backward and `dependency_safe_order`) and the
gradient pass of ``backward(record=False)``. A test (tests/test_ops.py) checks that both inlined
readers follow exactly the links `_edges` gives, for all four rows.

One or two objects per node instead of four: Python's cycle collector visits every tracked object
at each full collection, so on large graphs this is most of the speed. `data` is a property over the
slot ``_data``, so that every assignment is checked; the ops read ``_data`` directly.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from operator import attrgetter
from typing import Any


def as_float(number: object, what: str = "Value") -> float:
    """Return `number` as a float, or raise `TypeError` naming what was passed.

    Accepts `int`, `float` and any `numbers.Real` (NumPy scalars, `Fraction`).
    `bool` is refused: `Value(True)` is far more often a bug than a wish for 1.0.

    Examples:
        >>> as_float(3)
        3.0
        >>> as_float("3")
        Traceback (most recent call last):
        ...
        TypeError: Value expects a real number (int or float), got str '3'
    """
    if isinstance(number, numbers.Real) and not isinstance(number, bool):
        try:
            return float(number)
        except OverflowError:
            size = f"an int of {len(str(abs(number)))} digits" if isinstance(number, int) else repr(number)[:60]
            raise OverflowError(f"{what}: {size} is too large for a float64 (largest about 1.8e308)") from None
    boolean = type(number).__name__ in ("bool", "bool_")  # Python's, or NumPy's numpy.bool_
    hint = "; write float(...) if you mean 0.0 or 1.0" if boolean else ""
    raise TypeError(f"{what} expects a real number (int or float), got {type(number).__name__} {number!r:.60}{hint}")


class ParentLink:
    """One saved edge from an output back to a direct operand.

    `value` is the operand (the parent `Value`); `local_grad` is the local derivative
    d(output)/d(operand), evaluated during the forward pass.
    """

    __slots__ = ("value", "local_grad")

    value: Value
    local_grad: float

    def __init__(self, value: Value, local_grad: float) -> None:
        self.value = value
        self.local_grad = local_grad

    def __setattr__(self, name: str, new: object) -> None:
        # Checked on every assignment, not only at construction: backward trusts both fields.
        if name == "value" and not isinstance(new, Value):
            raise TypeError(f"ParentLink.value must be a Value, got {type(new).__name__} {new!r:.60}")
        if name == "local_grad" and type(new) is not float:
            new = as_float(new, "ParentLink.local_grad")
        object.__setattr__(self, name, new)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ParentLink.{name} cannot be deleted: backward reads both fields of every link")

    def __repr__(self) -> str:
        return f"ParentLink(value={self.value.label or self.value!r}, local_grad={self.local_grad:g})"


class Value:
    """A scalar in a computation graph: its number, its loss gradient, and its direct operands.

    Fields: `data` (float), `grad` (float, 0.0 until a backward pass fills it), `label`,
    `parents` (a tuple of `ParentLink`, empty for a leaf) and `op` (a display symbol).

    Args:
        data: the forward number (any real number; stored as float).
        label: a display name such as ``"w"``; it never changes a number.
        parents: the `ParentLink`s to the operands that produced this value (empty for a leaf).
        op: a display symbol for the operation, such as ``"×"``.

    Operators and methods build the graph as they compute; a plain number on either side becomes a leaf:

    | you write | the operation |
    | --- | --- |
    | `u + v`, `2 + u` | [add][glassgrad.add] |
    | `u - v`, `1 - u` | [subtract][glassgrad.subtract] |
    | `u * v`, `3 * u` | [multiply][glassgrad.multiply] |
    | `u / v`, `1 / u` | [divide][glassgrad.divide] |
    | `u ** k` (a number `k`) | [power][glassgrad.power] |
    | `-u` | [negate][glassgrad.negate] |
    | `u.relu()`, `u.tanh()`, `u.sigmoid()` | [relu][glassgrad.relu], [tanh][glassgrad.tanh], [sigmoid][glassgrad.sigmoid] |
    | `u.exp()`, `u.log()` | [exponential][glassgrad.exponential], [log][glassgrad.log] |
    | `u.backward()` | [backward][glassgrad.backward], without the step log |

    Raises:
        TypeError: if `data` is not a real number or a parent is not a `ParentLink`.

    Examples:
        >>> w = Value(2.0, "w"); x = Value(3.0, "x")
        >>> m = w * x
        >>> m.backward()
        >>> w.grad, x.grad
        (3.0, 2.0)
        >>> m.parents
        (ParentLink(value='w', local_grad=3), ParentLink(value='x', local_grad=2))
    """

    # Six slots and no __dict__ (see the module docstring for _u and _du); `data` is read from `_data`.
    __slots__ = ("_data", "grad", "label", "op", "_u", "_du")

    grad: float
    label: str
    op: str
    # Packed slots (see the module docstring), read by type at run time: typed loosely on purpose.
    _u: Any  # the tuple of ParentLinks, or (links not built yet) the first operand
    _du: Any  # None once built; else du (one operand) or (du, v, dv)

    def __init__(self, data: float, label: str = "", parents: Iterable[ParentLink] = (), op: str = "") -> None:
        self._data = data if type(data) is float else as_float(data, f"Value {label!r:.60}" if label else "Value")
        self.grad = 0.0
        self.label = label if type(label) is str else ("" if label is None else str(label))
        self.parents = parents
        self.op = op

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "__eq__" in cls.__dict__ or "__hash__" in cls.__dict__:
            global equality_overridden
            equality_overridden = True  # from now on the walk keys nodes by id()

    def _set_data(self, data: float) -> None:
        self._data = data if type(data) is float else as_float(data, f"{self!r}.data")

    def _refuse_delete(self) -> None:
        raise AttributeError(f"{self!r}: .data cannot be deleted (every op and figure reads it)")

    # Read through a C getter (no Python frame on the ops' hot path); every assignment is checked.
    data = property(
        attrgetter("_data"),
        _set_data,
        _refuse_delete,
        "The forward number (a float; any real number assigned is converted).",
    )

    @property
    def parents(self) -> tuple[ParentLink, ...]:
        """The `ParentLink`s to this value's direct operands, in operand order (empty for a leaf).

        Reading it always gives the same tuple of the same `ParentLink` objects; assigning a new
        tuple (or mutating a link) changes what `backward` follows.
        """
        du = self._du
        if du is None:
            return self._u  # type: ignore[no-any-return]  # _u holds the built links once _du is None
        # Made by an op: build the links once; from now on they are the truth.
        links = tuple([_link(parent, local) for parent, local in _edges(self)])
        self._u, self._du = links, None
        return links

    @parents.setter
    def parents(self, parents: Iterable[ParentLink]) -> None:
        if type(parents) is not tuple:
            try:
                parents = tuple(parents)
            except TypeError:
                raise TypeError(
                    f"Value {self.label!r}: parents must be an iterable of ParentLink objects (() for a leaf), "
                    f"got {type(parents).__name__} {parents!r:.60}"
                ) from None
        for link in parents:
            if type(link) is not ParentLink:
                raise TypeError(
                    f"Value {self.label!r}: parents must be ParentLink objects, got {type(link).__name__} {link!r:.60}"
                )
        self._u, self._du = parents, None

    def __repr__(self) -> str:
        name = f"{self.label!r}, " if self.label else ""
        return f"Value({name}data={self.data:g}, grad={self.grad:g})"

    # copy, deepcopy and pickle: see glassgrad.copying (no recursion, however deep the graph).
    def __reduce__(self) -> tuple[Any, ...]:
        return _copying.reduce_value(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        _copying.set_state(self, state)

    def __copy__(self) -> Value:
        return _copying.shallow_copy(self)

    def _repr_html_(self) -> str:
        """Compact rich display for Jupyter: label, data and grad."""
        from html import escape

        label = f"<b>{escape(self.label)}</b> " if self.label else ""
        return f'<span class="gg-value">{label}data <code>{self.data:g}</code> · grad <code>{self.grad:g}</code></span>'

    # Python operators, so that micrograd-style code runs unchanged.
    def __add__(self, other: Value | float) -> Value:
        return _ops.add(self, other)

    def __radd__(self, other: float) -> Value:
        return _ops.add(other, self)

    def __sub__(self, other: Value | float) -> Value:
        return _ops.subtract(self, other)

    def __rsub__(self, other: float) -> Value:
        return _ops.subtract(other, self)

    def __mul__(self, other: Value | float) -> Value:
        return _ops.multiply(self, other)

    def __rmul__(self, other: float) -> Value:
        return _ops.multiply(other, self)

    def __truediv__(self, other: Value | float) -> Value:
        return _ops.divide(self, other)

    def __rtruediv__(self, other: float) -> Value:
        return _ops.divide(other, self)

    def __pow__(self, exponent: float) -> Value:
        return _ops.power(self, exponent)

    def __neg__(self) -> Value:
        return _ops.negate(self)

    def relu(self) -> Value:
        """`max(0, self)`; see [glassgrad.relu][]."""
        return _ops.relu(self)

    def tanh(self) -> Value:
        """Hyperbolic tangent; see [glassgrad.tanh][]."""
        return _ops.tanh(self)

    def exp(self) -> Value:
        """`e ** self`; see [glassgrad.exponential][]."""
        return _ops.exponential(self)

    def log(self) -> Value:
        """Natural logarithm; see [glassgrad.log][]."""
        return _ops.log(self)

    def sigmoid(self) -> Value:
        """Logistic sigmoid; see [glassgrad.sigmoid][]."""
        return _ops.sigmoid(self)

    def backward(self, *, accumulate: bool = False) -> None:
        """Fill `.grad` of every value this one depends on (see [glassgrad.backward][]).

        ``accumulate=True`` adds into the existing gradients (PyTorch's semantics) instead of
        replacing them. Records no teaching trace; call `glassgrad.backward(value)` for the steps.
        Safe across threads as that function says: independent graphs always; graphs sharing
        values one pass at a time.
        """
        _autograd.backward(self, accumulate=accumulate, record=False)


equality_overridden = False  # has any subclass of Value defined __eq__ or __hash__? (see autograd._walk)

_new_object = object.__new__


# The slots' own setters: they skip ParentLink.__setattr__'s checks (and its Python frame).
_set_link_value = ParentLink.__dict__["value"].__set__
_set_link_local = ParentLink.__dict__["local_grad"].__set__


def _link(value: Value, local_grad: float) -> ParentLink:
    """A `ParentLink` built without the checks: an op stored a Value and a float."""
    link = _new_object(ParentLink)
    _set_link_value(link, value)
    _set_link_local(link, local_grad)
    return link


def _node(data: float, label: str, op: str, u: Value, du: float, v: Value | None = None, dv: float = 0.0) -> Value:
    """The output of an op on operand `u` (and `v`), with the local derivative `du` (and `dv`) of each.

    Skips `Value.__init__`'s checks: ops pass Values and floats they have just computed.
    """
    node = _new_object(Value)
    node._data = data if type(data) is float else as_float(data)
    node.grad = 0.0
    node.label = label if type(label) is str else ("" if label is None else str(label))  # as Value(…, None)
    node.op = op
    node._u = u  # the links stay unpacked until `parents` is read
    du = du if type(du) is float else as_float(du, "ParentLink.local_grad")
    node._du = du if v is None else (du, v, dv if type(dv) is float else as_float(dv, "ParentLink.local_grad"))
    return node


def _fused(data: float, label: str, op: str, operands: list[Value | None], local_grads: list[float]) -> Value:
    """The output of a fused op with any number of operands, one local derivative each (`weighted_sum`'s node).

    `operands` ends with None, one item longer than `local_grads`. Like `_node`, it skips `Value.__init__`'s
    checks: the caller passes Values and floats it has just computed.
    """
    node = _new_object(Value)
    node._data = data
    node.grad = 0.0
    node.label = label if type(label) is str else ("" if label is None else str(label))
    node.op = op
    node._u = tuple(operands)  # ParentLinks built when `parents` is first read
    node._du = local_grads
    return node


def _edges(node: Value) -> tuple[tuple[Value, float], ...]:
    """`(parent, local_grad)` for each of `node`'s links, without building `ParentLink` objects.

    What `backward` reads: the same pairs `node.parents` holds, whether or not it was built yet.
    """
    du = node._du
    if type(du) is float:
        return ((node._u, du),)
    if du is None:
        return tuple([(link.value, link.local_grad) for link in node._u])
    if type(du) is list:
        return tuple(zip(node._u, du))  # zip stops before the operands' closing None
    return ((node._u, du[0]), du[1:])


# Imported last: ops and autograd need Value defined first (the methods look them up at call time).
from glassgrad import autograd as _autograd  # noqa: E402
from glassgrad import copying as _copying  # noqa: E402
from glassgrad import ops as _ops  # noqa: E402

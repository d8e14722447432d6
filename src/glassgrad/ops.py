"""Operations: each computes its forward number and saves, per operand, the operand and its local derivative.

`Value.parents` reads these back as `ParentLink`s (built on the first read, see `glassgrad.value`).

Every function takes `Value`s (or plain numbers, which become constant leaves) and an
optional display `label`. Numbers follow IEEE float64 as PyTorch does: a division by
zero or an overflowing `exp` gives inf or nan instead of raising.
"""

from __future__ import annotations

import math

from glassgrad.value import Value, _node, as_float

_inf = math.inf
_nan = math.nan


def _value(u: Value | float) -> Value:
    """`u` itself if it is a Value, else a constant leaf holding it (TypeError for non-numbers).

    The ops test ``type(u) is Value`` inline first, so the common case makes no call.
    """
    return u if type(u) is Value or isinstance(u, Value) else Value(u)


def _div(a: float, b: float) -> float:
    """IEEE division: Python raises on ``x / 0.0``; PyTorch gives ±inf or nan."""
    try:
        return a / b
    except ZeroDivisionError:
        if a == 0.0 or a != a:
            return _nan
        return math.copysign(_inf, a) * math.copysign(1.0, b)


def _exp(a: float) -> float:
    """IEEE exp: overflow gives inf instead of raising."""
    try:
        return math.exp(a)
    except OverflowError:
        return _inf


def _pow(a: float, b: float) -> float:
    """IEEE pow: C's ``pow`` (nan for a negative base and fractional exponent, ±inf on overflow),
    except that ``x ** 0.5`` is ``sqrt(x)`` and ``x ** -0.5`` is ``1 / sqrt(x)``, as in PyTorch.

    The square-root path is why ``(-0.0) ** 0.5`` is -0.0 and ``(-inf) ** 0.5`` is nan, as in PyTorch.
    PyTorch also multiplies out other small integer exponents (``x * x * x`` for 3, ``1 / (x * x)``
    for -2), so those can differ from C's correctly rounded ``pow`` in the last bit.
    """
    if b == 0.5 or b == -0.5:
        root = _nan if a < 0.0 else math.sqrt(a)  # sqrt(-0.0) is -0.0; -0.0 < 0.0 is False
        return root if b > 0.0 else _div(1.0, root)
    try:
        return math.pow(a, b)
    except ValueError:  # 0 ** negative, or negative ** fraction
        if a == 0.0:
            odd = b.is_integer() and b % 2 == 1
            return math.copysign(_inf, a) if odd else _inf
        return _nan
    except OverflowError:
        odd = b.is_integer() and b % 2 == 1
        return -_inf if a < 0 and odd else _inf


def multiply(u: Value | float, v: Value | float, label: str = "") -> Value:
    """`u * v`; local derivatives ∂/∂u = v and ∂/∂v = u."""
    u = u if type(u) is Value else _value(u)
    v = v if type(v) is Value else _value(v)
    return _node(u._data * v._data, label, "×", u, v._data, v, u._data)


def add(u: Value | float, v: Value | float, label: str = "") -> Value:
    """`u + v`; both local derivatives are 1."""
    u = u if type(u) is Value else _value(u)
    v = v if type(v) is Value else _value(v)
    return _node(u._data + v._data, label, "+", u, 1.0, v, 1.0)


def subtract(u: Value | float, v: Value | float, label: str = "") -> Value:
    """`u - v`; local derivatives 1 and -1."""
    u = u if type(u) is Value else _value(u)
    v = v if type(v) is Value else _value(v)
    return _node(u._data - v._data, label, "−", u, 1.0, v, -1.0)


def square(u: Value | float, label: str = "") -> Value:
    """`u ** 2`; local derivative 2u."""
    u = u if type(u) is Value else _value(u)
    return _node(u._data * u._data, label, "²", u, 2.0 * u._data)


def negate(u: Value | float, label: str = "") -> Value:
    """`-u`; local derivative -1."""
    u = u if type(u) is Value else _value(u)
    return _node(-u._data, label, "−", u, -1.0)


def exponential(u: Value | float, label: str = "") -> Value:
    """`exp(u)`; the local derivative is the output itself."""
    u = u if type(u) is Value else _value(u)
    out = _exp(u._data)
    return _node(out, label, "exp", u, out)


def plus_one(u: Value | float, label: str = "") -> Value:
    """`1 + u`; local derivative 1."""
    u = u if type(u) is Value else _value(u)
    return _node(1.0 + u._data, label, "+1", u, 1.0)


def reciprocal(u: Value | float, label: str = "") -> Value:
    """`1 / u`; local derivative -1/u², computed as -s² from the output s (as PyTorch does)."""
    u = u if type(u) is Value else _value(u)
    s = _div(1.0, u._data)
    return _node(s, label, "1/x", u, -(s * s))


def sigmoid(u: Value | float, label: str = "") -> Value:
    """Logistic sigmoid `1 / (1 + exp(-u))`, one fused node with local derivative s(1 - s).

    The forward formula never overflows: for negative `u` it uses exp(u) / (1 + exp(u)).
    """
    u = u if type(u) is Value else _value(u)
    z = u._data
    if z >= 0:
        s = 1.0 / (1.0 + math.exp(-z))
    else:
        exp_z = math.exp(z)
        s = exp_z / (1.0 + exp_z)
    return _node(s, label, "σ", u, s * (1.0 - s))


def tanh(u: Value | float, label: str = "") -> Value:
    """Hyperbolic tangent t = tanh(u); local derivative 1 - t², computed as (1 - t)(1 + t).

    PyTorch computes it as fma(-t, t, 1), rounded once; the two differ in the last bit for about a third of inputs.
    """
    u = u if type(u) is Value else _value(u)
    t = math.tanh(u._data)
    return _node(t, label, "tanh", u, (1.0 - t) * (1.0 + t))  # no cancellation in 1 - t² near t = ±1


def relu(u: Value | float, label: str = "") -> Value:
    """`max(0, u)`; local derivative 1 where u > 0, else 0 (0 at u = 0, as PyTorch). nan stays nan."""
    u = u if type(u) is Value else _value(u)
    x = u._data
    if x <= 0.0:
        # x itself at ±0: PyTorch keeps the sign, relu(-0.0) = -0.0.
        return _node(0.0 if x < 0.0 else x, label, "ReLU", u, 0.0)
    return _node(x, label, "ReLU", u, 1.0)


def log(u: Value | float, label: str = "") -> Value:
    """Natural logarithm; local derivative 1/u. log(0) = -inf and log(negative) = nan, as PyTorch."""
    u = u if type(u) is Value else _value(u)
    x = u._data
    if x > 0.0:
        out = math.log(x)
    elif x == 0.0:
        out = -_inf
    else:
        out = _nan if x == x else x  # negative: nan; nan stays nan
    return _node(out, label, "log", u, _div(1.0, x))


def power(u: Value | float, exponent: float, label: str = "") -> Value:
    """`u ** exponent` for a plain-number exponent; local derivative exponent · u^(exponent-1).

    Raises:
        TypeError: if `exponent` is a `Value` or not a real number.
    """
    if isinstance(exponent, Value):
        raise TypeError("power: the exponent must be a plain number, not a Value (only u is differentiated)")
    p = as_float(exponent, "power exponent")
    u = u if type(u) is Value else _value(u)
    local = 0.0 if p == 0.0 else p * _pow(u._data, p - 1.0)
    exponent_text = f"{p:g}"
    # A whole exponent is written as a superscript (u ** 2 shows ², as `square` does); any other as ^p.
    op = exponent_text.translate(_SUPERSCRIPTS) if exponent_text.lstrip("-").isdigit() else f"^{exponent_text}"
    return _node(_pow(u._data, p), label, op, u, local)


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def divide(u: Value | float, v: Value | float, label: str = "") -> Value:
    """`u / v`; local derivatives 1/v and -u/v²."""
    u = u if type(u) is Value else _value(u)
    v = v if type(v) is Value else _value(v)
    a, b = u._data, v._data
    out = _div(a, b)
    # -(u/v)/v from the output, as PyTorch: -u/v² would overflow or underflow in v² first.
    return _node(out, label, "÷", u, _div(1.0, b), v, _div(-out, b))

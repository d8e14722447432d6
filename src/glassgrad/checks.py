"""Central-difference gradient checking."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from glassgrad.autograd import backward
from glassgrad.value import Value, as_float


def gradcheck(fn: Callable[..., Value], inputs: Sequence[float], eps: float = 1e-6) -> float:
    """Compare the engine's gradients of `fn` at `inputs` with central differences; return the largest error.

    `fn` takes one `Value` per input and returns a scalar `Value`. For each input the
    numerical slope is ``(fn(x + eps) - fn(x - eps)) / (2 eps)``; the error is
    ``|engine - numerical| / max(1, |engine|, |numerical|)`` (absolute near zero,
    relative for large gradients). Where either is inf or nan and the two differ, the error is
    ``inf``: a broken derivative can never score well.

    Raises:
        TypeError: if `fn` does not return a `Value` or an input is not a number.
        ValueError: if `eps` is not a positive finite number.

    Examples:
        >>> gradcheck(lambda a, b: a * b + a.tanh(), [0.3, -1.2]) < 1e-8
        True
    """
    step = as_float(eps, "gradcheck eps")
    if not (0.0 < step < math.inf):
        raise ValueError(f"gradcheck: eps must be a positive finite step such as 1e-6, got {eps!r}")
    points = [as_float(x, "gradcheck input") for x in inputs]
    leaves = [Value(x) for x in points]
    out = fn(*leaves)
    if not isinstance(out, Value):
        raise TypeError(f"gradcheck: fn must return a Value, got {type(out).__name__} {out!r:.60}")
    backward(out, record=False)
    worst = 0.0
    for i, leaf in enumerate(leaves):
        up = [Value(x + step if j == i else x) for j, x in enumerate(points)]
        down = [Value(x - step if j == i else x) for j, x in enumerate(points)]
        numerical = (fn(*up).data - fn(*down).data) / (2.0 * step)
        analytic = leaf.grad
        if not (math.isfinite(analytic) and math.isfinite(numerical)):
            if analytic == numerical or (math.isnan(analytic) and math.isnan(numerical)):
                continue  # both inf of one sign, or both nan: they agree, and there is no finite error
            return math.inf  # one is inf or nan and the other is not: the worst possible disagreement
        error = abs(analytic - numerical) / max(1.0, abs(analytic), abs(numerical))
        worst = max(worst, error)
    return worst

"""What every check shares: the `Verdict` it returns, the words that name what a reader gave, and the
exceptions that carry a failure out of a check."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

TRIALS = 6
"""Random inputs per exercise (besides the cases each exercise always adds, such as u = 0 for power)."""


# ---------------------------------------------------------------- small helpers


def num(x: float) -> str:
    """A number as messages show it: short, but never hiding a difference (see `pair`)."""
    return f"{x:.6g}" if isinstance(x, float) else repr(x)


def pair(expected: float, given: float) -> tuple[str, str]:
    """Both numbers, with enough digits that two different ones never print alike."""
    a, b = num(expected), num(given)
    return (a, b) if a != b else (repr(expected), repr(given))


def is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)


def same(given: object, expected: float) -> bool:
    """`given` is a number close to `expected`."""
    return is_number(given) and close(float(given), expected)  # type: ignore[arg-type]


def kind_of(thing: object) -> str:
    """The type of `thing` in words, with its article: ``"an int"``, ``"a str"``, ``"a Value"``."""
    name = type(thing).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def safe_repr(thing: object, limit: int = 60) -> str:
    """``repr(thing)`` for a message, cut to `limit` characters; its type's name if its ``__repr__`` fails."""
    try:
        text = repr(thing)
    except BaseException:  # the reader's class: a broken __repr__ must not break the message
        return f"{kind_of(thing)} object"
    if not isinstance(text, str):
        return f"{kind_of(thing)} object"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(thing: object) -> str:
    """What the reader's code gave, for a message: a number short, anything else with its type."""
    if is_number(thing):
        return num(float(thing))  # type: ignore[arg-type]
    text = safe_repr(thing)
    return text if text == f"{kind_of(thing)} object" else f"{text} ({kind_of(thing)})"


def name(node: Any) -> str:
    label = getattr(node, "label", "")
    return label if isinstance(label, str) and label else "?"


def is_link(thing: object) -> bool:
    return hasattr(thing, "value") and hasattr(thing, "local_grad")


@dataclass
class Verdict:
    """The checker's answer for `exercise`: `passed`, a `message` for the reader, and what to draw.

    When an edge is wrong, `edge` names it (``∂q/∂u``), `operand` the operand it points to, `expected`
    and `given` are the local derivatives (or gradients), `inputs` the numbers the checker tried, `graph`
    is the root of the small graph to draw and `marked` the ``(output, k)`` edges to mark; `show_grad`
    draws each ``.grad``. `answer` is the right formula (or fix), kept out of `message` so that a page can
    hold it back until the reader asks. When the reader's code raised, `error` is the exception and
    `doing` says what the checker was doing (``checking divide(u, v) at u = 1, v = 2``).
    """

    exercise: str
    passed: bool
    message: str
    graph: Any = None
    marked: Sequence[tuple[Any, int]] = ()
    operand: str | None = None
    expected: float | None = None
    given: float | None = None
    show_grad: bool = False
    inputs: dict[str, float] | None = None
    edge: str | None = None
    answer: str = ""
    error: BaseException | None = None
    doing: str = ""


class _Failed(Exception):
    """Carries a failed `Verdict` out of the depths of a check."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.message)
        self.verdict = verdict


class _ReaderError(Exception):
    """The exception `error`, raised by the reader's code while the checker was `doing` something."""

    def __init__(self, doing: str, error: BaseException) -> None:
        super().__init__(doing)
        self.doing = doing
        self.error = error


def call(doing: str, fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except BaseException as error:  # the reader's code: any error (exit(), an interrupt) becomes a verdict
        raise _ReaderError(doing, error) from None


def not_a_function(exercise: str, given: Any, signature: str) -> Verdict:
    """The verdict when the reader's name holds something other than a function."""
    function = signature.split("(")[0]
    return Verdict(exercise, False, f"{function} is {kind_of(given)}; define it as a function: def {signature}:")


def not_a_number(exercise: str, what: str, given: object, ending: str, answer: str) -> Verdict:
    """The verdict when `what` (``The new w``) is `given`, which is not a number; `ending` closes the message."""
    return Verdict(exercise, False, f"{what} is {shown(given)}, not a number{ending}", answer=answer)


def fail(exercise: str, message: str, **details: Any) -> _Failed:
    return _Failed(Verdict(exercise, False, message, **details))

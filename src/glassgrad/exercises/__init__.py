"""The exercises of the tutorial, and the checker that grades a reader's answer to each.

The reader writes code for chapter 2's engine (`glassgrad.scratch`): an operation, a fix, a
dependency-safe order, the heart of `backward`, a training step, forward mode. `check` takes the names the
reader's program defined (its globals) and tries them on new random inputs each time (negative
numbers and whole-number powers included where the operation allows them), against a graph the
checker builds itself, node by node and link by link. It returns a `Verdict`, plain data: passed,
or the first wrong thing, named (the edge, the numbers, the graph to draw with that edge marked),
with the right formula kept apart in `answer`. It draws nothing and imports nothing to draw: the
site's runtime (or anyone with `glassgrad.viz`) draws the verdict. An error raised by the reader's
code, or anything odd the reader's code returns, fails the verdict; it never escapes as an exception.

Examples:
    >>> program = '''
    ... from glassgrad.scratch import ParentLink, Value
    ... def divide(u, v, label=""):
    ...     return Value(u.data / v.data, label,
    ...                  parents=(ParentLink(u, 1 / v.data), ParentLink(v, 1 / v.data)), op="/")
    ... '''
    >>> namespace = {}
    >>> exec(program, namespace)
    >>> verdict = check("divide", namespace)
    >>> verdict.passed, verdict.edge
    (False, '∂q/∂v')
    >>> verdict.answer
    'The right formula, in the starting code: dq_dv = -u.data / (v.data * v.data)'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from glassgrad.exercises.backward import _check_backward
from glassgrad.exercises.forward import _check_forward
from glassgrad.exercises.operations import OPERATIONS, _check_operation
from glassgrad.exercises.order import _check_order
from glassgrad.exercises.training import _check_train_step
from glassgrad.exercises.verdict import TRIALS, Verdict, _Failed, _ReaderError, kind_of, safe_repr

__all__ = ["CHECKERS", "EXERCISES", "TRIALS", "Exercise", "Verdict", "check", "kind_of", "safe_repr"]

# ---------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class Exercise:
    """One exercise: its key `name`, the `defines` the reader's program must define, and its title."""

    name: str
    title: str
    defines: str


EXERCISES = {
    exercise.name: exercise
    for exercise in (
        Exercise("divide", "Divide", "divide"),
        Exercise("tanh", "tanh", "tanh"),
        Exercise("power", "Power", "power"),
        Exercise("sigmoid", "Fix the sigmoid", "sigmoid"),
        Exercise("order", "A dependency-safe order", "order"),
        Exercise("backward", "Accumulate in backward", "backward"),
        Exercise("train-step", "One training step", "train_step"),
        Exercise("forward", "Forward mode", "tangents"),
    )
}
"""Every exercise, by name, in the page's order."""

Checker = Callable[[Any, dict[str, Any], str, random.Random], Verdict]
"""A family's check: (the reader's answer, the program's names, the exercise, the random inputs) -> a Verdict."""


def _operation(name: str) -> Checker:
    return lambda answer, namespace, exercise, rng: _check_operation(OPERATIONS[name], answer, exercise, rng)


CHECKERS: dict[str, Checker] = {
    **{name: _operation(name) for name in OPERATIONS},
    "order": lambda answer, namespace, exercise, rng: _check_order(answer, namespace, exercise),
    "backward": lambda answer, namespace, exercise, rng: _check_backward(answer, exercise, rng),
    "train-step": lambda answer, namespace, exercise, rng: _check_train_step(answer, exercise, rng),
    "forward": lambda answer, namespace, exercise, rng: _check_forward(answer, exercise, rng),
}
"""Each exercise's checker, by name."""


def check(name: str, namespace: dict[str, Any], seed: int | None = None) -> Verdict:
    """Check the names a reader's program defined (`namespace`, as filled by ``exec`` or ``runpy``) for exercise `name`.

    Random inputs come from ``random.Random(seed)``: the same seed, the same inputs and messages; without a
    seed, new inputs every time. Whatever the reader's code does (raise, return odd objects, change the
    graph it is given), the answer is a `Verdict`: an error the reader's code raised is its `error`.

    Raises:
        KeyError: if `name` is not an exercise (the message lists them).
    """
    if name not in EXERCISES:
        raise KeyError(f"no exercise {name!r}; the exercises are {', '.join(EXERCISES)}")
    defines = EXERCISES[name].defines
    if defines not in namespace:
        return Verdict(
            name, False, f"The program defines no {defines}: keep the name {defines} from the starting code."
        )
    answer = namespace[defines]
    rng = random.Random(seed)
    try:
        return CHECKERS[name](answer, namespace, name, rng)
    except _Failed as failed:
        return failed.verdict
    except _ReaderError as failure:
        doing = f"checking {failure.doing}"
        return Verdict(name, False, f"While {doing}:\n{_error_text(failure.error)}", error=failure.error, doing=doing)
    except BaseException as error:  # an object of the reader's that cannot be read (a property that raises, ...)
        doing = "reading what your code returned"
        return Verdict(name, False, f"While {doing}:\n{_error_text(error)}", error=error, doing=doing)


def _error_text(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # the reader's exception class, with a broken __str__
        text = ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__

"""The operation exercises (divide, tanh, power, the sigmoid fix): the reader's node against the checker's,
field by field and link by link, and each slope against a finite difference."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from glassgrad import scratch
from glassgrad.exercises import verdict
from glassgrad.exercises.verdict import TRIALS, Verdict, kind_of
from glassgrad.protocol import is_value

# ---------------------------------------------------------------- operations

Case = tuple[tuple[float, ...], tuple[float, ...]]
"""The inputs of one try of an operation: (operands, constants)."""


@dataclass(frozen=True)
class Rule:
    """One local derivative of an operation: the rule in symbols, the rule with a case's numbers put in, the line
    of the starting code that computes it, and wrong rules a learner often writes (each with its number)."""

    symbols: str  # the right side of ∂output/∂operand = ...
    worked: Callable[..., str]  # (*operands, *constants) -> the symbols with the numbers put in, and the result
    code: str
    mistakes: tuple[tuple[str, str, Callable[..., float]], ...] = ()  # (symbols, what is wrong, its number)


@dataclass(frozen=True)
class _Operation:
    """An operation exercise: the reader defines ``function(*operands, *constants, label="")``.

    `draw` makes one random case; `always` the cases every check adds (drawn too: a negative number
    with a whole-number power, u = 0 where the derivative exists there).
    """

    function: str
    operands: tuple[str, ...]
    output: str
    formula: str  # the value, as the answer writes it
    value: Callable[..., float]
    rules: tuple[Rule, ...]  # ∂output/∂operand, one per operand
    local_grads: Callable[..., tuple[float, ...]]
    draw: Callable[[random.Random], Case]
    constants: tuple[str, ...] = ()
    always: Callable[[random.Random], list[Case]] = field(default=lambda rng: [])

    def where(self, case: Case) -> str:
        return ", ".join(f"{name} = {verdict.num(x)}" for name, x in self.named(case).items())

    def named(self, case: Case) -> dict[str, float]:
        operands, constants = case
        return dict(zip((*self.operands, *self.constants), (*operands, *constants)))


def _apply(spec: _Operation, fn: Callable[..., Any], case: Case, exercise: str) -> tuple[Any, list[Any]]:
    """Call the reader's function on `case`; return what it returned (checked to be a Value) and the operands."""
    operands, constants = case
    leaves = [scratch.Value(x, name) for name, x in zip(spec.operands, operands)]
    call = f"{spec.function}({', '.join((*spec.operands, *spec.constants))}) at {spec.where(case)}"
    out = verdict.call(call, fn, *leaves, *constants)
    if out is None:
        raise verdict.fail(exercise, f"{spec.function} returned None: end it with `return Value(...)`.")
    if not is_value(out):
        raise verdict.fail(
            exercise,
            f"{spec.function} returned {kind_of(out)}, not a Value: return Value(...) with its parents.",
        )
    return out, leaves


def _compare(spec: _Operation, out: Any, leaves: list[Any], case: Case, exercise: str) -> None:
    """Compare what the reader's function built at `case` with the checker's own node, field by field and
    link by link; raise `_Failed` at the first difference."""
    name, where, inputs = spec.output, spec.where(case), spec.named(case)
    if getattr(out, "label", None) == "":
        out.label = name  # for the figure: the checker called the function without a label
    expected_value = spec.value(*case[0], *case[1])
    if not verdict.same(out.data, expected_value):
        want, got = (
            verdict.pair(expected_value, float(out.data))
            if verdict.is_number(out.data)
            else (verdict.num(expected_value), verdict.shown(out.data))
        )
        raise verdict.fail(
            exercise,
            f"The value is wrong at {where}.\n{name}.data should be {want}; yours is {got}.",
            answer=f"The value: {name}.data = {spec.formula}.",
            expected=expected_value,
            given=float(out.data) if verdict.is_number(out.data) else None,
            inputs=inputs,
        )
    parents = out.parents
    count = len(spec.operands)
    needed = "one ParentLink" if count == 1 else f"{count} ParentLinks, one per operand ({', '.join(spec.operands)})"
    if not isinstance(parents, (tuple, list)):
        raise verdict.fail(exercise, f"{name}.parents is {kind_of(parents)}; make it a tuple of {needed}.")
    for k, link in enumerate(parents):
        if is_value(link) and not verdict.is_link(link):
            raise verdict.fail(
                exercise,
                f"`parents` holds Values; wrap each in `ParentLink(value, local_grad)`: {name}.parents[{k}] is "
                f"{verdict.name(link)} itself, with no local derivative.",
            )
        if not verdict.is_link(link):
            raise verdict.fail(
                exercise, f"{name}.parents[{k}] is {verdict.shown(link)}, not a ParentLink(value, local_grad)."
            )
    if len(parents) != count:
        raise verdict.fail(
            exercise, f"{name} has {len(parents)} ParentLink(s); {spec.function} needs {needed}.", graph=out
        )
    for k, (link, leaf) in enumerate(zip(parents, leaves)):
        if link.value is not leaf:
            other = next((o for o in leaves if link.value is o), None)
            pointed = f"to {other.label}" if other is not None else "to something that is not an operand"
            raise verdict.fail(
                exercise,
                f"{name}.parents[{k}] points {pointed}; it should point to {leaf.label}, the operand number {k + 1}: "
                f"ParentLink({leaf.label}, ∂{name}/∂{leaf.label}).",
                graph=out if other is not None else None,
                marked=[(out, k)] if other is not None else (),
                operand=leaf.label,
            )
    expected_locals = spec.local_grads(*case[0], *case[1])
    for k, (link, leaf, expected) in enumerate(zip(parents, leaves, expected_locals)):
        given, edge = link.local_grad, f"∂{name}/∂{leaf.label}"
        if verdict.same(given, expected):
            continue
        if not verdict.is_number(given):
            raise verdict.fail(
                exercise,
                f"The edge {edge} holds {verdict.shown(given)}: a local derivative is a number, computed from the operands' "
                f"data.\nThe rule: {edge} = {spec.rules[k].symbols}.",
                graph=None,
                edge=edge,
                operand=leaf.label,
                answer=_fix(spec.rules[k]),
            )
        want, got = verdict.pair(expected, float(given))
        rule = spec.rules[k]
        mistake = next(
            (
                f"{symbols} here: {why}"
                for symbols, why, wrong in rule.mistakes
                if verdict.close(given, wrong(*case[0], *case[1]))
            ),
            None,
        )
        hint = ""
        if mistake is not None:  # a mistake learners often make says more than its sign
            hint = f"\nYour number is {mistake}."
        elif verdict.close(given, -expected):
            hint = "\nThe sign is flipped."
        elif any(verdict.close(given, other) for j, other in enumerate(expected_locals) if j != k):
            hint = "\nThat is the derivative for the other operand: are the two swapped?"
        raise verdict.fail(
            exercise,
            f"The edge {edge} is wrong at {where}.\nAt these inputs {edge} = {want}; your ParentLink to {leaf.label} "
            f"holds {got}.{hint}\nThe rule: {edge} = {rule.symbols}.\nAt {where}: {rule.worked(*case[0], *case[1])}.",
            answer=_fix(rule),
            edge=edge,
            graph=out,
            marked=[(out, k)],
            operand=leaf.label,
            expected=expected,
            given=float(given),
            inputs=inputs,
        )


def _fix(rule: Rule) -> str:
    """The right line of the starting code, which `answer` holds back until the reader asks."""
    return f"The right formula, in the starting code: {rule.code}"


def _slope_error(spec: _Operation, fn: Callable[..., Any], case: Case, k: int, exercise: str) -> float:
    """How far the slope of the reader's function along operand `k` near `case` (central finite differences)
    is from its local derivative there, relative to its size."""
    operands, constants = case
    step = 1e-6 * max(1.0, abs(operands[k]))
    ends = []
    for sign in (1, -1):
        moved = tuple(x + sign * step if j == k else x for j, x in enumerate(operands))
        out, leaves = _apply(spec, fn, (moved, constants), exercise)
        _compare(spec, out, leaves, (moved, constants), exercise)  # right there too, links and all
        ends.append(float(out.data))
    slope = (ends[0] - ends[1]) / (2 * step)
    expected = spec.local_grads(*operands, *constants)[k]
    return abs(slope - expected) / max(1.0, abs(expected))


def _check_operation(spec: _Operation, fn: Any, exercise: str, rng: random.Random) -> Verdict:
    if not callable(fn):
        return verdict.not_a_function(exercise, fn, f"{spec.function}(...)")
    cases = [spec.draw(rng) for _ in range(TRIALS)] + spec.always(rng)
    for case in cases:
        out, leaves = _apply(spec, fn, case, exercise)
        _compare(spec, out, leaves, case, exercise)
    worst = 0.0
    for case in cases:
        for k in range(len(spec.operands)):
            error = _slope_error(spec, fn, case, k, exercise)
            if error > 1e-4:  # right at each input, yet not in between: a value that jumps, a table of answers
                raise verdict.fail(
                    exercise,
                    f"Near {spec.where(case)} the value of your {spec.function} does not change as its local "
                    f"derivative says (finite differences differ by {error:.2g}): compute the value from the operands.",
                    inputs=spec.named(case),
                )
            worst = max(worst, error)
    negatives = " (negative ones too)" if any(x < 0 for case in cases for x in case[0]) else ""
    return Verdict(
        exercise,
        True,
        f"Passed: at {len(cases)} new inputs{negatives} the value and every local derivative match the checker's "
        f"own, and finite differences agree (largest error {worst:.1g}).",
    )


def rounded(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), 2)


def away_from_zero(rng: random.Random, low: float = 0.5, high: float = 3.0) -> float:
    return rng.choice((-1, 1)) * rounded(rng, low, high)


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


WHOLE_POWERS = (2.0, 3.0, 4.0, -1.0, -2.0)
"""Powers k for which u ** k is defined at a negative u too."""

FRACTIONAL_POWERS = (0.5, 1.5, 2.5)
"""Powers k for which the check keeps u > 0 (a negative number has no real square root)."""


def _power_case(rng: random.Random) -> Case:
    if rng.random() < 0.6:
        return (away_from_zero(rng, 0.3, 3.0),), (rng.choice(WHOLE_POWERS),)
    return (rounded(rng, 0.3, 3.0),), (rng.choice(FRACTIONAL_POWERS),)


def _in(x: float) -> str:
    """A number put into a formula: in brackets when negative."""
    return f"({verdict.num(x)})" if x < 0 else verdict.num(x)


def _tanh_worked(u: float) -> str:
    t = math.tanh(u)
    return f"t = tanh({verdict.num(u)}) = {verdict.num(t)}, so 1 − t² = 1 − {_in(t)}² = {verdict.num(1 - t * t)}"


def _sigmoid_worked(z: float) -> str:
    s = _sigmoid(z)
    return f"s = σ({verdict.num(z)}) = {verdict.num(s)}, so s(1 − s) = {verdict.num(s)} · (1 − {verdict.num(s)}) = {verdict.num(s * (1 - s))}"


OPERATIONS = {
    "divide": _Operation(
        "divide",
        ("u", "v"),
        "q",
        "u / v",
        lambda u, v: u / v,
        (
            Rule(
                "1/v (u / v is u times the constant 1/v)",
                lambda u, v: f"1/v = 1/{_in(v)} = {verdict.num(1 / v)}",
                "dq_du = 1.0 / v.data",
                (
                    ("v", "the rule has 1 over v", lambda u, v: v),
                    ("1/v²", "v is not squared here", lambda u, v: 1 / (v * v)),
                ),
            ),
            Rule(
                "−u/v² (the derivative of 1/v is −1/v²)",
                lambda u, v: f"−u/v² = −{_in(u)}/{_in(v)}² = {verdict.num(-u / (v * v))}",
                "dq_dv = -u.data / (v.data * v.data)",
                (
                    ("−1/v²", "the factor u is missing", lambda u, v: -1 / (v * v)),
                    ("−u/v", "v is not squared", lambda u, v: -u / v),
                ),
            ),
        ),
        lambda u, v: (1 / v, -u / (v * v)),
        lambda rng: ((rounded(rng, -3, 3), away_from_zero(rng)), ()),
        always=lambda rng: [((-rounded(rng, 0.5, 3), -rounded(rng, 0.5, 3)), ())],
    ),
    "tanh": _Operation(
        "tanh",
        ("u",),
        "t",
        "tanh(u)",
        math.tanh,
        (
            Rule(
                "1 − t², written with the output t = tanh(u)",
                _tanh_worked,
                "dt_du = 1.0 - t * t",
                (
                    ("1 − t", "t is not squared", lambda u: 1 - math.tanh(u)),
                    ("1 + t²", "the sign before t² is flipped", lambda u: 1 + math.tanh(u) ** 2),
                    ("1 − u²", "the input u stands where the output t belongs", lambda u: 1 - u * u),
                ),
            ),
        ),
        lambda u: (1 - math.tanh(u) ** 2,),
        lambda rng: ((rounded(rng, -2.5, 2.5),), ()),
        always=lambda rng: [((-rounded(rng, 0.3, 2.5),), ()), ((0.0,), ())],
    ),
    "power": _Operation(
        "power",
        ("u",),
        "p",
        "u ** k",
        lambda u, k: u**k,
        (
            Rule(
                "k·u^(k−1) (the power rule)",
                lambda u, k: f"k·u^(k−1) = {verdict.num(k)} · {_in(u)}^{_in(k - 1)} = {verdict.num(k * u ** (k - 1))}",
                "dp_du = k * u.data ** (k - 1)",
                (
                    ("u^(k−1)", "the factor k is missing", lambda u, k: u ** (k - 1)),
                    ("k·u^k", "the power is not lowered by one", lambda u, k: k * u**k),
                ),
            ),
        ),
        lambda u, k: (k * u ** (k - 1),),
        _power_case,
        constants=("k",),
        always=lambda rng: [
            ((-rounded(rng, 0.3, 3),), (2.0,)),  # abs(u) ** k has the right value here, not the right slope
            ((-rounded(rng, 0.3, 3),), (3.0,)),
            ((rounded(rng, 0.3, 3),), (rng.choice(FRACTIONAL_POWERS),)),
            ((0.0,), (2.0,)),
        ],
    ),
    "sigmoid": _Operation(
        "sigmoid",
        ("z",),
        "s",
        "σ(z) = 1 / (1 + exp(-z))",
        _sigmoid,
        (
            Rule(
                "s(1 − s), written with the output s = σ(z)",
                _sigmoid_worked,
                "ds_dz = s * (1.0 - s)",
                (
                    ("s²", "s times s, where the rule has s times (1 − s)", lambda z: _sigmoid(z) ** 2),
                    ("1 − s", "the factor s is missing", lambda z: 1 - _sigmoid(z)),
                    ("s", "the factor (1 − s) is missing", _sigmoid),
                ),
            ),
        ),
        lambda z: (_sigmoid(z) * (1 - _sigmoid(z)),),
        lambda rng: ((rounded(rng, -4, 4),), ()),
        always=lambda rng: [((-rounded(rng, 0.5, 4),), ())],
    ),
}

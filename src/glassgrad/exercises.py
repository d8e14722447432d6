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
    'The local derivative: ∂q/∂v = -u / v².'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from glassgrad import scratch

TRIALS = 6
"""Random inputs per exercise (besides the cases each exercise always adds, such as u = 0 for power)."""


# ---------------------------------------------------------------- small helpers


def _num(x: float) -> str:
    """A number as messages show it: short, but never hiding a difference (see `_pair`)."""
    return f"{x:.6g}" if isinstance(x, float) else repr(x)


def _pair(expected: float, given: float) -> tuple[str, str]:
    """Both numbers, with enough digits that two different ones never print alike."""
    a, b = _num(expected), _num(given)
    return (a, b) if a != b else (repr(expected), repr(given))


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)


def _same(given: object, expected: float) -> bool:
    """`given` is a number close to `expected`."""
    return _is_number(given) and _close(float(given), expected)  # type: ignore[arg-type]


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


def _given(thing: object) -> str:
    """What the reader's code gave, for a message: a number short, anything else with its type."""
    if _is_number(thing):
        return _num(float(thing))  # type: ignore[arg-type]
    shown = safe_repr(thing)
    return shown if shown == f"{kind_of(thing)} object" else f"{shown} ({kind_of(thing)})"


def _name(node: Any) -> str:
    label = getattr(node, "label", "")
    return label if isinstance(label, str) and label else "?"


def _is_value(thing: object) -> bool:
    return all(hasattr(thing, name) for name in ("data", "grad", "parents"))


def _is_link(thing: object) -> bool:
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


def _call(doing: str, fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except BaseException as error:  # the reader's code: any error (exit(), an interrupt) becomes a verdict
        raise _ReaderError(doing, error) from None


def _not_a_function(exercise: str, given: Any, signature: str) -> Verdict:
    """The verdict when the reader's name holds something other than a function."""
    name = signature.split("(")[0]
    return Verdict(exercise, False, f"{name} is {kind_of(given)}; define it as a function: def {signature}:")


# ---------------------------------------------------------------- operations

Case = tuple[tuple[float, ...], tuple[float, ...]]
"""The inputs of one try of an operation: (operands, constants)."""


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
    local_formulas: tuple[str, ...]  # ∂output/∂operand, one per operand
    local_grads: Callable[..., tuple[float, ...]]
    draw: Callable[[random.Random], Case]
    constants: tuple[str, ...] = ()
    always: Callable[[random.Random], list[Case]] = field(default=lambda rng: [])

    def where(self, case: Case) -> str:
        return ", ".join(f"{name} = {_num(x)}" for name, x in self.named(case).items())

    def named(self, case: Case) -> dict[str, float]:
        operands, constants = case
        return dict(zip((*self.operands, *self.constants), (*operands, *constants)))


def _fail(exercise: str, message: str, **details: Any) -> _Failed:
    return _Failed(Verdict(exercise, False, message, **details))


def _apply(spec: _Operation, fn: Callable[..., Any], case: Case, exercise: str) -> tuple[Any, list[Any]]:
    """Call the reader's function on `case`; return what it returned (checked to be a Value) and the operands."""
    operands, constants = case
    leaves = [scratch.Value(x, name) for name, x in zip(spec.operands, operands)]
    call = f"{spec.function}({', '.join((*spec.operands, *spec.constants))}) at {spec.where(case)}"
    out = _call(call, fn, *leaves, *constants)
    if out is None:
        raise _fail(exercise, f"{spec.function} returned None: end it with `return Value(...)`.")
    if not _is_value(out):
        raise _fail(
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
    if not _same(out.data, expected_value):
        want, got = (
            _pair(expected_value, float(out.data)) if _is_number(out.data) else (_num(expected_value), _given(out.data))
        )
        raise _fail(
            exercise,
            f"The value is wrong at {where}.\n{name}.data should be {want}; yours is {got}.",
            answer=f"The value: {name}.data = {spec.formula}.",
            expected=expected_value,
            given=float(out.data) if _is_number(out.data) else None,
            inputs=inputs,
        )
    parents = out.parents
    count = len(spec.operands)
    needed = "one ParentLink" if count == 1 else f"{count} ParentLinks, one per operand ({', '.join(spec.operands)})"
    if not isinstance(parents, (tuple, list)):
        raise _fail(exercise, f"{name}.parents is {kind_of(parents)}; make it a tuple of {needed}.")
    for k, link in enumerate(parents):
        if _is_value(link) and not _is_link(link):
            raise _fail(
                exercise,
                f"`parents` holds Values; wrap each in `ParentLink(value, local_grad)`: {name}.parents[{k}] is "
                f"{_name(link)} itself, with no local derivative.",
            )
        if not _is_link(link):
            raise _fail(exercise, f"{name}.parents[{k}] is {_given(link)}, not a ParentLink(value, local_grad).")
    if len(parents) != count:
        raise _fail(exercise, f"{name} has {len(parents)} ParentLink(s); {spec.function} needs {needed}.", graph=out)
    for k, (link, leaf) in enumerate(zip(parents, leaves)):
        if link.value is not leaf:
            other = next((o for o in leaves if link.value is o), None)
            pointed = f"to {other.label}" if other is not None else "to something that is not an operand"
            raise _fail(
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
        if _same(given, expected):
            continue
        if not _is_number(given):
            raise _fail(
                exercise,
                f"The edge {edge} holds {_given(given)}: a local derivative is a number, computed from the operands' data.",
                graph=None,
                edge=edge,
                operand=leaf.label,
                answer=f"The local derivative: {edge} = {spec.local_formulas[k]}.",
            )
        want, got = _pair(expected, float(given))
        hint = ""
        if _close(given, -expected):
            hint = "\nThe sign is flipped."
        elif any(_close(given, other) for j, other in enumerate(expected_locals) if j != k):
            hint = "\nThat is the derivative for the other operand: are the two swapped?"
        raise _fail(
            exercise,
            f"The edge {edge} is wrong at {where}.\nAt these inputs {edge} = {want}; your ParentLink to {leaf.label} holds {got}.{hint}",
            answer=f"The local derivative: {edge} = {spec.local_formulas[k]}.",
            edge=edge,
            graph=out,
            marked=[(out, k)],
            operand=leaf.label,
            expected=expected,
            given=float(given),
            inputs=inputs,
        )


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
        return _not_a_function(exercise, fn, f"{spec.function}(...)")
    cases = [spec.draw(rng) for _ in range(TRIALS)] + spec.always(rng)
    for case in cases:
        out, leaves = _apply(spec, fn, case, exercise)
        _compare(spec, out, leaves, case, exercise)
    worst = 0.0
    for case in cases:
        for k in range(len(spec.operands)):
            error = _slope_error(spec, fn, case, k, exercise)
            if error > 1e-4:  # right at each input, yet not in between: a value that jumps, a table of answers
                raise _fail(
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


def _rounded(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), 2)


def _away_from_zero(rng: random.Random, low: float = 0.5, high: float = 3.0) -> float:
    return rng.choice((-1, 1)) * _rounded(rng, low, high)


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


WHOLE_POWERS = (2.0, 3.0, 4.0, -1.0, -2.0)
"""Powers k for which u ** k is defined at a negative u too."""

FRACTIONAL_POWERS = (0.5, 1.5, 2.5)
"""Powers k for which the check keeps u > 0 (a negative number has no real square root)."""


def _power_case(rng: random.Random) -> Case:
    if rng.random() < 0.6:
        return (_away_from_zero(rng, 0.3, 3.0),), (rng.choice(WHOLE_POWERS),)
    return (_rounded(rng, 0.3, 3.0),), (rng.choice(FRACTIONAL_POWERS),)


OPERATIONS = {
    "divide": _Operation(
        "divide",
        ("u", "v"),
        "q",
        "u / v",
        lambda u, v: u / v,
        ("1 / v", "-u / v²"),
        lambda u, v: (1 / v, -u / (v * v)),
        lambda rng: ((_rounded(rng, -3, 3), _away_from_zero(rng)), ()),
        always=lambda rng: [((-_rounded(rng, 0.5, 3), -_rounded(rng, 0.5, 3)), ())],
    ),
    "tanh": _Operation(
        "tanh",
        ("u",),
        "t",
        "tanh(u)",
        math.tanh,
        ("1 - t²",),
        lambda u: (1 - math.tanh(u) ** 2,),
        lambda rng: ((_rounded(rng, -2.5, 2.5),), ()),
        always=lambda rng: [((-_rounded(rng, 0.3, 2.5),), ()), ((0.0,), ())],
    ),
    "power": _Operation(
        "power",
        ("u",),
        "p",
        "u ** k",
        lambda u, k: u**k,
        ("k · u ** (k - 1)",),
        lambda u, k: (k * u ** (k - 1),),
        _power_case,
        constants=("k",),
        always=lambda rng: [
            ((-_rounded(rng, 0.3, 3),), (2.0,)),  # abs(u) ** k has the right value here, not the right slope
            ((-_rounded(rng, 0.3, 3),), (3.0,)),
            ((_rounded(rng, 0.3, 3),), (rng.choice(FRACTIONAL_POWERS),)),
            ((0.0,), (2.0,)),
        ],
    ),
    "sigmoid": _Operation(
        "sigmoid",
        ("z",),
        "s",
        "σ(z) = 1 / (1 + exp(-z))",
        _sigmoid,
        ("s · (1 - s)",),
        lambda z: (_sigmoid(z) * (1 - _sigmoid(z)),),
        lambda rng: ((_rounded(rng, -4, 4),), ()),
        always=lambda rng: [((-_rounded(rng, 0.5, 4),), ())],
    ),
}


# ---------------------------------------------------------------- graphs


def _diamond(x: float, a: float, b: float) -> Any:
    """Exercise 5's graph: x feeds two branches that meet again in L."""
    xv, av, bv = scratch.Value(x, "x"), scratch.Value(a, "a"), scratch.Value(b, "b")
    p = scratch.multiply(xv, av, "p")
    q = scratch.add(xv, bv, "q")
    return scratch.multiply(p, q, "L")


def _shared(w: float) -> Any:
    wv = scratch.Value(w, "w")
    return scratch.multiply(wv, wv, "L")


def _linear(w: float, x: float, b: float, y: float) -> Any:
    from glassgrad.examples import linear_loss

    return linear_loss(scratch, w=w, x=x, b=b, y=y)["L"]


def _twins(root: Any, reference: Any, exercise: str) -> dict[int, Any]:
    """The reader's node for each node of `reference` (by id), pairing the two graphs link by link from their
    roots; raises `_Failed` where the reader's graph is not the same graph (labels, numbers, links)."""
    twins: dict[int, Any] = {}
    stack = [(reference, root)]
    while stack:
        ref, node = stack.pop()
        if id(ref) in twins:
            if twins[id(ref)] is not node:
                raise _fail(exercise, f"{_name(ref)} appears twice in the graph of L as two different Values.")
            continue
        wrong = (
            not _is_value(node)
            or getattr(node, "label", None) != ref.label
            or not _same(node.data, ref.data)
            or not isinstance(node.parents, (tuple, list))
            or len(node.parents) != len(ref.parents)
            or not all(_is_link(link) for link in node.parents)
        )
        if wrong:
            raise _fail(
                exercise,
                f"The graph of L is not the starting code's (at {_name(ref)}): keep the lines that build it, "
                "and change only `order`.",
            )
        twins[id(ref)] = node
        stack.extend((ref_link.value, link.value) for ref_link, link in zip(ref.parents, node.parents))
    return twins


def _check_order(order: Any, namespace: dict[str, Any], exercise: str) -> Verdict:
    root: Any = namespace.get("L")
    if not _is_value(root):
        return Verdict(exercise, False, "The program has no L: keep the lines that build the graph.")
    reference = _diamond(2.0, 3.0, 1.0)  # the starting code's graph, built here
    twins = _twins(root, reference, exercise)
    nodes = scratch.dependency_safe_order(reference)
    if not isinstance(order, (list, tuple)):
        return Verdict(exercise, False, f"order is {kind_of(order)}; make it a list: order = [x, a, ...].")
    if not order:
        return Verdict(
            exercise, False, f"order is empty: list the {len(nodes)} Values of the graph, each after its parents."
        )
    reference_of = {id(twins[id(ref)]): ref for ref in nodes}  # the reader's node -> the checker's
    seen: dict[int, int] = {}
    for i, node in enumerate(order):
        if id(node) not in reference_of:
            return Verdict(exercise, False, f"order[{i}] is {_given(node)}, which is not a Value of the graph of L.")
        if id(node) in seen:
            return Verdict(
                exercise,
                False,
                f"{_name(node)} appears twice in order (positions {seen[id(node)]} and {i}): list each Value once.",
            )
        seen[id(node)] = i
    missing = [ref.label for ref in nodes if id(twins[id(ref)]) not in seen]
    if missing:
        return Verdict(
            exercise, False, f"order is missing {', '.join(missing)}: list all {len(nodes)} Values of the graph."
        )
    placed: set[int] = set()
    for i, node in enumerate(order):
        for k, link in enumerate(reference_of[id(node)].parents):
            if id(link.value) not in placed:
                parent = link.value.label
                return Verdict(
                    exercise,
                    False,
                    f"{_name(node)} is at position {i}, before its parent {parent}.\n"
                    f"{_name(node)} is computed from {parent} (the marked edge), so {parent} must come earlier in the list.",
                    graph=root,
                    marked=[(node, k)],
                    operand=parent,
                    edge=f"∂{_name(node)}/∂{parent}",
                )
        placed.add(id(reference_of[id(node)]))
    return Verdict(
        exercise,
        True,
        f"Passed: all {len(nodes)} Values come after their parents. Backward walks this list in reverse.",
    )


def _snapshot(order: Sequence[Any]) -> list[tuple[Any, float, Any, tuple[tuple[Any, float], ...]]]:
    """Each node of a graph with what the forward pass stored in it: data, the parents tuple, each link's fields."""
    return [
        (node, node.data, node.parents, tuple((link.value, link.local_grad) for link in node.parents)) for node in order
    ]


def _changed(snapshot: list[tuple[Any, float, Any, tuple[tuple[Any, float], ...]]]) -> str | None:
    """The first field the reader's backward changed in a graph (None when it changed nothing but .grad)."""
    for node, data, parents, links in snapshot:
        if node.data != data:
            return f"{_name(node)}.data"
        if node.parents is not parents:
            return f"{_name(node)}.parents"
        for k, (link, (value, local)) in enumerate(zip(parents, links)):
            if link.value is not value or link.local_grad != local:
                return f"{_name(node)}.parents[{k}]"
    return None


def _wrong_grad(
    title: str, exercise: str, root: Any, reference: Any, pairs: list[tuple[Any, Any]], again: bool
) -> Verdict | None:
    """The verdict on the first node (from the root back) whose .grad differs from the reference's, or None."""
    twin = {id(ref): node for node, ref in pairs}
    for node, ref in reversed(pairs):
        given, expected = node.grad, ref.grad
        if _same(given, expected):
            continue
        want, got = _pair(expected, float(given)) if _is_number(given) else (_num(expected), _given(given))
        details: dict[str, Any] = {
            "graph": root,
            "show_grad": True,
            "expected": expected,
            "given": float(given) if _is_number(given) else None,
        }
        if again:
            return Verdict(
                exercise,
                False,
                f"Called a second time on {title} (training calls it once per step), {_name(node)}.grad is {got}; "
                f"it should still be {want}. The gradients of the first call were still there.",
                answer="Set every .grad to 0.0 first, then root.grad = 1.0, then add the contributions.",
                **details,
            )
        head = f"On {title}, {_name(node)}.grad is {got}; it should be {want}."
        if ref is reference:
            return Verdict(
                exercise,
                False,
                head + "\nThe root's gradient starts the pass.",
                answer="Set root.grad = 1.0 (dL/dL) before the loop.",
                **details,
            )
        edges = [
            (output, k, output.grad * link.local_grad)
            for _, output in pairs
            for k, link in enumerate(output.parents)
            if link.value is ref
        ]
        lost = next(((o, k, c) for o, k, c in edges if _same(given, expected - c)), None) or (
            edges[0] if edges else None
        )
        if lost is None:
            return Verdict(exercise, False, head, **details)
        output, k, contribution = lost
        out_name, answer = _name(output), ""
        if given == 0:
            why = (
                f"\nNo contribution reached {_name(node)}. Does the loop visit every output before its parents "
                "(the dependency-safe order, reversed)?"
            )
            answer = "Loop over reversed(dependency_safe_order(root)): each output's .grad is complete before it is passed on."
        elif len(edges) > 1 and _same(given, expected - contribution):
            upstream, local = output.grad, output.parents[k].local_grad
            why = (
                f"\n{_name(node)} gets a contribution from each of {len(edges)} edges. The one along the marked edge "
                f"∂{out_name}/∂{_name(node)}, {_num(upstream)} × {_num(local)} = {_num(contribution)}, was lost."
            )
            answer = "Add each contribution to .grad (+=): every edge into a Value contributes."
        elif _is_number(given) and _close(float(given), -expected):
            why = "\nThe sign is flipped."
            answer = "A contribution is upstream × local, added to the parent's .grad."
        else:
            why = (
                "\nA contribution is the output's grad (upstream) × the link's local_grad, added to the parent's grad."
            )
        return Verdict(
            exercise,
            False,
            head + why,
            answer=answer,
            marked=[(twin[id(output)], k)],
            operand=_name(node),
            edge=f"∂{out_name}/∂{_name(node)}",
            **details,
        )
    return None


def _check_backward(fn: Any, exercise: str, rng: random.Random) -> Verdict:
    if not callable(fn):
        return _not_a_function(exercise, fn, "backward(root)")
    graphs: list[tuple[str, Callable[..., Any], tuple[float, ...]]] = [
        ("w * w", _shared, (_away_from_zero(rng),)),
        ("the diamond", _diamond, tuple(_rounded(rng, -3, 3) for _ in range(3))),
        ("chapter 1's graph", _linear, (2.0, 3.0, 1.0, 10.0)),
        ("chapter 1's graph", _linear, tuple(_rounded(rng, -3, 3) for _ in range(4))),
    ]
    for title, build, inputs in graphs:
        root, reference = build(*inputs), build(*inputs)
        order = scratch.dependency_safe_order(root)  # before the reader's code touches the graph
        pairs = list(zip(order, scratch.dependency_safe_order(reference), strict=True))
        snapshot = _snapshot(order)
        scratch.backward(reference)
        for again in (False, True):
            _call(f"backward(L) on {title}" + (", a second time" if again else ""), fn, root)
            changed = _changed(snapshot)
            if changed:
                return Verdict(
                    exercise,
                    False,
                    f"On {title}, your backward changed {changed}. Backward only fills in .grad: the links the "
                    "forward pass saved are what it reads.",
                )
            verdict = _wrong_grad(title, exercise, root, reference, pairs, again)
            if verdict is not None:
                return verdict
    return Verdict(
        exercise,
        True,
        "Passed: on w * w, the diamond and chapter 1's graph, called once and then again, every .grad matches "
        "the checker's own backward.",
    )


def _check_train_step(fn: Any, exercise: str, rng: random.Random) -> Verdict:
    import glassgrad
    from glassgrad.examples import sigmoid_neuron

    if not callable(fn):
        return _not_a_function(exercise, fn, "train_step(w, b, x, y, lr)")
    cases = [
        (
            _rounded(rng, -2, 2),
            _rounded(rng, -2, 2),
            _rounded(rng, -2, 2),
            rng.choice((0.0, 1.0)),
            rng.choice((0.1, 0.5, 1.0)),
        )
        for _ in range(TRIALS)
    ]
    for w, b, x, y, lr in cases:
        where = f"w = {_num(w)}, b = {_num(b)}, x = {_num(x)}, y = {_num(y)}, lr = {_num(lr)}"
        result = _call(f"train_step at {where}", fn, w, b, x, y, lr)
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            return Verdict(
                exercise,
                False,
                f"train_step returned {_given(result)}; return the two new numbers: return new_w, new_b.",
            )
        nodes = sigmoid_neuron(True, glassgrad, w=w, b=b, x=x, y=y)
        glassgrad.backward(nodes["L"])
        for name, old, given in (("w", w, result[0]), ("b", b, result[1])):
            grad = nodes[name].grad
            expected = old - lr * grad
            if _same(given, expected):
                continue
            step = f"The new {name} is {name} - lr × dL/d{name}."
            if not _is_number(given):
                return Verdict(
                    exercise, False, f"The new {name} is {_given(given)}, not a number: return numbers.", answer=step
                )
            want, got = _pair(expected, float(given))
            if _close(given, old + lr * grad):
                why = "That is a step up the gradient."
            elif _close(given, old):
                why = f"{name} did not move."
            elif _close(given, old - grad):
                why = "The step forgot the learning rate lr."
            else:
                why = f"dL/d{name} = {_num(grad)} here, from backward."
            return Verdict(
                exercise,
                False,
                f"At {where}: the new {name} should be {want}; yours is {got}.\n{why}",
                answer=step,
                graph=nodes["L"],
                show_grad=True,
                operand=name,
                expected=expected,
                given=float(given),
                inputs={"w": w, "b": b, "x": x, "y": y, "lr": lr},
            )
    return Verdict(
        exercise, True, f"Passed: at {len(cases)} new inputs both new weights match glassgrad's backward and step."
    )


def _reference_tangents(root: Any, seeds: dict[int, float]) -> dict[int, float]:
    """The checker's own forward mode on chapter 2's engine: each value's tangent by id (`seeds` by id too)."""
    tangent: dict[int, float] = {}
    for node in scratch.dependency_safe_order(root):
        if not node.parents:
            tangent[id(node)] = seeds.get(id(node), 0.0)
            continue
        total = 0.0
        for link in node.parents:
            total += tangent[id(link.value)] * link.local_grad
        tangent[id(node)] = total
    return tangent


def _check_forward(fn: Any, exercise: str, rng: random.Random) -> Verdict:
    if not callable(fn):
        return _not_a_function(exercise, fn, "tangents(root, seeds)")
    rule = (
        "A leaf's tangent is its seed (0 if it has none); any other value's is the sum, over its links, "
        "of tangent[link.value] × link.local_grad."
    )
    graphs: list[tuple[str, Callable[..., Any], tuple[float, ...], str]] = [
        ("w * w", _shared, (_away_from_zero(rng),), "every"),
        ("the diamond", _diamond, tuple(_rounded(rng, -3, 3) for _ in range(3)), "every"),
        ("chapter 1's graph", _linear, (2.0, 3.0, 1.0, 10.0), "w"),
        ("chapter 1's graph", _linear, tuple(_rounded(rng, -3, 3) for _ in range(4)), "every"),
    ]
    for title, build, inputs, seeded in graphs:
        root = build(*inputs)
        order = scratch.dependency_safe_order(root)  # before the reader's code touches the graph
        leaves = [node for node in order if not node.parents]
        if seeded == "every":  # each leaf moves, at a speed of its own
            seeds = {leaf: _away_from_zero(rng) for leaf in leaves}
        else:  # one leaf moves at 1: the tangents are the derivatives with respect to it
            seeds = {leaf: 1.0 for leaf in leaves if leaf.label == seeded}
        snapshot = _snapshot(order)
        expected = _reference_tangents(root, {id(leaf): tangent for leaf, tangent in seeds.items()})
        shown = ", ".join(f"{_name(leaf)} = {_num(tangent)}" for leaf, tangent in seeds.items())
        where = f"On {title} with the seeds {shown}"
        given = _call(f"tangents(L, seeds) on {title}", fn, root, dict(seeds))
        changed = _changed(snapshot)
        if changed:
            return Verdict(
                exercise,
                False,
                f"On {title}, your tangents changed {changed}. Forward mode only reads the links the forward "
                "pass saved.",
            )
        if not isinstance(given, dict):
            return Verdict(
                exercise,
                False,
                f"tangents returned {_given(given)}; return a dict with a tangent for every value: {{node: tangent}}.",
            )
        for node in order:
            want = expected[id(node)]
            if node not in given:
                return Verdict(
                    exercise,
                    False,
                    f"{where}, the dict has no tangent for {_name(node)}: give every value one.",
                    answer=rule,
                )
            got = given[node]
            if _same(got, want):
                continue
            if not _is_number(got):
                return Verdict(
                    exercise,
                    False,
                    f"{where}, the tangent of {_name(node)} is {_given(got)}, not a number.",
                    answer=rule,
                )
            wanted, gave = _pair(want, float(got))
            head = f"{where}, the tangent of {_name(node)} is {gave}; it should be {wanted}."
            if not node.parents:
                return Verdict(
                    exercise,
                    False,
                    head + "\nA leaf's tangent is its seed, or 0 if it has none.",
                    answer=rule,
                    graph=root,
                    expected=want,
                    given=float(got),
                )
            contributions = [expected[id(link.value)] * link.local_grad for link in node.parents]
            k = 0
            if got == 0:
                why = f"\nNothing reached {_name(node)}: push each parent's tangent along its link."
            elif len(contributions) > 1 and any(_close(want - c, got) for c in contributions):
                k = next(j for j, c in enumerate(contributions) if _close(want - c, got))
                link = node.parents[k]
                why = (
                    f"\n{_name(node)} gets a contribution along each of its {len(contributions)} links. The one along "
                    f"the marked edge ∂{_name(node)}/∂{_name(link.value)}, {_num(expected[id(link.value)])} × "
                    f"{_num(link.local_grad)} = {_num(contributions[k])}, is missing: add every link's contribution (+=)."
                )
            elif _close(got, sum(expected[id(link.value)] for link in node.parents)):
                k = next((j for j, link in enumerate(node.parents) if link.local_grad != 1), 0)
                why = "\nThat is the parents' tangents added up: multiply each by its link's local_grad."
            elif _close(got, -want):
                why = "\nThe sign is flipped: a contribution is the parent's tangent × the link's local_grad."
            else:
                why = "\nA contribution is the parent's tangent × the link's local_grad."
            link = node.parents[k]
            return Verdict(
                exercise,
                False,
                head + why,
                answer=rule,
                graph=root,
                marked=[(node, k)],
                operand=_name(link.value),
                edge=f"∂{_name(node)}/∂{_name(link.value)}",
                expected=want,
                given=float(got),
            )
    return Verdict(
        exercise,
        True,
        "Passed: on w * w, the diamond and chapter 1's graph, every value's tangent matches the checker's forward "
        "mode. With only w seeded 1, L's tangent is dL/dw, the w.grad backward finds.",
    )


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
        if name in OPERATIONS:
            return _check_operation(OPERATIONS[name], answer, name, rng)
        if name == "order":
            return _check_order(answer, namespace, name)
        if name == "backward":
            return _check_backward(answer, name, rng)
        if name == "forward":
            return _check_forward(answer, name, rng)
        return _check_train_step(answer, name, rng)
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

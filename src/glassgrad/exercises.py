"""The exercises of the tutorial, and the checker that grades a reader's answer to each.

The reader writes code for chapter 2's engine (`glassgrad.scratch`): an operation, a fix, a
dependency-safe order, the heart of `backward`, a training step. `check` takes the names the
reader's program defined (its globals) and tries them on random inputs against a reference the
checker builds itself: for an operation its value, then every `ParentLink` (operand and local
derivative); for a graph the reference `backward`. It returns a `Verdict`, plain data: passed, or
the first wrong thing, named (the edge, the numbers, the graph to draw with that edge marked).
It imports nothing to draw: the site's runtime (and anyone with glassgrad.viz) draws the verdict.

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
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from glassgrad import scratch

TRIALS = 6
"""Random inputs per exercise (after the fixed cases some exercises add)."""


def _num(x: float) -> str:
    """A number as messages show it: short, but never hiding a difference (see `_pair`)."""
    return f"{x:.6g}" if isinstance(x, float) else repr(x)


def _pair(expected: float, given: float) -> tuple[str, str]:
    """Both numbers, with enough digits that two different ones never print alike."""
    a, b = _num(expected), _num(given)
    return (a, b) if a != b else (repr(expected), repr(given))


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9)


def _name(node: Any) -> str:
    return getattr(node, "label", "") or "?"


@dataclass
class Verdict:
    """The checker's answer for `exercise`: `passed`, a `message` for the reader, and what to draw.

    When an edge is wrong, `edge` names it (``∂q/∂u``), `operand` names the operand it points to, `expected`
    and `given` are the local derivatives (or gradients), `inputs` the numbers the checker tried, `graph` is
    the root of the small graph to draw and `marked` the ``(output, k)`` edges to mark; `show_grad` draws each
    ``.grad``. `answer` is the right formula, kept out of `message` so a page can show it only when asked.
    When the reader's code raised, `error` is the exception and `doing` says what the checker was calling.
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


class ReaderError(Exception):
    """The exception `error`, raised by the reader's code while the checker was `doing` something (a call, in words)."""

    def __init__(self, doing: str, error: BaseException) -> None:
        super().__init__(doing)
        self.doing = doing
        self.error = error


def _call(doing: str, fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except BaseException as error:  # the reader's code: any error becomes a message, none escapes
        raise ReaderError(doing, error) from error


# ---------------------------------------------------------------- operations


@dataclass(frozen=True)
class _Operation:
    """An operation exercise: the reader defines ``function(*operands, *constants, label="")``."""

    function: str
    operands: tuple[str, ...]
    output: str
    formula: str  # the value, as the message writes it
    value: Callable[..., float]
    local_formulas: tuple[str, ...]  # ∂output/∂operand, one per operand
    local_grads: Callable[..., tuple[float, ...]]
    draw: Callable[[random.Random], tuple[tuple[float, ...], tuple[float, ...]]]  # (operands, constants)
    constants: tuple[str, ...] = ()
    fixed: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...] = ()


def _where(spec: _Operation, operands: Sequence[float], constants: Sequence[float]) -> str:
    names = (*spec.operands, *spec.constants)
    return ", ".join(f"{name} = {_num(x)}" for name, x in zip(names, (*operands, *constants)))


def _lift(fn: Callable[..., Any], constants: Sequence[float], count: int) -> Callable[..., Any]:
    """`fn` (built on glassgrad.scratch) as a function of glassgrad Values, for `glassgrad.gradcheck`."""
    import glassgrad

    def lifted(*leaves: Any) -> Any:
        inputs = [scratch.Value(leaf.data) for leaf in leaves[:count]]
        out = fn(*inputs, *constants)
        position = {id(value): i for i, value in enumerate(inputs)}
        links = [glassgrad.ParentLink(leaves[position[id(link.value)]], link.local_grad) for link in out.parents]
        return glassgrad.Value(out.data, parents=links)

    return lifted


def _not_a_function(exercise: str, given: Any, signature: str) -> Verdict:
    """The verdict when the reader's name holds something other than a function."""
    name = signature.split("(")[0]
    return Verdict(exercise, False, f"{name} is a {type(given).__name__}; define it as a function: def {signature}:")


def _check_operation(spec: _Operation, fn: Any, exercise: str, seed: int | None) -> Verdict:
    from glassgrad.checks import gradcheck

    if not callable(fn):
        return _not_a_function(exercise, fn, f"{spec.function}(...)")
    rng = random.Random(seed)
    cases = [*spec.fixed, *(spec.draw(rng) for _ in range(TRIALS))]
    count = len(spec.operands)
    for operands, constants in cases:
        where = _where(spec, operands, constants)
        inputs = dict(zip((*spec.operands, *spec.constants), (*operands, *constants)))
        leaves = [scratch.Value(x, name) for name, x in zip(spec.operands, operands)]
        call = f"{spec.function}({', '.join((*spec.operands, *spec.constants))}) at {where}"
        out = _call(call, fn, *leaves, *constants)
        if out is None:
            return Verdict(exercise, False, f"{spec.function} returned None: end it with `return Value(...)`.")
        if not all(hasattr(out, field) for field in ("data", "parents")):
            return Verdict(
                exercise,
                False,
                f"{spec.function} returned a {type(out).__name__}, not a Value: return Value(...) with its parents.",
            )
        if not getattr(out, "label", ""):
            out.label = spec.output
        out_name = out.label
        expected_value = spec.value(*operands, *constants)
        if not isinstance(out.data, (int, float)) or not _close(out.data, expected_value):
            want, got = (
                _pair(expected_value, out.data)
                if isinstance(out.data, (int, float))
                else (_num(expected_value), repr(out.data))
            )
            return Verdict(
                exercise,
                False,
                f"The value is wrong at {where}.\n{out_name}.data should be {spec.formula} = {want}; yours is {got}.",
                expected=expected_value,
                given=out.data if isinstance(out.data, float) else None,
                inputs=inputs,
            )
        parents = list(out.parents)
        if len(parents) != count:
            needed = (
                "one ParentLink" if count == 1 else f"{count} ParentLinks, one per operand ({', '.join(spec.operands)})"
            )
            return Verdict(
                exercise,
                False,
                f"{out_name} has {len(parents)} ParentLink(s); {spec.function} needs {needed}.",
                graph=out,
            )
        for k, (link, leaf) in enumerate(zip(parents, leaves)):
            if link.value is not leaf:
                other = next((o for o in leaves if link.value is o), None)
                pointed = f"to {other.label}" if other is not None else "to something that is not an operand"
                return Verdict(
                    exercise,
                    False,
                    f"{out_name}.parents[{k}] points {pointed}; it should point to {leaf.label}, the operand number {k + 1}: "
                    f"ParentLink({leaf.label}, ∂{out_name}/∂{leaf.label}).",
                    graph=out if other is not None else None,
                    marked=[(out, k)] if other is not None else (),
                    operand=leaf.label,
                )
        expected_locals = spec.local_grads(*operands, *constants)
        for k, (link, leaf, expected) in enumerate(zip(parents, leaves, expected_locals)):
            given = link.local_grad
            if not _close(given, expected):
                want, got = _pair(expected, given)
                formula = spec.local_formulas[k]
                hint = ""
                if _close(given, -expected):
                    hint = "\nThe sign is flipped."
                elif any(_close(given, other) for j, other in enumerate(expected_locals) if j != k):
                    hint = "\nThat is the derivative for the other operand: are the two swapped?"
                edge = f"∂{out_name}/∂{leaf.label}"
                return Verdict(
                    exercise,
                    False,
                    f"The edge {edge} is wrong at {where}.\n"
                    f"There {edge} = {want}; your ParentLink to {leaf.label} holds {got}.{hint}",
                    answer=f"The local derivative: {edge} = {formula}.",
                    edge=edge,
                    graph=out,
                    marked=[(out, k)],
                    operand=leaf.label,
                    expected=expected,
                    given=given,
                    inputs=inputs,
                )
    worst = 0.0
    for operands, constants in cases:
        lifted = _lift(lambda *args: _call(spec.function, fn, *args), constants, count)
        worst = max(worst, gradcheck(lifted, operands))
    if worst > 1e-5:  # reached only if the reference and finite differences disagree: a slope the value does not have
        return Verdict(exercise, False, f"Finite differences disagree with the local derivatives (error {worst:.2g}).")
    return Verdict(
        exercise,
        True,
        f"Passed: at {len(cases)} inputs the value and every local derivative are right, "
        f"and finite differences agree (largest error {worst:.1g}).",
    )


def _rounded(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), 2)


def _away_from_zero(rng: random.Random) -> float:
    return rng.choice((-1, 1)) * _rounded(rng, 0.5, 3.0)


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


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
        fixed=(((0.0,), ()),),
    ),
    "power": _Operation(
        "power",
        ("u",),
        "p",
        "u ** k",
        lambda u, k: u**k,
        ("k · u ** (k - 1)",),
        lambda u, k: (k * u ** (k - 1),),
        lambda rng: ((_rounded(rng, 0.3, 3),), (rng.choice((2.0, 3.0, 0.5, -1.0, 1.5, -2.0)),)),
        constants=("k",),
        fixed=(((0.0,), (2.0,)), ((1.5,), (3.0,)), ((2.0,), (0.5,))),
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
    ),
}


# ---------------------------------------------------------------- graphs


def _diamond(x: float, a: float, b: float) -> Any:
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


def _check_order(order: Any, namespace: dict[str, Any], exercise: str) -> Verdict:
    root: Any = namespace.get("L")
    if not hasattr(root, "parents"):
        return Verdict(exercise, False, "The program has no L: keep the lines that build the graph.")
    nodes = scratch.dependency_safe_order(root)
    if not isinstance(order, (list, tuple)):
        return Verdict(exercise, False, f"order is a {type(order).__name__}; make it a list: order = [x, a, ...].")
    if not order:
        return Verdict(
            exercise, False, f"order is empty: list the {len(nodes)} Values of the graph, each after its parents."
        )
    known = {id(node) for node in nodes}
    seen: dict[int, int] = {}
    for i, node in enumerate(order):
        if id(node) not in known:
            return Verdict(exercise, False, f"order[{i}] is {node!r:.40}, which is not a Value of the graph of L.")
        if id(node) in seen:
            return Verdict(
                exercise,
                False,
                f"{_name(node)} appears twice in order (positions {seen[id(node)]} and {i}): list each Value once.",
            )
        seen[id(node)] = i
    missing = [_name(node) for node in nodes if id(node) not in seen]
    if missing:
        return Verdict(
            exercise, False, f"order is missing {', '.join(missing)}: list all {len(nodes)} Values of the graph."
        )
    placed: set[int] = set()
    for i, node in enumerate(order):
        for k, link in enumerate(node.parents):
            if id(link.value) not in placed:
                parent = _name(link.value)
                return Verdict(
                    exercise,
                    False,
                    f"{_name(node)} is at position {i}, before its parent {parent}.\n"
                    f"{_name(node)} is computed from {parent} (the marked edge), so {parent} must come earlier in the list.",
                    graph=root,
                    marked=[(node, k)],
                    operand=parent,
                )
        placed.add(id(node))
    return Verdict(
        exercise,
        True,
        f"Passed: all {len(nodes)} Values come after their parents. Backward walks this list in reverse.",
    )


def _check_backward(fn: Any, exercise: str, seed: int | None) -> Verdict:
    if not callable(fn):
        return _not_a_function(exercise, fn, "backward(root)")
    rng = random.Random(seed)
    graphs: list[tuple[str, Callable[..., Any], tuple[float, ...]]] = [
        ("w * w", _shared, (_rounded(rng, 0.5, 3),)),
        ("the diamond", _diamond, tuple(_rounded(rng, -3, 3) for _ in range(3))),
        ("chapter 1's graph", _linear, (2.0, 3.0, 1.0, 10.0)),
        ("chapter 1's graph", _linear, tuple(_rounded(rng, -3, 3) for _ in range(4))),
    ]
    for title, build, inputs in graphs:
        root, reference = build(*inputs), build(*inputs)
        scratch.backward(reference)
        _call(f"backward(L) on {title}", fn, root)
        given_order, expected_order = scratch.dependency_safe_order(root), scratch.dependency_safe_order(reference)
        twin = {id(ref): node for node, ref in zip(given_order, expected_order)}
        for node, ref in zip(reversed(given_order), reversed(expected_order)):
            given, expected = node.grad, ref.grad
            if isinstance(given, (int, float)) and _close(given, expected):
                continue
            want, got = _pair(expected, given) if isinstance(given, (int, float)) else (_num(expected), repr(given))
            head = f"On {title}, {_name(node)}.grad is {got}; it should be {want}."
            if ref is reference:
                return Verdict(
                    exercise,
                    False,
                    head + "\nThe root's gradient is dL/dL = 1: set it before the loop.",
                    graph=root,
                    show_grad=True,
                    expected=expected,
                    given=given,
                )
            edges = [
                (output, k, output.grad * link.local_grad)
                for output in expected_order
                for k, link in enumerate(output.parents)
                if link.value is ref
            ]
            lost = next(
                ((o, k, c) for o, k, c in edges if isinstance(given, (int, float)) and _close(expected - c, given)),
                None,
            )
            if lost is None and edges:
                lost = edges[0]
            if lost is None:
                return Verdict(exercise, False, head, graph=root, show_grad=True, expected=expected, given=given)
            output, k, contribution = lost
            out_name = _name(output)
            if given == 0:
                why = (
                    f"\nNo contribution reached {_name(node)}. Does the loop visit every output before its parents "
                    "(the dependency-safe order, reversed)?"
                )
            elif len(edges) > 1 and isinstance(given, (int, float)) and _close(expected - contribution, given):
                upstream, local = output.grad, output.parents[k].local_grad
                why = (
                    f"\n{_name(node)} gets a contribution from each of {len(edges)} edges. The one along the marked edge "
                    f"∂{out_name}/∂{_name(node)}, {_num(upstream)} × {_num(local)} = {_num(contribution)}, was lost: "
                    "add each contribution to .grad (+=)."
                )
            elif isinstance(given, (int, float)) and _close(given, -expected):
                why = "\nThe sign is flipped: a contribution is upstream × local."
            else:
                why = "\nA contribution is the output's grad (upstream) × the link's local_grad, added to the parent's grad."
            return Verdict(
                exercise,
                False,
                head + why,
                graph=root,
                marked=[(twin[id(output)], k)],
                show_grad=True,
                operand=_name(node),
                expected=expected,
                given=given if isinstance(given, float) else None,
            )
    return Verdict(
        exercise,
        True,
        "Passed: on w * w, the diamond and chapter 1's graph, every .grad matches the reference backward.",
    )


def _check_train_step(fn: Any, exercise: str, seed: int | None) -> Verdict:
    import glassgrad
    from glassgrad.examples import sigmoid_neuron

    if not callable(fn):
        return _not_a_function(exercise, fn, "train_step(w, b, x, y, lr)")
    rng = random.Random(seed)
    cases = [(0.5, -1.0, 2.0, 1.0, 0.1)] + [
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
                exercise, False, f"train_step returned {result!r:.60}; return the two new numbers: return new_w, new_b."
            )
        nodes = sigmoid_neuron(True, glassgrad, w=w, b=b, x=x, y=y)
        glassgrad.backward(nodes["L"])
        for name, old, given in (("w", w, result[0]), ("b", b, result[1])):
            grad = nodes[name].grad
            expected = old - lr * grad
            if isinstance(given, (int, float)) and not isinstance(given, bool) and _close(float(given), expected):
                continue
            if not isinstance(given, (int, float)) or isinstance(given, bool):
                return Verdict(
                    exercise,
                    False,
                    f"The new {name} is {given!r:.60}, not a number: return {name}.data - lr * {name}.grad.",
                )
            want, got = _pair(expected, float(given))
            if _close(given, old + lr * grad):
                why = f"That is a step up the gradient: go against it, {name} - lr * {name}.grad."
            elif _close(given, old):
                why = f"{name} did not move: subtract lr × {name}.grad from it."
            elif _close(given, old - grad):
                why = "The step forgot the learning rate lr."
            else:
                why = f"The new {name} is {name} - lr × dL/d{name}, with dL/d{name} = {_num(grad)} from backward."
            return Verdict(
                exercise,
                False,
                f"At {where}: the new {name} should be {want}; yours is {got}.\n{why}",
                graph=nodes["L"],
                show_grad=True,
                operand=name,
                expected=expected,
                given=float(given),
                inputs={"w": w, "b": b, "x": x, "y": y, "lr": lr},
            )
    return Verdict(
        exercise, True, f"Passed: at {len(cases)} inputs both new weights match glassgrad's backward and step."
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
    )
}
"""Every exercise, by name, in the page's order."""


def check(name: str, namespace: dict[str, Any], seed: int | None = None) -> Verdict:
    """Check the names a reader's program defined (`namespace`, as filled by ``exec``) for exercise `name`.

    Random inputs come from ``random.Random(seed)``: the same seed, the same inputs and messages; without a
    seed, new inputs every time. An error raised by the reader's code fails the verdict (its `error`).

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
    try:
        if name in OPERATIONS:
            return _check_operation(OPERATIONS[name], answer, name, seed)
        if name == "order":
            return _check_order(answer, namespace, name)
        if name == "backward":
            return _check_backward(answer, name, seed)
        return _check_train_step(answer, name, seed)
    except ReaderError as failure:
        cause = failure.error
        return Verdict(
            name,
            False,
            f"While checking {failure.doing}:\n{type(cause).__name__}: {cause}",
            error=cause,
            doing=failure.doing,
        )

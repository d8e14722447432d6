"""Each operation on its own: forward number, local derivatives, IEEE edge cases and gradcheck, against PyTorch."""

from __future__ import annotations

import math
import operator

import pytest

torch = pytest.importorskip("torch")

from helpers import run_glassgrad, run_torch, same_float  # noqa: E402

import glassgrad as gg  # noqa: E402
from glassgrad import ParentLink, Value, backward, gradcheck  # noqa: E402

inf, nan = math.inf, math.nan

OPS = {
    # name: (glassgrad, PyTorch, operand count)
    "multiply": (gg.multiply, operator.mul, 2),
    "add": (gg.add, operator.add, 2),
    "subtract": (gg.subtract, operator.sub, 2),
    "divide": (gg.divide, operator.truediv, 2),
    "square": (gg.square, torch.square, 1),
    "negate": (gg.negate, operator.neg, 1),
    "exponential": (gg.exponential, torch.exp, 1),
    "plus_one": (gg.plus_one, lambda t: 1.0 + t, 1),
    "reciprocal": (gg.reciprocal, torch.reciprocal, 1),
    "sigmoid": (gg.sigmoid, torch.sigmoid, 1),
    "tanh": (gg.tanh, torch.tanh, 1),
    "relu": (gg.relu, torch.relu, 1),
    "log": (gg.log, torch.log, 1),
    "power^3": (lambda u: gg.power(u, 3), lambda t: t**3, 1),
    "power^-2": (lambda u: gg.power(u, -2), lambda t: t**-2, 1),
    "power^0.5": (lambda u: gg.power(u, 0.5), lambda t: t**0.5, 1),
    "power^1/3": (lambda u: gg.power(u, 1 / 3), lambda t: t ** (1 / 3), 1),
    "power^0": (lambda u: gg.power(u, 0), lambda t: t**0, 1),
}
"""Every op of glassgrad.ops with its PyTorch twin."""

POINTS = {
    1: [(-2.5,), (-0.3,), (0.7,), (1.9,)],
    2: [(2.0, 3.0), (-1.5, 0.25), (0.3, -4.0), (-2.0, -0.5)],
}
"""Ordinary inputs (inside every op's domain except where noted in `outside_domain`)."""


def outside_domain(name: str, args: tuple[float, ...]) -> bool:
    """Points where the op is undefined for reals (covered by the IEEE tests instead)."""
    return (name == "log" or name.startswith("power^0.5") or name == "power^1/3") and args[0] <= 0


def assert_same(
    mine: tuple[float, list[float]], theirs: tuple[float, list[float]], rel: float = 1e-13, signed_zero: bool = False
) -> None:
    """Forward value and every gradient agree as IEEE numbers (nan equals nan; optionally the sign of a zero value).

    A zero *gradient* may differ in sign: glassgrad's buffers start at +0.0 and add, and
    +0.0 + -0.0 is +0.0, where PyTorch stores the first contribution as it is.

    The default `rel` leaves room for a one-ulp difference between libm and PyTorch's tanh or exp,
    amplified by a cancellation such as 1 - tanh² (about 40× at the points used here).
    """
    (value, grads), (torch_value, torch_grads) = mine, theirs
    assert len(grads) == len(torch_grads)
    for what, a, b in [("value", value, torch_value)] + [
        (f"grad {i}", *pair) for i, pair in enumerate(zip(grads, torch_grads))
    ]:
        assert same_float(a, b, rel), f"{what}: glassgrad {a!r}, PyTorch {b!r}"
        if signed_zero and what == "value" and a == 0.0 == b:
            assert math.copysign(1.0, a) == math.copysign(1.0, b), f"{what}: glassgrad {a!r}, PyTorch {b!r}"


@pytest.mark.parametrize("name", OPS)
def test_op_matches_pytorch(name) -> None:
    """Forward number and gradient of every operand equal PyTorch's at ordinary points."""
    function, torch_function, arity = OPS[name]
    for args in POINTS[arity]:
        if not outside_domain(name, args):
            assert_same(run_glassgrad(function, args), run_torch(torch_function, args))


OPERATORS = {
    "u + v": operator.add,
    "u - v": operator.sub,
    "u * v": operator.mul,
    "u / v": operator.truediv,
}


@pytest.mark.parametrize("name", OPERATORS)
@pytest.mark.parametrize("number_side", ["left", "right", "neither"])
def test_operator_with_plain_numbers_on_either_side(name, number_side) -> None:
    """``2.5 - v`` and ``v - 2.5`` both work, differentiate only the Value, and match PyTorch."""
    apply = OPERATORS[name]
    for left, right in [(1.75, -0.5), (-3.0, 2.0)]:
        args = {"left": (left, Value(right)), "right": (Value(left), right), "neither": (Value(left), Value(right))}
        torch_args = {
            "left": (left, torch.tensor(right, dtype=torch.float64, requires_grad=True)),
            "right": (torch.tensor(left, dtype=torch.float64, requires_grad=True), right),
            "neither": (
                torch.tensor(left, dtype=torch.float64, requires_grad=True),
                torch.tensor(right, dtype=torch.float64, requires_grad=True),
            ),
        }
        assert_same(run_glassgrad(apply, args[number_side]), run_torch(apply, torch_args[number_side]))


@pytest.mark.parametrize("exponent", [2, 3, -1, 0.5, 1.5, -0.5, 2.5, 0, 1])
def test_pow_operator_matches_pytorch(exponent) -> None:
    """``u ** p`` for integer, fractional, zero and negative exponents matches PyTorch."""
    for base in (0.4, 1.7, 3.0):
        assert_same(run_glassgrad(lambda u: u**exponent, (base,)), run_torch(lambda t: t**exponent, (base,)))


def test_unary_operator_and_methods_match_the_functions() -> None:
    """``-u`` and the methods build the same node as the functions."""
    u = Value(0.8)
    for method, function in [
        (operator.neg, gg.negate),
        (Value.exp, gg.exponential),
        (Value.log, gg.log),
        (Value.relu, gg.relu),
        (Value.tanh, gg.tanh),
        (Value.sigmoid, gg.sigmoid),
    ]:
        by_method, by_function = method(u), function(u)
        assert (by_method.data, by_method.op) == (by_function.data, by_function.op)
        assert [link.local_grad for link in by_method.parents] == [link.local_grad for link in by_function.parents]


def test_plain_number_operand_becomes_a_constant_leaf() -> None:
    """``3 * w`` wraps 3 in a leaf Value, which also receives a gradient."""
    w = Value(2.0, "w")
    product = 3 * w
    constant = product.parents[0].value
    assert (constant.data, constant.parents, constant.grad) == (3.0, (), 0.0)
    assert product.parents[1].value is w and product.parents[1].local_grad == 3.0
    backward(product)
    assert (w.grad, constant.grad) == (3.0, 2.0)


def test_op_symbols_and_labels() -> None:
    """Each op stores its display symbol and the label it was given."""
    u, v = Value(2.0), Value(5.0)
    made = {
        "×": gg.multiply(u, v, "k"),
        "+": gg.add(u, v, "k"),
        "−": gg.subtract(u, v, "k"),
        "²": gg.square(u, "k"),
        "exp": gg.exponential(u, "k"),
        "+1": gg.plus_one(u, "k"),
        "1/x": gg.reciprocal(u, "k"),
        "σ": gg.sigmoid(u, "k"),
        "tanh": gg.tanh(u, "k"),
        "ReLU": gg.relu(u, "k"),
        "log": gg.log(u, "k"),
        "³": gg.power(u, 3, "k"),
        "^0.5": gg.power(u, 0.5, "k"),
        "÷": gg.divide(u, v, "k"),
    }
    for symbol, node in made.items():
        assert (node.op, node.label) == (symbol, "k")
    assert gg.negate(u).op == "−" and gg.negate(u).label == ""


# --- IEEE edge cases: the same inf, nan and signed zero as PyTorch --------------------------------------

IEEE_CASES = [
    ("reciprocal", (0.0,)),
    ("reciprocal", (-0.0,)),
    ("reciprocal", (inf,)),
    ("divide", (1.0, 0.0)),
    ("divide", (-1.0, 0.0)),
    ("divide", (1.0, -0.0)),
    ("divide", (0.0, 0.0)),
    ("divide", (nan, 0.0)),
    ("divide", (1e-200, 1e-200)),  # v² underflows: the gradient must still be -1e200
    ("divide", (1e308, 1e308)),  # v² overflows
    ("divide", (inf, 1e308)),
    ("divide", (0.0, 1e-320)),
    ("exponential", (1000.0,)),
    ("exponential", (-1000.0,)),
    ("exponential", (inf,)),
    ("exponential", (-inf,)),
    ("log", (0.0,)),
    ("log", (-0.0,)),
    ("log", (-1.0,)),
    ("log", (inf,)),
    ("log", (nan,)),
    ("power^1/3", (-8.0,)),
    ("power^0.5", (-4.0,)),
    ("power^0.5", (0.0,)),
    ("power^-2", (0.0,)),
    ("power^3", (1e200,)),
    ("power^0", (0.0,)),
    ("square", (1e200,)),
    ("multiply", (inf, 0.0)),
    ("add", (inf, -inf)),
    ("plus_one", (nan,)),
    ("negate", (-0.0,)),
] + [(name, (x,)) for name in ("relu", "tanh", "sigmoid") for x in (inf, -inf, nan, 0.0, -0.0)]
"""Points where IEEE arithmetic gives inf, nan or a signed zero instead of an exception."""


@pytest.mark.parametrize(("name", "args"), IEEE_CASES, ids=[f"{n}{a}" for n, a in IEEE_CASES])
def test_ieee_edge_case_matches_pytorch(name, args) -> None:
    """inf, nan and signed zeros: the same forward value and gradient as PyTorch."""
    function, torch_function, _ = OPS[name]
    assert_same(run_glassgrad(function, args), run_torch(torch_function, args), rel=1e-15, signed_zero=True)


SQRT_CASES = [(p, x) for p in (0.5, -0.5, 1.5, -1.5, 2.5) for x in (-inf, -4.0, -0.0, 0.0, 1e-320, 2.0, inf, nan)]
"""PyTorch computes ``x ** 0.5`` as sqrt(x) and ``x ** -0.5`` as 1/sqrt(x), not as C's pow: the two differ
at -0.0 and -inf, in the value for ±0.5 and in the gradient for ±1.5 (whose local derivative takes x ** ±0.5)."""


@pytest.mark.parametrize(("exponent", "x"), SQRT_CASES, ids=[f"x{x}**{p}" for p, x in SQRT_CASES])
def test_square_root_exponents_follow_pytorchs_sqrt_path(exponent, x) -> None:
    assert_same(
        run_glassgrad(lambda u: gg.power(u, exponent), (x,)),
        run_torch(lambda t: t**exponent, (x,)),
        rel=1e-15,
        signed_zero=True,
    )


def test_power_of_zero_to_minus_one_matches_pytorch() -> None:
    """``0 ** -1`` is inf with gradient -inf (``-1 · 0 ** -2``), as in PyTorch."""
    mine = run_glassgrad(lambda u: gg.power(u, -1), (0.0,))
    assert_same(mine, run_torch(lambda t: t**-1, (0.0,)))
    assert mine == (inf, [-inf])


def test_division_by_zero_never_raises() -> None:
    """Python's ``1 / 0.0`` raises; glassgrad follows IEEE (and PyTorch) instead."""
    assert gg.divide(1.0, 0.0).data == inf
    assert math.isnan(gg.divide(0.0, 0.0).data)
    assert gg.reciprocal(-0.0).data == -inf
    assert gg.exponential(1000.0).data == inf


# --- gradcheck: central differences for every op -----------------------------------------------------

GRADCHECK = {
    "multiply": (gg.multiply, [1.3, -0.7]),
    "add": (gg.add, [1.3, -0.7]),
    "subtract": (gg.subtract, [1.3, -0.7]),
    "divide": (gg.divide, [1.3, -0.7]),
    "square": (gg.square, [-1.2]),
    "negate": (gg.negate, [0.4]),
    "exponential": (gg.exponential, [0.9]),
    "plus_one": (gg.plus_one, [0.4]),
    "reciprocal": (gg.reciprocal, [-1.6]),
    "sigmoid": (gg.sigmoid, [-0.8]),
    "tanh": (gg.tanh, [0.6]),
    "relu+": (gg.relu, [0.6]),
    "relu-": (gg.relu, [-0.6]),
    "log": (gg.log, [2.2]),
    "power^3": (lambda u: gg.power(u, 3), [-1.1]),
    "power^-2": (lambda u: gg.power(u, -2), [0.9]),
    "power^0.5": (lambda u: gg.power(u, 0.5), [2.0]),
    "power^1/3": (lambda u: u ** (1 / 3), [5.0]),
    "operators": (lambda u, v: (2.0 - u) * v / 3.0 + 1.0 / v - (-u) ** 2, [0.7, 1.9]),
    "methods": (lambda u: u.exp().tanh() + u.sigmoid().log() + u.relu(), [0.35]),
}
"""A function of one or two Values for every op, and a point inside its domain."""


def test_every_public_op_has_a_gradcheck_case() -> None:
    """A new op in glassgrad.ops cannot go unchecked: each public function appears in GRADCHECK."""
    import inspect

    public = {
        name
        for name, obj in vars(gg.ops).items()
        if inspect.isfunction(obj) and obj.__module__ == gg.ops.__name__ and not name.startswith("_")
    }
    assert public == {name.split("^")[0].rstrip("+-") for name in GRADCHECK} - {"operators", "methods"}


@pytest.mark.parametrize("name", GRADCHECK)
def test_gradcheck_passes_for_every_op(name) -> None:
    """The engine's gradient agrees with central differences for every op."""
    function, inputs = GRADCHECK[name]
    assert gradcheck(function, inputs) < 1e-7


def test_gradcheck_catches_a_wrong_local_derivative() -> None:
    """A hand-made node claiming d(u²)/du = 3u (instead of 2u) is caught: the error is about 1/3."""

    def wrong_square(u: Value) -> Value:
        """u² with a deliberately wrong local derivative."""
        return Value(u.data * u.data, "wrong", (ParentLink(u, 3.0 * u.data),), "²")

    assert gradcheck(wrong_square, [1.5]) == pytest.approx(1 / 3, rel=1e-5)
    assert gradcheck(lambda u, v: wrong_square(u) * v, [2.0, 0.5]) > 0.3
    assert gradcheck(gg.square, [1.5]) < 1e-8


def test_gradcheck_catches_a_missing_link() -> None:
    """A node that forgets one operand's link reports that operand's gradient as 0."""

    def forgetful_multiply(u: Value, v: Value) -> Value:
        """u·v with no link to v."""
        return Value(u.data * v.data, "forgetful", (ParentLink(u, v.data),), "×")

    assert gradcheck(forgetful_multiply, [1.5, 2.0]) > 0.9


def _graph_with_every_packed_row() -> tuple[Value, list[Value]]:
    """A graph holding each row of value.py's packed-link table: one operand, two, a fused op, built links."""
    w, x, b = Value(0.5, "w"), Value(-1.5, "x"), Value(0.25, "b")
    one = gg.tanh(w)  # _du a float
    two = one * x  # _du a tuple
    from glassgrad.nn import weighted_sum

    fused = weighted_sum([w, two], [x, 3.0], b)  # _du a list
    built = fused + two
    built.parents  # noqa: B018  # reading parents builds the links: _du None
    shared = built * w
    return shared, [w, x, b, one, two, fused, built, shared]


def test_the_inlined_link_readers_follow_the_links_the_decoder_gives() -> None:
    from glassgrad.value import _edges

    root, nodes = _graph_with_every_packed_row()
    assert {type(node._du) for node in nodes} == {float, tuple, list, type(None)}
    decoded_order: list[Value] = []  # the walk written over the one decoder, `_edges`
    done: set[int] = set()

    def visit(node: Value) -> None:
        for parent, _ in _edges(node):
            if id(parent) not in done:
                visit(parent)
        if id(node) not in done:
            done.add(id(node))
            decoded_order.append(node)

    visit(root)
    assert gg.dependency_safe_order(root) == decoded_order  # _walk's inlined reading
    steps = backward(root)  # record=True reads every link through _edges
    recorded = [node.grad for node in decoded_order]
    assert [(s.output, s.parent, s.local) for s in steps] == [
        (output, parent, local) for output in reversed(decoded_order) for parent, local in _edges(output)
    ]
    root.backward()  # record=False: the gradient pass's inlined reading
    assert [node.grad for node in decoded_order] == recorded
    assert [(link.value, link.local_grad) for link in root.parents] == list(_edges(root))

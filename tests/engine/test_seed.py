"""Every check of the tutorial, on glassgrad's own graphs: values, grads, orders, traces and backward logs."""

from __future__ import annotations

import math

import pytest
from graphs import LINEAR_STEPS, rows

from glassgrad import OrderEvent, Value, backward, dependency_safe_order, multiply, trace_dependency_safe_order
from glassgrad.examples import linear_loss, sigmoid_neuron

LINEAR_EXPECTED = {
    "w": (2, -18), "x": (3, -12), "m": (6, -6), "b": (1, -6),
    "a": (7, -6), "y": (10, 6), "e": (-3, -6), "L": (9, 1),
}  # fmt: skip
"""The tutorial's table for m = w·x, a = m + b, e = a - y, L = e² (compared with ==, as the tutorial does)."""

SIGMOID_EXPECTED = {
    "w": (0.5, -0.5), "x": (2.0, -0.125), "m": (1.0, -0.25),
    "b": (-1.0, -0.25), "z": (0.0, -0.25), "s": (0.5, -1.0),
    "y": (1.0, 1.0), "e": (-0.5, -1.0), "L": (0.25, 1.0),
}  # fmt: skip
"""The tutorial's values and grads of the neuron (the same for the fused and the atomic sigmoid)."""

SHARED_STEPS = [("L", "e", 1, -1, -1, 0, -1), ("e", "s", -1, 1, -1, 0, -1), ("e", "y", -1, -1, 1, 0, 1)]
TAIL_STEPS = [
    ("z", "m", -0.25, 1, -0.25, 0, -0.25),
    ("z", "b", -0.25, 1, -0.25, 0, -0.25),
    ("m", "w", -0.25, 2, -0.5, 0, -0.5),
    ("m", "x", -0.25, 0.5, -0.125, 0, -0.125),
]
FUSED_STEPS = SHARED_STEPS + [("s", "z", -1, 0.25, -0.25, 0, -0.25)] + TAIL_STEPS
"""The tutorial's eight reverse edges with a fused sigmoid."""

ATOMIC_STEPS = (
    SHARED_STEPS
    + [
        ("s", "d", -1, -0.25, 0.25, 0, 0.25),
        ("d", "q", 0.25, 1, 0.25, 0, 0.25),
        ("q", "n", 0.25, 1, 0.25, 0, 0.25),
        ("n", "z", 0.25, -1, -0.25, 0, -0.25),
    ]
    + TAIL_STEPS
)
"""The tutorial's eleven reverse edges with the sigmoid as n = -z, q = exp(n), d = 1 + q, s = 1/d."""


def labels(nodes) -> list[str]:
    """The labels of `nodes`, in order."""
    return [node.label for node in nodes]


@pytest.fixture
def linear() -> dict[str, Value]:
    """The first graph, after one backward call."""
    nodes = linear_loss()
    backward(nodes["L"])
    return nodes


# --- The first graph: m = w·x, a = m + b, e = a - y, L = e² ---------------------------------------------


def test_forward_values_before_backward() -> None:
    """Forward alone gives m = 6, a = 7, e = -3, L = 9, and every grad is still 0."""
    nodes = linear_loss()
    assert {name: node.data for name, node in nodes.items()} == {n: v for n, (v, _) in LINEAR_EXPECTED.items()}
    assert all(node.grad == 0.0 for node in nodes.values())


def test_every_value_and_grad_equals_the_table(linear) -> None:
    """After backward, every (value, grad) pair equals the tutorial's table exactly."""
    assert {name: (node.data, node.grad) for name, node in linear.items()} == LINEAR_EXPECTED
    assert (linear["w"].grad, linear["x"].grad, linear["b"].grad, linear["y"].grad) == (-18, -12, -6, 6)


def test_m_stores_one_link_per_operand() -> None:
    """m = w·x saves (w, ∂m/∂w = 3) and (x, ∂m/∂x = 2); every other link holds its local derivative."""
    nodes = linear_loss()
    m = nodes["m"]
    assert [(link.value, link.local_grad) for link in m.parents] == [(nodes["w"], 3.0), (nodes["x"], 2.0)]
    assert [link.value is nodes[name] for link, name in zip(m.parents, "wx")] == [True, True]
    assert [link.local_grad for link in nodes["a"].parents] == [1.0, 1.0]
    assert [link.local_grad for link in nodes["e"].parents] == [1.0, -1.0]
    assert [link.local_grad for link in nodes["L"].parents] == [-6.0]
    assert all(nodes[leaf].parents == () for leaf in "wxby")


def test_op_symbols_are_the_tutorials() -> None:
    """The op symbols the diagrams show: ×, +, −, ², and −, exp, +1, 1/x, σ for the neuron."""
    nodes = linear_loss()
    assert [nodes[name].op for name in "wmaeL"] == ["", "×", "+", "−", "²"]
    atomic = sigmoid_neuron(fused=False)
    assert [atomic[name].op for name in "nqds"] == ["−", "exp", "+1", "1/x"]
    assert sigmoid_neuron(fused=True)["s"].op == "σ"


def test_labels_are_display_only() -> None:
    """Changing a label or an op symbol changes no number and no gradient."""
    renamed = linear_loss()
    for node in renamed.values():
        node.label, node.op = "renamed " + node.label, "?"
    backward(renamed["L"])
    assert {name: (node.data, node.grad) for name, node in renamed.items()} == LINEAR_EXPECTED


def test_dependency_safe_order_and_its_reverse() -> None:
    """Dependency-first w, x, m, b, a, y, e, L; backward processes L, e, y, a, b, m, x, w."""
    order = dependency_safe_order(linear_loss()["L"])
    assert labels(order) == ["w", "x", "m", "b", "a", "y", "e", "L"]
    assert labels(reversed(order)) == ["L", "e", "y", "a", "b", "m", "x", "w"]


def test_visit_m_appends_w_then_x_then_m() -> None:
    """visit(m): visit w → append w; visit x → append x; both parents ready → append m."""
    nodes = linear_loss()
    events = trace_dependency_safe_order(nodes["m"])
    assert events == [
        OrderEvent("enter", nodes["m"], 0),
        OrderEvent("enter", nodes["w"], 1),
        OrderEvent("append", nodes["w"], 1),
        OrderEvent("enter", nodes["x"], 1),
        OrderEvent("append", nodes["x"], 1),
        OrderEvent("append", nodes["m"], 0),
    ]
    assert all(event.node is nodes[name] for event, name in zip(events, "mwwxxm"))


def test_trace_from_L_enters_and_appends_every_node_once() -> None:
    """The walk from L enters and appends each node once, parents in stored order."""
    nodes = linear_loss()
    events = trace_dependency_safe_order(nodes["L"])
    assert [(event.kind, event.node.label) for event in events] == [
        ("enter", "L"), ("enter", "e"), ("enter", "a"), ("enter", "m"),
        ("enter", "w"), ("append", "w"), ("enter", "x"), ("append", "x"), ("append", "m"),
        ("enter", "b"), ("append", "b"), ("append", "a"),
        ("enter", "y"), ("append", "y"), ("append", "e"), ("append", "L"),
    ]  # fmt: skip
    assert [event.depth for event in events if event.kind == "enter"] == [0, 1, 2, 3, 4, 4, 3, 2]


def test_backward_logs_the_seven_edges_of_the_trace(linear) -> None:
    """Seven reverse edges, each with the tutorial's upstream, local, contribution, before and after."""
    steps = backward(linear["L"])
    assert len(steps) == 7
    assert [(s.output.label, s.parent.label) for s in steps] == [
        ("L", "e"), ("e", "a"), ("e", "y"), ("a", "m"), ("a", "b"), ("m", "w"), ("m", "x"),
    ]  # fmt: skip
    assert rows(steps) == LINEAR_STEPS
    # The log holds the Value objects themselves, not copies.
    assert all(s.output is linear[s.output.label] and s.parent is linear[s.parent.label] for s in steps)


def test_square_sends_minus_six_which_becomes_the_upstream_of_subtraction(linear) -> None:
    """The square's contribution -6 to e.grad is the upstream g_e of the subtraction."""
    steps = backward(linear["L"])
    assert steps[0].contribution == -6 == steps[0].after
    assert steps[1].upstream == steps[0].after == linear["e"].grad


def test_concrete_link_m_to_w(linear) -> None:
    """upstream m.grad = -6, local ∂m/∂w = x = 3, contribution -18 added to w.grad."""
    step = next(s for s in backward(linear["L"]) if (s.output.label, s.parent.label) == ("m", "w"))
    assert (step.upstream, step.local, step.contribution) == (linear["m"].grad, linear["x"].data, -18)
    assert step.local == linear["m"].parents[0].local_grad


def test_backward_clears_old_gradients_first(linear) -> None:
    """The tutorial's engine clears every reachable .grad, so a second call gives the same numbers."""
    for node in linear.values():
        node.grad = 123.0
    again = backward(linear["L"])
    assert {name: (node.data, node.grad) for name, node in linear.items()} == LINEAR_EXPECTED
    assert rows(again) == LINEAR_STEPS


def test_w_times_w_appears_once_but_sends_two_contributions() -> None:
    """r = w·w: w is scheduled once, its two links each add 2, so w.grad = 4."""
    w = Value(2.0, "w")
    r = multiply(w, w, "r")
    assert dependency_safe_order(r) == [w, r]
    assert [link.value for link in r.parents] == [w, w]
    steps = backward(r)
    assert [(s.output.label, s.parent.label, s.contribution, s.before, s.after) for s in steps] == [
        ("r", "w", 2, 0, 2),
        ("r", "w", 2, 2, 4),
    ]
    assert w.grad == 4
    kinds = [(event.kind, event.node.label) for event in trace_dependency_safe_order(r)]
    assert kinds == [("enter", "r"), ("enter", "w"), ("append", "w"), ("skip", "w"), ("append", "r")]


# --- The neuron: fused or atomic sigmoid --------------------------------------------------------------


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "atomic"])
def test_neuron_values_and_grads(fused) -> None:
    """z = 0, s = 0.5, L = 0.25, and the tutorial's table of grads, fused or atomic."""
    nodes = sigmoid_neuron(fused=fused)
    backward(nodes["L"])
    assert (nodes["z"].data, nodes["s"].data, nodes["L"].data) == (0.0, 0.5, 0.25)
    for name, (value, grad) in SIGMOID_EXPECTED.items():
        assert math.isclose(nodes[name].data, value), name
        assert math.isclose(nodes[name].grad, grad), name


def test_atomic_intermediates() -> None:
    """The atomic sigmoid's n, q, d: values -0, 1, 2 and grads 0.25."""
    nodes = sigmoid_neuron(fused=False)
    backward(nodes["L"])
    assert {name: (nodes[name].data, nodes[name].grad) for name in "nqd"} == {
        "n": (0.0, 0.25), "q": (1.0, 0.25), "d": (2.0, 0.25),
    }  # fmt: skip
    assert math.copysign(1.0, nodes["n"].data) == -1.0  # n = -z = -0.0, shown as "-0" in the tutorial


def test_neuron_orders() -> None:
    """Both neurons are returned, and walked, in dependency-safe order."""
    fused = sigmoid_neuron(fused=True)
    atomic = sigmoid_neuron(fused=False)
    assert labels(dependency_safe_order(fused["L"])) == list(fused)
    assert labels(dependency_safe_order(atomic["L"])) == list(atomic)
    assert list(fused) == ["w", "x", "m", "b", "z", "s", "y", "e", "L"]
    assert list(atomic) == ["w", "x", "m", "b", "z", "n", "q", "d", "s", "y", "e", "L"]


def test_fused_sigmoid_has_eight_reverse_edges() -> None:
    """The fused neuron's eight edges, with every number of the tutorial's trace."""
    nodes = sigmoid_neuron(fused=True)
    steps = backward(nodes["L"])
    assert [(s.output.label, s.parent.label) for s in steps] == [
        ("L", "e"), ("e", "s"), ("e", "y"), ("s", "z"), ("z", "m"), ("z", "b"), ("m", "w"), ("m", "x"),
    ]  # fmt: skip
    assert rows(steps) == FUSED_STEPS  # every number here is exact in binary floating point


def test_atomic_sigmoid_has_eleven_reverse_edges() -> None:
    """The atomic neuron's eleven edges, with every number of the tutorial's trace."""
    nodes = sigmoid_neuron(fused=False)
    steps = backward(nodes["L"])
    assert [(s.output.label, s.parent.label) for s in steps] == [
        ("L", "e"), ("e", "s"), ("e", "y"), ("s", "d"), ("d", "q"), ("q", "n"),
        ("n", "z"), ("z", "m"), ("z", "b"), ("m", "w"), ("m", "x"),
    ]  # fmt: skip
    assert rows(steps) == ATOMIC_STEPS


def test_four_atomic_locals_multiply_to_the_fused_one() -> None:
    """(-1/d²)(1)(q)(-1) = -0.25 · 1 · 1 · -1 = 0.25 = s(1 - s)."""
    fused_steps = backward(sigmoid_neuron(fused=True)["L"])
    atomic_steps = backward(sigmoid_neuron(fused=False)["L"])
    fused_local = next(s.local for s in fused_steps if (s.output.label, s.parent.label) == ("s", "z"))
    atomic_locals = [s.local for s in atomic_steps if s.output.label in {"s", "d", "q", "n"}]
    assert atomic_locals == [-0.25, 1.0, 1.0, -1.0]
    assert fused_local == 0.25
    assert math.isclose(math.prod(atomic_locals), fused_local)


def test_fused_and_atomic_agree_on_common_nodes() -> None:
    """Fusion changes the graph, not the numbers: the nine shared nodes agree."""
    fused = sigmoid_neuron(fused=True)
    atomic = sigmoid_neuron(fused=False)
    backward(fused["L"])
    backward(atomic["L"])
    common = ("w", "x", "m", "b", "z", "s", "y", "e", "L")
    assert set(fused) & set(atomic) == set(common)
    for name in common:
        assert math.isclose(fused[name].data, atomic[name].data), name
        assert math.isclose(fused[name].grad, atomic[name].grad), name


@pytest.mark.parametrize("overrides", [{"w": -1.3, "x": 0.7}, {"b": 2.5, "y": -0.4}, {"w": 3.0, "x": -2.0, "b": 0.1}])
def test_fused_and_atomic_agree_away_from_zero(overrides) -> None:
    """Fusion changes the graph, not the calculus: the same numbers at other inputs too."""
    fused = sigmoid_neuron(fused=True, **overrides)
    atomic = sigmoid_neuron(fused=False, **overrides)
    backward(fused["L"])
    backward(atomic["L"])
    for name in fused:
        assert fused[name].data == pytest.approx(atomic[name].data, rel=1e-12, abs=1e-15), name
        assert fused[name].grad == pytest.approx(atomic[name].grad, rel=1e-12, abs=1e-15), name
    local = fused["s"].parents[0].local_grad
    atomic_product = math.prod(atomic[name].parents[0].local_grad for name in "sdqn")
    assert atomic_product == pytest.approx(local, rel=1e-12)

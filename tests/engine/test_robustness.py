"""Engine behaviour beyond the happy path: accumulation, the step log, deep graphs, cycles, bad input, micrograd code."""

from __future__ import annotations

import gc
import inspect
import math
import random
import types
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given

import glassgrad as gg
from glassgrad import BackwardStep, CycleError, ParentLink, Value, backward, dependency_safe_order
from glassgrad.examples import linear_loss, sigmoid_neuron

from strategies import build_glassgrad, build_torch, error_scales, programs

# --- backward(accumulate=True) is PyTorch's semantics ----------------------------------------------------


def torch_linear_loss():
    """The first graph in PyTorch float64, every node keeping its grad, by name."""
    pytest.importorskip("torch")
    from glassgrad.torch_reference import linear_tensors

    return linear_tensors()


def test_accumulate_matches_pytorch_after_each_of_two_calls() -> None:
    """Two accumulating calls give PyTorch's grads after each (retain_graph, retain_grad)."""
    nodes = linear_loss()
    tensors = torch_linear_loss()
    for call in (1, 2):
        backward(nodes["L"], accumulate=True)
        tensors["L"].backward(retain_graph=True)
        reference = {name: tensor.grad.item() for name, tensor in tensors.items()}
        assert {name: node.grad for name, node in nodes.items()} == reference, f"after call {call}"
    assert nodes["w"].grad == 2 * -18 and nodes["L"].grad == 2.0


@given(programs(max_steps=8))
def test_accumulate_matches_pytorch_on_random_dags(program) -> None:
    """The same on random DAGs over every op."""
    nodes, root = build_glassgrad(program)
    torch_nodes, torch_root = build_torch(program)
    _, scale = error_scales(nodes, root)
    for call in (1, 2):
        backward(root, accumulate=True)
        torch_root.backward(retain_graph=True)
        for node, twin in zip(nodes, torch_nodes):
            assert abs(node.grad - twin.grad.item()) <= 1e-9 * call * scale[id(node)], f"{node.label} after call {call}"


def test_accumulate_pushes_only_this_calls_gradients() -> None:
    """Old totals are not sent through the graph again: a pre-filled m.grad does not reach w."""
    nodes = linear_loss()
    nodes["m"].grad = 100.0
    backward(nodes["L"], accumulate=True)
    assert (nodes["m"].grad, nodes["w"].grad, nodes["x"].grad) == (94.0, -18.0, -12.0)


def test_default_mode_clears_so_a_second_call_gives_the_same_grads() -> None:
    """Without accumulate, a second call clears first: same grads, same log."""
    nodes = linear_loss()
    first_steps = backward(nodes["L"])
    first = {name: node.grad for name, node in nodes.items()}
    second_steps = backward(nodes["L"])
    assert {name: node.grad for name, node in nodes.items()} == first
    assert second_steps == first_steps


def test_record_false_returns_an_empty_log_and_the_same_grads() -> None:
    """``record=False`` logs nothing and changes no gradient."""
    recorded, silent = linear_loss(), linear_loss()
    steps = backward(recorded["L"])
    log = backward(silent["L"], record=False)
    assert len(log) == 0 and log == [] and list(log) == []
    assert len(steps) == 7
    assert {n: v.grad for n, v in silent.items()} == {n: v.grad for n, v in recorded.items()}


@pytest.mark.parametrize("fused", [True, False])
def test_value_backward_matches_the_function(fused) -> None:
    """``L.backward()`` gives the grads of ``backward(L)``, and accepts ``accumulate``."""
    by_method, by_function = sigmoid_neuron(fused), sigmoid_neuron(fused)
    assert by_method["L"].backward() is None
    backward(by_function["L"])
    assert {n: v.grad for n, v in by_method.items()} == {n: v.grad for n, v in by_function.items()}
    by_method["L"].backward(accumulate=True)
    assert {n: v.grad for n, v in by_method.items()} == {n: 2 * v.grad for n, v in by_function.items()}


def test_backward_from_a_leaf_seeds_it_and_logs_nothing() -> None:
    """A leaf is its own whole graph: grad 1, no links, an empty log."""
    leaf = Value(3.0, "w")
    assert len(backward(leaf)) == 0 and leaf.grad == 1.0


def test_backward_touches_only_what_the_root_reaches() -> None:
    """Clearing and accumulating stop at the root's graph: a sibling graph keeps its gradients."""
    w, x = Value(2.0, "w"), Value(3.0, "x")
    first, sibling = w * x, w + x
    sibling.grad = 7.0
    backward(first)
    assert (w.grad, x.grad, sibling.grad) == (3.0, 2.0, 7.0)


def test_backward_steps_is_a_read_only_sequence() -> None:
    """len, indexing (negative too), slices, iteration, ==, Sequence mixins; no item assignment."""
    nodes = linear_loss()
    steps = backward(nodes["L"])
    as_list = list(steps)
    assert isinstance(steps, Sequence)
    assert len(steps) == len(as_list) == 7
    assert all(isinstance(step, BackwardStep) for step in steps)
    assert steps[0] == as_list[0] and steps[0].parent is nodes["e"]
    assert steps[-1] == as_list[6] and (steps[-1].output, steps[-1].parent) == (nodes["m"], nodes["x"])
    assert steps[-7] == steps[0]
    assert steps[1:3] == as_list[1:3] and steps[::-1] == as_list[::-1] and steps[5:100] == as_list[5:]
    assert steps == as_list and steps == tuple(as_list) and steps != as_list[:-1]
    assert list(reversed(steps)) == as_list[::-1]
    assert as_list[3] in steps and steps.index(as_list[3]) == 3 and steps.count(as_list[3]) == 1
    assert steps != "not steps"
    for index in (7, -8):
        with pytest.raises(IndexError):
            steps[index]
    with pytest.raises((TypeError, AttributeError)):
        steps[0] = as_list[1]  # type: ignore[index]
    with pytest.raises(AttributeError):
        steps[0].upstream = 5.0  # type: ignore[misc]
    assert "BackwardStep" in repr(steps)


def test_the_log_holds_numbers_of_that_moment() -> None:
    """A later backward call does not rewrite an earlier log."""
    nodes = linear_loss()
    first = backward(nodes["L"])
    nodes["w"].data = 5.0
    backward(gg.square(gg.multiply(nodes["w"], nodes["x"])))
    assert [step.after for step in first] == [-6, -6, 6, -6, -6, -18, -12]


# --- Deep graphs: no recursion anywhere --------------------------------------------------------------------

CHAIN = 1_000_000


@pytest.fixture
def no_cyclic_gc():
    """Pause the cyclic garbage collector: it rescans a growing million-node graph again and again (speed only)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_million_node_chain_runs_forward_order_and_backward(no_cyclic_gc) -> None:
    """L = x · c^N built one multiplication at a time: dL/dx = c^N and dL/dc = N · x · c^(N-1)."""
    x, c = Value(0.5, "x"), Value(1.0000001, "c")
    node = x
    for _ in range(CHAIN):
        node = gg.multiply(node, c)
    order = dependency_safe_order(node)
    assert len(order) == CHAIN + 2
    assert order[0] is x and order[1] is c and order[-1] is node
    node.backward()
    assert node.data == pytest.approx(0.5 * 1.0000001**CHAIN, rel=1e-9)
    assert x.grad == pytest.approx(1.0000001**CHAIN, rel=1e-9)
    assert c.grad == pytest.approx(CHAIN * 0.5 * 1.0000001 ** (CHAIN - 1), rel=1e-9)


def test_a_deep_chain_records_and_traces_without_recursion() -> None:
    """A 100,000-link chain is logged and traced without recursion."""
    x = Value(0.0, "x")
    node = x
    for _ in range(100_000):
        node = gg.plus_one(node)
    steps = backward(node)
    assert len(steps) == 100_000 and steps[-1].parent is x and x.grad == 1.0 and node.data == 100_000.0
    events = gg.trace_dependency_safe_order(node)
    assert len(events) == 2 * 100_001 and events[-1] == gg.OrderEvent("append", node, 0)
    assert max(event.depth for event in events) == 100_000


# --- Cycles (only possible by mutating parents) ---------------------------------------------------------------


def labels_of(nodes: list[Value]) -> list[str]:
    """The labels of `nodes`."""
    return [node.label for node in nodes]


def chain(length: int) -> list[Value]:
    """`length` values, each made from the previous one, labelled n0, n1, ..."""
    nodes = [Value(1.0, "n0")]
    for i in range(1, length):
        nodes.append(gg.plus_one(nodes[-1], f"n{i}"))
    return nodes


def assert_cycle_reported(root: Value, on_cycle: set[str], labels: set[str]) -> None:
    """The walk, the trace and backward all raise CycleError naming nodes of the cycle, and only those."""
    for run in (dependency_safe_order, gg.trace_dependency_safe_order, backward, Value.backward):
        with pytest.raises(CycleError) as caught:
            run(root)
        message = str(caught.value)
        named = {label for label in labels if f"'{label}'" in message}
        assert named and named <= on_cycle, message


def test_a_node_that_is_its_own_parent_is_a_cycle() -> None:
    """A self-loop is reported by name."""
    nodes = chain(3)
    nodes[1].parents = (ParentLink(nodes[1], 1.0),)
    assert_cycle_reported(nodes[2], {"n1"}, set(labels_of(nodes)))


def test_an_unlabelled_node_on_a_cycle_is_named_by_its_repr() -> None:
    """Without a label, the message still identifies the node, by its data."""
    loop = Value(42.5) + 1.0
    loop.parents = (ParentLink(loop, 1.0),)
    with pytest.raises(CycleError, match=r"43\.5"):
        dependency_safe_order(loop * 2.0)


def test_a_node_that_is_its_own_ancestor_is_a_cycle() -> None:
    """A four-node cycle is reported, naming a node on it."""
    nodes = chain(6)
    # n1 <- n2 <- n3 <- n4 <- n1 (and n5 hangs below the cycle)
    nodes[1].parents = (ParentLink(nodes[0], 1.0), ParentLink(nodes[4], 1.0))
    assert_cycle_reported(nodes[5], {"n1", "n2", "n3", "n4"}, set(labels_of(nodes)))


def test_a_cycle_in_a_wide_graph_is_found() -> None:
    """A cycle behind an already finished branch: n0's second visit is a skip, not a cycle."""
    left, right = chain(3), chain(3)
    for node in right:
        node.label = "r" + node.label
    top = gg.add(left[2], right[2], "top")
    right[0].parents = (ParentLink(right[2], 1.0), ParentLink(left[0], 1.0))
    assert_cycle_reported(top, {"rn0", "rn1", "rn2"}, set(labels_of(left + right + [top])))


def test_a_shared_node_is_not_a_cycle() -> None:
    """Reaching a finished node again is sharing, not a cycle."""
    w = Value(3.0, "w")
    shared = w * w
    out = shared * shared + shared
    assert dependency_safe_order(out)[:2] == [w, shared]
    backward(out)
    assert w.grad == pytest.approx((4 * 3.0**3) + 2 * 3.0)


# --- Bad input is refused with a message naming it ---------------------------------------------------------


BAD_INPUT = {
    "Value('3')": (lambda w: Value("3"), ["str", "'3'"]),
    "Value(None)": (lambda w: Value(None), ["NoneType", "None"]),
    "Value([1])": (lambda w: Value([1]), ["list", "[1]"]),
    "Value(True)": (lambda w: Value(True), ["bool", "True"]),
    "Value(1+2j)": (lambda w: Value(1 + 2j), ["complex", "(1+2j)"]),
    "w * 'a'": (lambda w: w * "a", ["str", "'a'"]),
    "'a' + w": (lambda w: "a" + w, ["str", "'a'"]),
    "w ** w": (lambda w: w**w, ["Value"]),
    "w ** '2'": (lambda w: w ** "2", ["str", "'2'"]),
    "ParentLink(3, 1.0)": (lambda w: ParentLink(3, 1.0), ["int", "3"]),
    "ParentLink(w, 'x')": (lambda w: ParentLink(w, "x"), ["str", "'x'"]),
    "Value(1, parents=[w])": (lambda w: Value(1, parents=[w]), ["Value", "parents"]),
    "multiply(w, None)": (lambda w: gg.multiply(w, None), ["NoneType"]),
    "backward(3.0)": (lambda w: backward(3.0), ["float", "3.0"]),
    "backward(w, accumulate='no')": (lambda w: backward(w, accumulate="no"), ["accumulate", "'no'"]),
    "(w * 3).parents[0].value = 5.0": (
        lambda w: setattr((w * 3.0).parents[0], "value", 5.0),
        ["ParentLink.value", "float", "5.0"],
    ),
    "link.local_grad = 'x'": (lambda w: setattr((w * 3.0).parents[0], "local_grad", "x"), ["local_grad", "'x'"]),
}
"""Each bad call and the words its TypeError must contain (what was passed)."""


@pytest.mark.parametrize("call", BAD_INPUT)
def test_bad_input_raises_a_type_error_naming_it(call) -> None:
    """Each bad call raises TypeError whose message names what was passed."""
    make, words = BAD_INPUT[call]
    with pytest.raises(TypeError) as caught:
        make(Value(2.0, "w"))
    for word in words:
        assert word in str(caught.value), f"{call}: {caught.value}"


def test_numbers_of_every_real_kind_are_accepted() -> None:
    """ints, Fractions and NumPy scalars are real numbers: accepted, stored as float."""
    np = pytest.importorskip("numpy")
    for number, expected in [
        (3, 3.0),
        (-7, -7.0),
        (2.5, 2.5),
        (Fraction(1, 4), 0.25),
        (np.float64(2.5), 2.5),
        (np.float32(0.5), 0.5),
        (np.int64(3), 3.0),
        (np.int8(-2), -2.0),
    ]:
        value = Value(number)
        assert type(value.data) is float and value.data == expected, repr(number)
    w = Value(2.0)
    for product in (w * np.float64(3.0), np.float64(3.0) * w, w * 3, 3 * w):
        assert isinstance(product, Value) and product.data == 6.0
    assert gg.power(w, np.int64(3)).data == 8.0
    assert ParentLink(w, np.float32(0.5)).local_grad == 0.5


def test_repr_and_html_repr() -> None:
    """repr shows label, data and grad; the HTML display escapes the label."""
    value = Value(2.5, "<w&>")
    value.grad = -1.0
    assert repr(value) == "Value('<w&>', data=2.5, grad=-1)"
    html = value._repr_html_()
    assert "&lt;w&amp;&gt;" in html and "<w&>" not in html and "2.5" in html and "-1" in html
    assert "<w&>" in repr(ParentLink(value, 3.0)) and "local_grad=3" in repr(ParentLink(value, 3.0))


# --- micrograd code runs unchanged on glassgrad ---------------------------------------------------------


def micrograd_nn_with(import_line: str) -> types.ModuleType:
    """micrograd's own `nn.py` (MLP, Layer, Neuron), with its import line replaced by `import_line`."""
    micrograd_nn = pytest.importorskip("micrograd.nn")
    source = inspect.getsource(micrograd_nn)
    assert source.count("from micrograd.engine import Value") == 1
    module = types.ModuleType(f"nn_{abs(hash(import_line))}")
    exec(
        compile(source.replace("from micrograd.engine import Value", import_line), "micrograd/nn.py", "exec"),
        module.__dict__,
    )
    return module


def micrograd_engine_tests(value_class) -> dict[str, tuple[float, float]]:
    """micrograd's own engine tests (test_sanity_check, test_more_ops), run with `value_class`."""
    Value = value_class
    x = Value(-4.0)
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    results = {"sanity x": (x.data, x.grad), "sanity y": (y.data, y.grad)}

    a = Value(-4.0)
    b = Value(2.0)
    c = a + b
    d = a * b + b**3
    c += c + 1
    c += 1 + c + (-a)
    d += d * 2 + (b + a).relu()
    d += 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g += 10.0 / f
    g.backward()
    results.update({"a": (a.data, a.grad), "b": (b.data, b.grad), "g": (g.data, g.grad)})
    return results


def test_micrograds_engine_tests_give_micrograds_numbers() -> None:
    """micrograd's test_engine.py computations give micrograd's values and grads."""
    micrograd_engine = pytest.importorskip("micrograd.engine")
    mine = micrograd_engine_tests(Value)
    theirs = micrograd_engine_tests(micrograd_engine.Value)
    assert mine.keys() == theirs.keys()
    for name in mine:
        assert mine[name] == pytest.approx(theirs[name], rel=1e-12), name
    assert mine["g"][0] == pytest.approx(24.70408163265306, rel=1e-12)  # micrograd's test_more_ops value


def train_with_micrograd_nn(nn: types.ModuleType, steps: int = 5) -> tuple[list[float], list[list[float]]]:
    """micrograd's demo: an MLP(3, [4, 4, 1]) with a max-margin loss and L2, a few SGD steps.

    Returns the loss at each step and every parameter's gradient at each step.
    """
    random.seed(1337)  # the same seed gives both engines the same initial weights
    model = nn.MLP(3, [4, 4, 1])
    xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    ys = [1.0, -1.0, -1.0, 1.0]
    losses, grads = [], []
    for k in range(steps):
        scores = [model(x) for x in xs]
        margins = [(1 + -y * score).relu() for y, score in zip(ys, scores)]
        data_loss = sum(margins) * (1.0 / len(margins))
        reg_loss = 1e-4 * sum(p * p for p in model.parameters())
        squared = sum((score - y) ** 2 for y, score in zip(ys, scores)) / len(ys)
        total = data_loss + reg_loss + squared
        model.zero_grad()
        total.backward()
        losses.append(total.data)
        grads.append([p.grad for p in model.parameters()])
        for p in model.parameters():
            p.data -= (0.1 - 0.01 * k) * p.grad
    return losses, grads


def test_micrograds_mlp_trains_identically_on_glassgrad() -> None:
    """micrograd's nn.py on glassgrad: same losses and grads at every SGD step."""
    mine = train_with_micrograd_nn(micrograd_nn_with("from glassgrad import Value"))
    theirs = train_with_micrograd_nn(micrograd_nn_with("from micrograd.engine import Value"))
    assert mine[0] == pytest.approx(theirs[0], rel=1e-12)
    for step, (my_grads, their_grads) in enumerate(zip(mine[1], theirs[1])):
        assert my_grads == pytest.approx(their_grads, rel=1e-9, abs=1e-12), f"step {step}"
    assert mine[0][-1] < mine[0][0]  # and it learns
    assert len(mine[1][0]) == 4 * 4 + 4 * 5 + 5 == len(theirs[1][0])
    assert math.isfinite(mine[0][-1])


def test_a_number_too_large_for_a_float_is_named() -> None:
    with pytest.raises(OverflowError, match="an int of 401 digits is too large for a float64"):
        Value(10**400)


def test_numpys_bool_gets_the_same_hint_as_pythons() -> None:
    np = pytest.importorskip("numpy")
    for flag in (True, np.bool_(True)):
        with pytest.raises(TypeError, match=r"write float\(...\) if you mean 0.0 or 1.0"):
            Value(flag)


def test_a_label_of_none_is_no_label() -> None:
    assert Value(1.0, None).label == "" and repr(Value(1.0, None)) == "Value(data=1, grad=0)"


def test_show_dependency_order_refuses_a_wrong_order_that_is_safe() -> None:
    pytest.importorskip("graphviz")
    from glassgrad.viz import show_dependency_order

    x = Value(1.0, "x")
    y = x.log()
    assert "gg-order" in str(show_dependency_order(y, wrong_order=[x, y]))
    for root, safe in ((x, [x]), (y, [y, x])):  # a single value has no wrong order at all
        with pytest.raises(ValueError, match="the wrong_order you passed violates no dependency"):
            show_dependency_order(root, wrong_order=safe)


# --- micrograd's habits: random.seed and zero_grad once per batch ------------------------------------------------


def test_random_seed_decides_the_weights_as_in_micrograd() -> None:
    import random

    from micrograd import nn as micrograd_nn

    from glassgrad.nn import MLP

    random.seed(1337)
    first = [p.data for p in MLP(2, [16, 16, 1]).parameters()]
    second = [p.data for p in MLP(2, [16, 16, 1]).parameters()]
    random.seed(1337)
    assert first == [p.data for p in MLP(2, [16, 16, 1]).parameters()] != second
    random.seed(1337)
    assert first == [p.data for p in micrograd_nn.MLP(2, [16, 16, 1]).parameters()]
    assert [p.data for p in MLP(2, [4, 1], rng=7).parameters()] == [p.data for p in MLP(2, [4, 1], rng=7).parameters()]


def test_zero_grad_once_then_backward_per_batch_clears_unless_accumulating() -> None:
    """micrograd's loop zeroes once and adds every batch's gradient; glassgrad clears unless accumulate=True."""
    from micrograd.engine import Value as MicroValue

    batches = [[(1.0, 2.0), (2.0, 3.0)], [(3.0, 5.0)]]

    def run(make, backward_call):
        w = make(0.5)
        w.grad = 0.0  # zero_grad, once
        for batch in batches:
            loss = sum(((w * x - y) ** 2 for x, y in batch), make(0.0))
            backward_call(loss)
        return w.grad

    micrograd_grad = run(MicroValue, lambda loss: loss.backward())
    assert run(Value, lambda loss: loss.backward(accumulate=True)) == pytest.approx(micrograd_grad, rel=1e-15)
    last_batch_only = run(Value, lambda loss: loss.backward())
    assert last_batch_only == pytest.approx(2 * (0.5 * 3.0 - 5.0) * 3.0) != pytest.approx(micrograd_grad)


# --- drawing at the limits ------------------------------------------------------------------------------------


def test_a_20000_character_label_and_a_nul_draw_with_the_full_label_as_tooltip() -> None:
    pytest.importorskip("graphviz")
    from glassgrad.viz import draw_graph

    long, odd = Value(1.0, "&" * 20_000), Value(2.0, "a\x00b")
    html = str(draw_graph(long * odd))
    assert "&amp;" * 39 + "…" in html and "a\ufffdb" in html and "\x00" not in html
    assert f"<title>{'&amp;' * 20_000}</title>" in html


def test_a_graph_over_the_limit_is_refused_with_how_to_draw_it() -> None:
    pytest.importorskip("graphviz")
    from glassgrad.viz import draw_graph

    total = sum(Value(float(i)) for i in range(2_500))  # 2,500 leaves, the start 0 and 2,500 sums
    with pytest.raises(ValueError, match=r"has more than 1,000 values \(max_values=1,000\).*pass a larger max_values"):
        draw_graph(total)

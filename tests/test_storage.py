"""How a Value stores its links: unpacked until `.parents` is read, then ParentLinks that are the truth.

Ops keep an output's link in two fields, the operand and its local derivative, or for two operands
the first operand and a ``(du, v, dv)`` triple (one or two objects per node for Python's cycle
collector instead of three or four), and build the `ParentLink` tuple on the first read of `.parents`. These tests pin down that the two forms are one data model: same numbers, same
order, and every change made through `.parents` is what `backward` follows.
"""

from __future__ import annotations

import copy
import gc
import pickle
import sys

import pytest
from hypothesis import given

from glassgrad import ParentLink, Value, backward, dependency_safe_order, multiply, relu, trace_dependency_safe_order
from glassgrad.examples import linear_loss
from strategies import build_glassgrad, dag_settings, programs


def grads(nodes: list[Value]) -> list[float]:
    return [node.grad for node in nodes]


@dag_settings(40)
@given(programs(max_steps=10))
def test_reading_parents_changes_no_order_no_step_and_no_gradient(program) -> None:
    """Backward on a graph whose links are still flat equals backward after every `.parents` was read."""
    nodes, root = build_glassgrad(program)
    order_flat = dependency_safe_order(root)
    trace_flat = trace_dependency_safe_order(root)
    steps_flat = list(backward(root))
    grads_flat = grads(nodes)

    for node in order_flat:
        assert node.parents is node.parents  # built once, then the same tuple every time
    assert dependency_safe_order(root) == order_flat
    assert trace_dependency_safe_order(root) == trace_flat
    assert list(backward(root)) == steps_flat
    assert grads(nodes) == grads_flat


def test_parents_are_built_once_with_the_ops_local_derivatives() -> None:
    w, x = Value(2.0, "w"), Value(3.0, "x")
    m = multiply(w, x, "m")
    links = m.parents
    assert isinstance(links, tuple) and all(type(link) is ParentLink for link in links)
    assert [(link.value, link.local_grad) for link in links] == [(w, 3.0), (x, 2.0)]
    assert m.parents is links and m.parents[0] is links[0]
    square_by_hand = multiply(w, w)
    assert [(link.value, link.local_grad) for link in square_by_hand.parents] == [(w, 2.0), (w, 2.0)]


def test_a_mutated_link_is_what_backward_follows() -> None:
    """Changing a ParentLink read from `.parents` changes the gradient, as with any stored link."""
    nodes = linear_loss()
    backward(nodes["L"])
    w_grad = nodes["w"].grad
    link_to_w = nodes["m"].parents[0]
    assert link_to_w.value is nodes["w"]
    link_to_w.local_grad *= 10.0
    backward(nodes["L"])
    assert nodes["w"].grad == pytest.approx(10.0 * w_grad)
    assert nodes["x"].grad == pytest.approx(nodes["e"].grad * nodes["w"].data)  # the other link is untouched


def test_assigning_parents_to_an_op_result_replaces_its_flat_links() -> None:
    """Writing `.parents` before ever reading it: backward follows the new links, not the op's."""
    a, b, c = Value(1.5, "a"), Value(-2.0, "b"), Value(4.0, "c")
    out = multiply(a, b, "out")
    out.parents = [ParentLink(c, 7.0)]  # any iterable becomes a tuple
    assert out.parents == (out.parents[0],) and out.parents[0].value is c
    backward(out)
    assert (a.grad, b.grad, c.grad) == (0.0, 0.0, 7.0)
    assert dependency_safe_order(out) == [c, out]
    with pytest.raises(TypeError, match=r"'out'.*ParentLink.*got tuple"):
        out.parents = [(c, 1.0)]


def test_copy_and_pickle_keep_the_graph_and_its_gradients() -> None:
    nodes = linear_loss()
    nodes["a"].parents  # one node with built links, the others still flat
    for clone in (copy.deepcopy(nodes), pickle.loads(pickle.dumps(nodes))):
        backward(clone["L"])
        backward(nodes["L"])
        assert {name: value.grad for name, value in clone.items()} == {name: value.grad for name, value in nodes.items()}
        assert clone["m"].parents[0].value is clone["w"]


def test_an_op_result_is_at_most_two_objects_for_the_cycle_collector() -> None:
    """A chain of 10,000 binary and unary nodes adds at most two GC-tracked objects per node.

    The old layout (a parents tuple plus one ParentLink object per operand) was four per binary
    node; the cycle collector's full passes cost in proportion to this count on large graphs.
    """
    gc.collect()
    before = len(gc.get_objects())
    leaf = Value(0.5, "leaf")
    node = leaf
    for _ in range(5_000):
        node = relu(multiply(node, 1.0001))  # the constant 1.0001 is a leaf: three values per round
    gc.collect()
    tracked_per_value = (len(gc.get_objects()) - before) / 15_000
    assert 1.0 <= tracked_per_value <= 2.0, tracked_per_value
    node.backward()
    assert leaf.grad == pytest.approx(1.0001**5_000)


def test_a_value_is_an_80_byte_object_with_no_dict() -> None:
    """Six slots: the cycle collector's cost per node jumps with the next allocation size (96 bytes)."""
    for node in (Value(1.0), relu(Value(1.0)), multiply(Value(1.0), 2.0), linear_loss()["L"]):
        assert not hasattr(node, "__dict__") and not hasattr(node, "__weakref__")
        assert sys.getsizeof(node) == 80  # 16 bytes of collector header, 16 of object header, 6 × 8 of slots

"""A Value's links, read or not, copied or not: one data model.

Reading `.parents`, assigning it, mutating a link, copying or pickling a graph (of any depth)
changes no number, no order and no step, and every change made through `.parents` is what
`backward` follows.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given

from glassgrad import ParentLink, Value, backward, dependency_safe_order, multiply, trace_dependency_safe_order
from glassgrad.examples import linear_loss

from strategies import build_glassgrad, programs


def grads(nodes: list[Value]) -> list[float]:
    return [node.grad for node in nodes]


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
    _ = nodes["a"].parents  # one node with built links, the others still flat
    for clone in (copy.deepcopy(nodes), pickle.loads(pickle.dumps(nodes))):
        backward(clone["L"])
        backward(nodes["L"])
        assert {name: value.grad for name, value in clone.items()} == {
            name: value.grad for name, value in nodes.items()
        }
        assert clone["m"].parents[0].value is clone["w"]


def test_pickle_and_deepcopy_a_20_000_deep_chain_keep_numbers_and_identities() -> None:
    """20 times deeper than Python's recursion limit: copying must not recurse."""
    x, k = Value(1.0, "x"), Value(1.000001, "k")
    chain = x
    for _ in range(20_000):
        chain = chain * k
    backward(chain, record=False)
    for copied, copied_x, copied_k in (pickle.loads(pickle.dumps((chain, x, k))), copy.deepcopy((chain, x, k))):
        assert copied.data == chain.data and (copied_x.grad, copied_k.grad) == (x.grad, k.grad)
        assert copied.parents[1].value is copied_k and copied_k is not k
        backward(copied, record=False)
        assert (copied_x.grad, copied_k.grad) == (x.grad, k.grad)


def test_pickling_a_sum_of_300_values_works() -> None:
    total = sum(Value(float(i)) for i in range(300))
    assert pickle.loads(pickle.dumps(total)).data == total.data == 44850.0

"""glassgrad against PyTorch float64 at every named node of the tutorial's graphs."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from glassgrad import (  # noqa: E402
    backward,  # noqa: E402
    examples,
    torch_reference,
)
from glassgrad.torch_reference import MismatchError, compare  # noqa: E402

GRAPHS = {
    "linear": (examples.linear_loss, torch_reference.linear_loss, {}),
    "fused": (examples.sigmoid_neuron, torch_reference.sigmoid_neuron, {"fused": True}),
    "atomic": (examples.sigmoid_neuron, torch_reference.sigmoid_neuron, {"fused": False}),
}
"""Each tutorial graph: glassgrad builder, PyTorch builder, fixed arguments."""


def glassgrad_after_backward(graph: str, **inputs: float):
    """The named nodes of `graph` built by glassgrad, after one backward call from L."""
    build, _, fixed = GRAPHS[graph]
    nodes = build(**fixed, **inputs)
    backward(nodes["L"])
    return nodes


def pytorch_reference(graph: str, **inputs: float):
    """PyTorch's ``{name: (value, grad)}`` for `graph`."""
    _, build, fixed = GRAPHS[graph]
    return build(**fixed, **inputs)


def bad_nodes(error: MismatchError) -> set[str]:
    """The node names an error message lists (``"w.grad: ..."`` or ``"y: missing ..."``)."""
    return set(re.findall(r"^\s+(\w+)[.:]", str(error), flags=re.MULTILINE))


@pytest.mark.parametrize("graph", GRAPHS)
def test_every_named_node_matches_pytorch(graph) -> None:
    """Every named node's value and grad equals PyTorch's (float64, relative 1e-12)."""
    nodes = glassgrad_after_backward(graph)
    reference = pytorch_reference(graph)
    assert set(nodes) == set(reference)
    compare(nodes, reference)


def test_first_graph_matches_pytorch_exactly() -> None:
    """The tutorial asserts == for the first graph: every number there is exact."""
    nodes = glassgrad_after_backward("linear")
    assert {name: (node.data, node.grad) for name, node in nodes.items()} == pytorch_reference("linear")


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "atomic"])
def test_neuron_leaf_grads_match_pytorch(fused) -> None:
    """The tutorial's final check: w, x, b, y gradients of the neuron equal PyTorch's."""
    nodes = glassgrad_after_backward("fused" if fused else "atomic")
    reference = pytorch_reference("fused" if fused else "atomic")
    assert [nodes[name].grad for name in "wxby"] == pytest.approx([reference[name][1] for name in "wxby"], rel=1e-12)
    assert [nodes[name].grad for name in "wxby"] == [-0.5, -0.125, -0.25, 1.0]


leaf = st.floats(-4.0, 4.0, allow_nan=False, allow_subnormal=False)


@given(graph=st.sampled_from(list(GRAPHS)), w=leaf, x=leaf, b=leaf, y=leaf)
def test_every_named_node_matches_pytorch_at_any_inputs(graph, w, x, b, y) -> None:
    """Parity holds beyond the tutorial's numbers (relative 1e-9; only exp/sigmoid may differ by an ulp)."""
    inputs = {"w": w, "x": x, "b": b, "y": y}
    compare(glassgrad_after_backward(graph, **inputs), pytorch_reference(graph, **inputs), rel_tol=1e-9, abs_tol=1e-12)


def test_a_perturbed_graph_raises_one_error_naming_each_bad_node() -> None:
    """One MismatchError lists exactly the nodes that were tampered with."""
    nodes = glassgrad_after_backward("linear")
    reference = pytorch_reference("linear")
    nodes["L"].data = 9.5  # a wrong forward number
    nodes["w"].grad = -17.0  # a wrong gradient
    with pytest.raises(MismatchError) as caught:
        compare(nodes, reference)
    assert bad_nodes(caught.value) == {"L", "w"}
    assert "L.value" in str(caught.value) and "w.grad" in str(caught.value)


def test_a_wrong_local_derivative_is_named_at_every_node_it_reaches() -> None:
    """A wrong ∂m/∂w upsets exactly w.grad; a wrong ∂a/∂m upsets m, w and x."""
    nodes = examples.linear_loss()
    nodes["m"].parents[0].local_grad = 4.0  # should be x = 3
    backward(nodes["L"])
    with pytest.raises(MismatchError) as caught:
        compare(nodes, pytorch_reference("linear"))
    assert bad_nodes(caught.value) == {"w"}

    nodes = examples.linear_loss()
    nodes["a"].parents[0].local_grad = 2.0  # should be 1
    backward(nodes["L"])
    with pytest.raises(MismatchError) as caught:
        compare(nodes, pytorch_reference("linear"))
    assert bad_nodes(caught.value) == {"m", "w", "x"}


def test_missing_nodes_are_named_on_either_side() -> None:
    """A node missing from either side is named too."""
    nodes = glassgrad_after_backward("fused")
    reference = pytorch_reference("fused")
    del nodes["y"]
    reference.pop("z")
    with pytest.raises(MismatchError) as caught:
        compare(nodes, reference)
    message = str(caught.value)
    assert "y: missing in glassgrad" in message and "z: missing in PyTorch" in message
    assert bad_nodes(caught.value) == {"y", "z"}


def test_nan_equals_nan_but_not_a_number() -> None:
    """compare treats nan as equal to nan (IEEE results), and as different from any number."""
    nodes = glassgrad_after_backward("linear")
    reference = pytorch_reference("linear")
    nodes["L"].data = reference["L"][0] * float("nan")
    with pytest.raises(MismatchError) as caught:
        compare(nodes, reference)
    assert bad_nodes(caught.value) == {"L"}
    reference["L"] = (float("nan"), reference["L"][1])
    compare(nodes, reference)

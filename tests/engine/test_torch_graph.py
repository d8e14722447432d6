"""`glassgrad.torch_graph.walk` against PyTorch's live graphs, `viz.boxes`, and the two PyTorch pages.

Node names and edge structure are always checked against ``grad_fn`` / ``next_functions`` read
directly from torch in the test, never against typed-in lists alone.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch
from helpers import flat_text, page_html, run_snippets

from glassgrad import backward
from glassgrad.examples import linear_loss, sigmoid_neuron
from glassgrad.torch_graph import FREED, TorchGraph, walk
from glassgrad.torch_reference import linear_tensors, neuron_tensors
from glassgrad.viz.boxes import Arrow, Box, draw_boxes


def leaf(number: float) -> torch.Tensor:
    return torch.tensor(number, dtype=torch.float64, requires_grad=True)


def reuse_tensors() -> dict[str, torch.Tensor]:
    """A value used twice by one op (w * w) and a non-leaf used by two ops (a in c and d)."""
    t = {"w": leaf(1.5)}
    t["a"] = t["w"] * t["w"]
    t["c"] = t["a"].exp()
    t["d"] = t["a"] + t["c"]
    return t


def division_tensors() -> dict[str, torch.Tensor]:
    """u / v reused with v: DivBackward0 and MulBackward0 share the AccumulateGrad of v."""
    t = {"u": leaf(3.0), "v": leaf(2.0)}
    t["r"] = t["u"] / t["v"]
    t["out"] = t["r"] * t["v"]
    return t


GRAPHS = {
    "linear": linear_tensors,
    "fused": lambda: neuron_tensors(True),
    "atomic": lambda: neuron_tensors(False),
    "reuse": reuse_tensors,
    "division": division_tensors,
}


def root_of(tensors: dict[str, torch.Tensor]) -> torch.Tensor:
    return list(tensors.values())[-1]


def torch_node_of(tensor: torch.Tensor):
    """PyTorch's own node for a tensor: its grad_fn, or for a leaf the AccumulateGrad that holds it."""
    if tensor.grad_fn is not None:
        return tensor.grad_fn
    return tensor.view_as(tensor).grad_fn.next_functions[0][0]  # a view's first input is the leaf's AccumulateGrad


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_node_kinds_and_labels_come_from_torch(name: str) -> None:
    tensors = GRAPHS[name]()
    graph = walk(root_of(tensors), names=tensors)
    for label, tensor in tensors.items():
        node = graph.node(label)
        assert node.label == label
        assert node.kind == type(torch_node_of(tensor)).__name__
        if tensor.is_leaf:
            assert node.variable is tensor
        assert node.inputs == len(torch_node_of(tensor).next_functions)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_edges_are_the_non_none_next_functions_in_order(name: str) -> None:
    tensors = GRAPHS[name]()
    graph = walk(root_of(tensors), names=tensors)
    for label, tensor in tensors.items():
        fn = torch_node_of(tensor)
        node_id = graph.node(label).id
        expected = [
            (slot, type(parent).__name__) for slot, (parent, _) in enumerate(fn.next_functions) if parent is not None
        ]
        found = [(edge.slot, graph.node(edge.parent).kind) for edge in graph.edges if edge.output == node_id]
        assert found == expected, label
        # A parent that is a named tensor is the very node walk labelled with that name.
        for edge in (edge for edge in graph.edges if edge.output == node_id):
            parent_fn = fn.next_functions[edge.slot][0]
            named = [other for other, t in tensors.items() if torch_node_of(t) is parent_fn]
            if named:
                assert graph.node(edge.parent).label == named[0]


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_order_is_dependency_safe_and_complete(name: str) -> None:
    tensors = GRAPHS[name]()
    graph = walk(root_of(tensors))
    position = {node.id: index for index, node in enumerate(graph.nodes)}
    assert [node.id for node in graph.nodes] == [f"t{index}" for index in range(len(graph.nodes))]
    assert graph.root == graph.nodes[-1].id
    assert all(position[edge.parent] < position[edge.output] for edge in graph.edges)
    # Every backward function reachable through next_functions is listed exactly once.
    seen, stack = set(), [root_of(tensors).grad_fn]
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack.extend(parent for parent, _ in fn.next_functions)
    assert len(graph.nodes) == len(seen)


def test_reused_values_are_one_node_with_several_edges() -> None:
    tensors = reuse_tensors()
    graph = walk(tensors["d"], names=tensors)
    w, a = graph.node("w"), graph.node("a")
    assert [(edge.parent, edge.slot) for edge in graph.edges if edge.output == a.id] == [(w.id, 0), (w.id, 1)]
    assert sum(edge.parent == a.id for edge in graph.edges) == 2  # used by c and by d
    assert graph.kinds().count("AccumulateGrad") == 1


def test_ids_are_deterministic() -> None:
    first, second = walk(root_of(linear_tensors())), walk(root_of(linear_tensors()))
    strip = lambda graph: ([(n.id, n.kind, n.label, n.saved, n.inputs) for n in graph.nodes], graph.edges, graph.root)
    assert strip(first) == strip(second)


def test_saved_values_then_freed_after_backward() -> None:
    tensors = linear_tensors()
    before = walk(tensors["L"], names=tensors)
    mul = dict(before.node("m").saved)
    assert (mul["self"], mul["other"]) == (tensors["w"].item(), tensors["x"].item())
    power = dict(before.node("L").saved)
    assert power["self"] == tensors["e"].item() and power["exponent"] == 2
    assert tensors["w"].grad is None  # walking runs nothing
    tensors["L"].backward()
    after = walk(tensors["L"], names=tensors)
    assert dict(after.node("m").saved) == {"self": FREED, "other": FREED}
    assert dict(after.node("L").saved)["exponent"] == 2  # a plain number is not freed
    assert repr(FREED) == "FREED"


def test_sizes_match_glassgrad_values() -> None:
    pairs = [
        (linear_tensors(), linear_loss()),
        (neuron_tensors(True), sigmoid_neuron(True)),
        (neuron_tensors(False), sigmoid_neuron(False)),
    ]
    for tensors, nodes in pairs:
        graph = walk(root_of(tensors), names=tensors)
        assert len(graph.nodes) == len(nodes)
        assert {node.label for node in graph.nodes} == set(nodes)


def test_reciprocal_spellings() -> None:
    d = 1 + torch.exp(leaf(0.0))
    base = len(walk(d).nodes)
    one_over = walk(1 / d)
    reciprocal = walk(torch.reciprocal(d))
    divided = walk(torch.ones((), dtype=torch.float64) / d)
    root_fn = (1 / d).grad_fn
    assert one_over.kinds()[base:] == [type(root_fn.next_functions[0][0]).__name__, type(root_fn).__name__]
    assert one_over.kinds()[base:] == ["ReciprocalBackward0", "MulBackward0"]
    assert reciprocal.kinds()[base:] == ["ReciprocalBackward0"]
    assert divided.kinds()[base:] == ["DivBackward0"]
    assert divided.node(divided.root).inputs == 2 and len(divided.parents(divided.root)) == 1


def test_walk_accepts_a_backward_function_and_rejects_a_leaf() -> None:
    tensors = linear_tensors()
    assert walk(tensors["L"].grad_fn) == walk(tensors["L"])
    with pytest.raises(ValueError, match="no grad_fn"):
        walk(tensors["w"])
    with pytest.raises(KeyError):
        walk(tensors["L"]).node("nowhere")
    assert isinstance(walk(tensors["L"]), TorchGraph)


def test_import_glassgrad_does_not_import_torch() -> None:
    code = "import sys, glassgrad; assert 'torch' not in sys.modules and 'glassgrad.torch_graph' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# --- viz.boxes -----------------------------------------------------------------------------------


def test_draw_boxes_escapes_and_is_deterministic() -> None:
    boxes = [Box("a", (("<script>alert(1)</script>", "label"), ('say "hi" & go', "data"))), Box("b", (("B", "local"),))]
    arrows = [Arrow("a", "b", "<i>")]
    first = str(draw_boxes(boxes, arrows, title="t<", id_prefix="p1", caption_text="c&"))
    assert "<script>" not in first and "&lt;script&gt;" in first
    assert "<i>" not in first and "t&lt;" in first and "c&amp;" in first
    assert first == str(draw_boxes(boxes, arrows, title="t<", id_prefix="p1", caption_text="c&"))
    assert 'id="p1-box-a"' in first and 'data-gg-source="a"' in first


def test_draw_boxes_rejects_bad_input() -> None:
    box = Box("a", (("A", "label"),))
    with pytest.raises(ValueError):
        draw_boxes([box], [Arrow("a", "missing")], title="t", id_prefix="p")
    with pytest.raises(ValueError):
        draw_boxes([Box("1bad", (("A", "label"),))], [], title="t", id_prefix="p")
    with pytest.raises(ValueError):
        draw_boxes([Box("a", (("A", "purple"),))], [], title="t", id_prefix="p")


# --- the accumulation sequence, as the page runs it ---------------------------------------------


def accumulation_page() -> dict:
    return run_snippets(*(f"docs/snippets/accumulation/{name}.py" for name in ("twins", "tables")))


def test_accumulate_matches_pytorch_call_by_call() -> None:
    page = accumulation_page()
    nodes, tensors = linear_loss(), page["torch_linear_loss"]()
    single = linear_loss()
    backward(single["L"])
    for call in (1, 2):
        backward(nodes["L"], accumulate=True)
        tensors["L"].backward(retain_graph=True)
        page["record"](f"call {call}", page["glassgrad_state"](nodes), page["torch_state"](tensors))
        assert all(nodes[name].grad == call * single[name].grad for name in nodes)
    for name in "wxby":
        nodes[name].grad = 0.0
        tensors[name].grad = None
    page["record"]("zeroed", page["glassgrad_state"](nodes), page["torch_state"](tensors))
    backward(nodes["L"], accumulate=True)
    tensors["L"].backward(retain_graph=True)
    page["record"]("call 3", page["glassgrad_state"](nodes), page["torch_state"](tensors))
    assert nodes["w"].grad == single["w"].grad and nodes["m"].grad == 3 * single["m"].grad
    table = page["state_table"]("call 1", "call 2")
    assert table.count("\n") == 1 + len(nodes)
    with pytest.raises(AssertionError):
        page["record"]("mismatch", {"w": 1.0}, {"w": 2.0})


# --- the built pages -----------------------------------------------------------------------------


text_of = flat_text


@pytest.mark.site
def test_pytorch_graph_page(built_site: Path) -> None:
    html = page_html(built_site, "beyond/pytorch-graph/")
    text = text_of(html)
    for kind in (
        "AccumulateGrad",
        "MulBackward0",
        "AddBackward0",
        "SubBackward0",
        "PowBackward0",
        "SigmoidBackward0",
        "NegBackward0",
        "ExpBackward0",
        "ReciprocalBackward0",
        "DivBackward0",
    ):
        assert kind in text, kind
    assert "1 / d adds ['ReciprocalBackward0', 'MulBackward0']" in text
    assert "torch.reciprocal(d) adds ['ReciprocalBackward0']" in text
    assert "{'other': FREED, 'self': FREED}" in text
    # glassgrad figures (linear, fused, atomic) and PyTorch figures (same three, three reciprocals).
    assert html.count('class="gg gg-graph"') == 3
    assert html.count('class="gg gg-graph gg-boxes"') == 6
    assert " object at 0x" not in html  # no memory addresses: the build is byte-identical


@pytest.mark.site
def test_accumulation_page(built_site: Path) -> None:
    text = text_of(page_html(built_site, "beyond/accumulation/"))
    single = linear_loss()
    backward(single["L"])
    assert "Trying to backward through the graph a second time" in text
    assert f"`w.grad` went from {single['w'].grad:g} to {2 * single['w'].grad:g}".replace("`", "") in text.replace(
        "`", ""
    )
    assert "m.grad = None" in text and "retain_grad" in text
    assert text.count("None") >= 4  # zero_grad() leaves every parameter's .grad at None
    assert "Gradient buffers across calls" in text

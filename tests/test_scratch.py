"""Chapter 2's engine (`glassgrad.scratch`): the tutorial's numbers, PyTorch's, and a wrong copy failing the site."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import glassgrad.scratch as scratch
from conftest import build_site
from glassgrad.examples import linear_loss, sigmoid_neuron
from glassgrad.torch_reference import linear_loss as torch_linear_loss
from glassgrad.torch_reference import sigmoid_neuron as torch_sigmoid_neuron
from test_seed import LINEAR_STEPS, rows
from conftest import copy_tree, keep_only_pages


def test_scratch_reproduces_pytorchs_table_and_the_seven_step_trace() -> None:
    nodes = linear_loss(scratch)
    steps = scratch.backward(nodes["L"])
    assert {name: (node.data, node.grad) for name, node in nodes.items()} == torch_linear_loss()
    assert rows(steps) == LINEAR_STEPS


@pytest.mark.parametrize("fused", [True, False])
def test_scratch_neuron_matches_pytorch(fused: bool) -> None:
    nodes = sigmoid_neuron(fused, scratch, b=-2.5, w=1.5)  # z far from 0: no round numbers
    scratch.backward(nodes["L"])
    reference = torch_sigmoid_neuron(fused, b=-2.5, w=1.5)
    for name, node in nodes.items():
        assert math.isclose(node.data, reference[name][0], rel_tol=1e-12), name
        assert math.isclose(node.grad, reference[name][1], rel_tol=1e-12), name


def test_backward_twice_clears_instead_of_accumulating() -> None:
    nodes = linear_loss(scratch)
    first = [step.after for step in scratch.backward(nodes["L"])]
    second = [step.after for step in scratch.backward(nodes["L"])]
    assert first == second and nodes["w"].grad == torch_linear_loss()["w"][1]


@pytest.mark.site
def test_a_copy_whose_multiply_swaps_its_local_derivatives_fails_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = copy_tree(tmp_path / "tree")
    keep_only_pages(tree, ["chapters/2-from-scratch.md"])  # chapter 2 on its own must catch it
    engine = tree / "src/glassgrad/scratch.py"
    source = engine.read_text(encoding="utf-8")
    right = "parents=(ParentLink(u, v.data),    # d(uv)/du = v\n                          ParentLink(v, u.data)),"
    wrong = "parents=(ParentLink(u, u.data),    # d(uv)/du = v\n                          ParentLink(v, v.data)),"
    assert source.count(right) == 1, "multiply's links are no longer written as this test expects"
    engine.write_text(source.replace(right, wrong), encoding="utf-8")

    monkeypatch.setenv("NOTEBOOK_EXECUTE", "false")  # the pages alone decide; the notebook is not run
    finished = build_site(tree, tmp_path / "site", pythonpath=tree / "src", check=False)
    log = finished.stdout
    assert finished.returncode != 0
    assert re.search(r"docs/chapters/2-from-scratch\.md: executed block \d+ .* raised AssertionError", log), log[-3000:]


def test_viz_draws_chapter_2s_engine_and_glassgrad_alike() -> None:
    pytest.importorskip("graphviz")
    import glassgrad
    from glassgrad import viz

    pages = []
    for engine in (scratch, glassgrad):
        nodes = linear_loss(engine)
        steps = engine.backward(nodes["L"])
        root = nodes["L"]
        pages.append([
            str(figure) for figure in (
                viz.draw_graph(root), viz.show_backward_steps(steps), viz.show_complete_state(root),
                viz.show_order_walk(root), viz.show_parent_link(nodes["m"]),
                viz.animate_order(root), viz.animate_backward(root, steps),
            )
        ])
    assert pages[0] == pages[1]


def test_the_figures_walk_matches_the_listed_order_and_needs_no_recursion() -> None:
    from glassgrad.viz.graph import walk

    nodes = sigmoid_neuron(False, scratch)
    assert walk(nodes["L"]) == scratch.dependency_safe_order(nodes["L"])
    deep = scratch.Value(1.0, "x")
    for _ in range(5000):
        deep = scratch.square(deep)
    with pytest.raises(RecursionError):
        scratch.dependency_safe_order(deep)
    assert len(walk(deep)) == 5001
    p = scratch.Value(1.0, "p")
    q = scratch.multiply(p, p, "q")
    p.parents = (scratch.ParentLink(q, 1.0),)  # p now depends on q, which depends on p
    with pytest.raises(ValueError, match="cycle"):
        walk(q)

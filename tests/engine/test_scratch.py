"""Chapter 2's engine (`glassgrad.scratch`): the tutorial's numbers, PyTorch's, and a wrong copy failing the site."""

from __future__ import annotations

import math
from typing import Any

import pytest
from graphs import LINEAR_STEPS, rows
from helpers import REPO, executed_blocks

import glassgrad.scratch as scratch
from glassgrad.examples import linear_loss, sigmoid_neuron
from glassgrad.torch_reference import linear_loss as torch_linear_loss
from glassgrad.torch_reference import sigmoid_neuron as torch_sigmoid_neuron


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


def swapped_multiply(value_class: type, link_class: type) -> Any:
    """The chapter's `multiply`, with the local derivatives of its two links swapped (built from its own classes)."""

    def multiply(u: Any, v: Any, label: str = "") -> Any:
        return value_class(u.data * v.data, label, parents=(link_class(u, u.data), link_class(v, v.data)), op="×")

    return multiply


def test_chapter_2_catches_a_multiply_that_swaps_its_local_derivatives() -> None:
    """Chapter 2's own blocks, run in order, fail (so its page cannot build) once its engine's multiply is wrong.

    (That a failing block fails every build, naming it: tests/site/test_exec_failures.py.)
    """
    pytest.importorskip("graphviz")
    chapter = "docs/chapters/2-from-scratch.md"
    namespace: dict = {"__name__": "__chapter__"}
    swapped = False
    with pytest.raises(AssertionError):
        for code, _ in executed_blocks((REPO / chapter).read_text(encoding="utf-8"), REPO):
            exec(compile(code, chapter, "exec"), namespace)  # noqa: S102 - the chapter's own code
            if not swapped and "multiply" in namespace and namespace["multiply"].__code__.co_filename == chapter:
                namespace["multiply"] = swapped_multiply(namespace["Value"], namespace["ParentLink"])
                swapped = True
    assert swapped  # the chapter lists its own multiply


def test_viz_draws_chapter_2s_engine_and_glassgrad_alike() -> None:
    pytest.importorskip("graphviz")
    import glassgrad
    from glassgrad import viz

    pages = []
    for engine in (scratch, glassgrad):
        nodes = linear_loss(engine)
        steps = engine.backward(nodes["L"])
        root = nodes["L"]
        pages.append(
            [
                str(figure)
                for figure in (
                    viz.draw_graph(root),
                    viz.show_backward_steps(steps),
                    viz.show_complete_state(root),
                    viz.show_order_walk(root),
                    viz.show_parent_link(nodes["m"]),
                    viz.animate_order(root),
                    viz.animate_backward(root, steps),
                )
            ]
        )
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

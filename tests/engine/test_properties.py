"""Property tests: random expression DAGs over every op, checked against PyTorch float64 and central differences."""

from __future__ import annotations

import inspect
import math

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

import glassgrad as gg  # noqa: E402
import glassgrad.ops  # noqa: E402

from strategies import (  # noqa: E402
    ALL_OPS,
    BINARY,
    EXPONENTS,
    POWERS,
    UNARY,
    build_glassgrad,
    build_torch,
    error_scales,
    programs,
)

TOLERANCE = 1e-9
"""Allowed difference, as a fraction of each node's error scale (see `strategies.error_scales`)."""


def test_strategies_cover_every_op() -> None:
    """Every public op of glassgrad.ops, every operator and every method is drawn by `programs`."""
    public_ops = {
        function
        for name, function in vars(glassgrad.ops).items()
        if inspect.isfunction(function) and not name.startswith("_") and function.__module__ == "glassgrad.ops"
    }
    drawn = {spelling[0] for spelling in BINARY.values()} | set(UNARY.values()) | {gg.power}
    assert public_ops - drawn == set()
    assert {"+", "-", "*", "/", "-u", "**", ".exp", ".log", ".relu", ".tanh", ".sigmoid"} <= set(ALL_OPS)
    assert any(not p.is_integer() for p in EXPONENTS) and any(p < 0 for p in EXPONENTS)
    assert set(POWERS) <= set(ALL_OPS)


def test_strategy_draws_shared_and_self_paired_non_leaf_nodes() -> None:
    """The DAGs really share: some non-leaf node feeds two steps, and some step uses one node twice."""

    def shares_a_non_leaf(program) -> bool:
        uses = [a for step in program.steps for a in step.operands if isinstance(a, int) and a >= len(program.leaves)]
        return len(uses) != len(set(uses))

    def pairs_a_node_with_itself(program) -> bool:
        return any(len(step.operands) == 2 and step.operands[0] == step.operands[1] for step in program.steps)

    assert shares_a_non_leaf(find(programs(), shares_a_non_leaf, settings=settings(database=None)))
    assert pairs_a_node_with_itself(find(programs(), pairs_a_node_with_itself, settings=settings(database=None)))


@given(programs())
def test_random_dag_matches_pytorch_at_every_node(program) -> None:
    """Values and grads of every node (leaves and intermediates) equal PyTorch float64's."""
    nodes, root = build_glassgrad(program)
    gg.backward(root)
    torch_nodes, torch_root = build_torch(program)
    torch_root.backward()
    forward_scale, backward_scale = error_scales(nodes, root)

    assert root.data == pytest.approx(torch_root.item(), rel=TOLERANCE, abs=TOLERANCE * forward_scale[id(root)])
    for node, twin in zip(nodes, torch_nodes, strict=True):
        assert abs(node.data - twin.item()) <= TOLERANCE * forward_scale[id(node)], node.label
        assert twin.grad is not None, f"{node.label} is not reachable from the root in PyTorch"
        assert abs(node.grad - twin.grad.item()) <= TOLERANCE * backward_scale[id(node)], node.label


@given(programs(max_steps=8))
def test_random_dag_matches_central_differences(program) -> None:
    """The engine's leaf gradients agree with central differences of the forward pass (minitorch style)."""
    error = gg.gradcheck(lambda *leaves: build_glassgrad(program, leaves)[1], program.leaves)
    assert error < 1e-5


@given(programs())
def test_order_puts_every_parent_first_and_each_node_once(program) -> None:
    """`dependency_safe_order` is a topological order of exactly the reachable nodes."""
    nodes, root = build_glassgrad(program)
    order = gg.dependency_safe_order(root)
    position = {id(node): i for i, node in enumerate(order)}
    assert len(position) == len(order)
    assert order[-1] is root
    assert {id(node) for node in nodes} <= set(position)
    for node in order:
        for link in node.parents:
            assert position[id(link.value)] < position[id(node)]
    appended = [event.node for event in gg.trace_dependency_safe_order(root) if event.kind == "append"]
    assert [id(node) for node in appended] == [id(node) for node in order]


@given(programs())
def test_backward_log_is_the_chain_rule_edge_by_edge(program) -> None:
    """One step per link; upstream × local = contribution; before + contribution = after; sums give the grads."""
    nodes, root = build_glassgrad(program)
    steps = gg.backward(root)
    order = gg.dependency_safe_order(root)
    assert len(steps) == sum(len(node.parents) for node in order)

    expected_edges = [(output, link.value) for output in reversed(order) for link in output.parents]
    assert [(s.output, s.parent) for s in steps] == expected_edges
    last_after: dict[int, float] = {}
    for step in steps:
        assert step.contribution == step.upstream * step.local
        assert step.after == step.before + step.contribution
        # A node sends only once its own gradient is complete.
        assert step.upstream == step.output.grad
        assert step.before == last_after.get(id(step.parent), 0.0)
        last_after[id(step.parent)] = step.after
    for node in order:
        if node is not root:
            assert node.grad == last_after.get(id(node), 0.0)


@given(programs(), st.integers(2, 4))
def test_accumulating_k_times_multiplies_grads_by_k(program, calls) -> None:
    """`accumulate=True` adds each call's gradients, so k calls give k × the single-call gradients."""
    nodes, root = build_glassgrad(program)
    gg.backward(root)
    single = [node.grad for node in nodes]
    for node in nodes:
        node.grad = 0.0
    for _ in range(calls):
        gg.backward(root, accumulate=True)
    for node, grad in zip(nodes, single):
        assert node.grad == pytest.approx(calls * grad, rel=1e-12, abs=1e-300)


@given(programs())
def test_graph_is_deterministic(program) -> None:
    """Building the same recipe twice gives the same order, numbers and backward log."""
    first_nodes, first_root = build_glassgrad(program)
    second_nodes, second_root = build_glassgrad(program)
    first = [(s.output.label, s.parent.label, s.upstream, s.local, s.contribution) for s in gg.backward(first_root)]
    second = [(s.output.label, s.parent.label, s.upstream, s.local, s.contribution) for s in gg.backward(second_root)]
    assert first == second
    for a, b in zip(first_nodes, second_nodes):
        assert (a.data, a.grad) == (b.data, b.grad) or (math.isnan(a.data) and math.isnan(b.data))

"""The forward-mode player and the tangent figure: frames replay `trace_jvp`, addressed to ids the figure has."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("graphviz")

from graphs import GRAPHS, replay  # noqa: E402

from glassgrad import Value, dependency_safe_order, trace_jvp  # noqa: E402
from glassgrad.examples import linear_loss  # noqa: E402
from glassgrad.viz import animate_forward, draw_graph, fmt  # noqa: E402
from glassgrad.viz.graph import GraphIds  # noqa: E402


@pytest.mark.parametrize("name", GRAPHS)
def test_replaying_every_frame_leaves_each_value_with_its_tangent(name) -> None:
    """Seed every leaf: after the last frame each slot reads "tangent <its tangent>", as the figure draws it."""
    root = GRAPHS[name]()
    order = dependency_safe_order(root)
    seeds = {leaf: float(i + 1) for i, leaf in enumerate(node for node in order if not node.parents)}
    steps = trace_jvp(root, seeds)
    player = animate_forward(root, seeds, steps)
    frames = player.data["frames"]
    assert len(frames) == 2 + len(steps) == 2 + sum(len(node.parents) for node in order)
    ids = GraphIds(root, re.search(r'id="([\w-]+)-player"', str(player)).group(1), order)
    _, texts = replay(player.data)[-1]
    assert {ids.node_id(node): texts[f"{ids.node_id(node)}-grad"] for node in order} == {
        ids.node_id(node): f"tangent {fmt(steps.tangents[node])}" for node in order
    }
    html = str(player)
    for state, _ in replay(player.data):  # every id a frame marks is in the figure
        assert all(f'id="{element}"' in html for element in state)
    for node in order:  # the static figure already shows the final tangents
        assert re.search(rf'id="{ids.node_id(node)}-grad"[^>]*>tangent {re.escape(fmt(steps.tangents[node]))}<', html)


def test_each_step_frame_names_its_link_and_the_tangent_it_adds() -> None:
    """Step 1 of chapter 2's graph with w moving at 1: w → m carries 1 × 3 into m's tangent."""
    nodes = linear_loss()
    player = animate_forward(nodes["L"], {nodes["w"]: 1.0})
    seed, first = player.data["frames"][1], player.data["frames"][2]
    assert "tw = 1, tx = 0, tb = 0, ty = 0" in seed["text"]
    assert first["text"] == "w → m: tw = 1 × ∂m/∂w = 3 gives 3; the tangent of m goes from 0 to 3."
    assert player.data["frames"][-1]["text"].endswith("the tangent of L goes from 0 to -18.")


def test_steps_from_another_graph_are_refused() -> None:
    """A log of one graph replayed on another names the mistake."""
    first, other = linear_loss(), linear_loss()
    with pytest.raises(ValueError, match="do not follow the stored links"):
        animate_forward(first["L"], {first["w"]: 1.0}, trace_jvp(other["L"], {other["w"]: 1.0}))


def test_tangent_figure_escapes_labels_and_marks_values_left_out() -> None:
    """draw_graph(tangents=...) writes "tangent" numbers, escapes names, and shows "—" for a value not given."""
    a, b = Value(1.0, "<a>"), Value(2.0, "b&")
    c = a * b
    figure = str(draw_graph(c, tangents={a: 1.0, c: 2.0}))
    assert "&lt;a&gt;" in figure and "<a>" not in figure and "b&amp;" in figure
    assert figure.count(">tangent 1<") == 1 and figure.count(">tangent 2<") == 1 and ">tangent —<" in figure
    assert "grad" not in re.sub(r'id="[^"]*"|class="[^"]*"|data-gg-grads="[^"]*"', "", figure)

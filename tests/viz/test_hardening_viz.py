"""Figures bounded by what they cost (both sides of every limit) and one escape and truncation path (issue 22)."""

from __future__ import annotations

import pytest

pytest.importorskip("graphviz")

from glassgrad import Value, viz  # noqa: E402
from glassgrad.viz import graph  # noqa: E402
from glassgrad.viz.boxes import Arrow, Box, draw_boxes  # noqa: E402
from glassgrad.viz.html import escape  # noqa: E402
from glassgrad.viz.render import dot_svg  # noqa: E402


def sum_of(leaves: int) -> Value:
    """leaves + (leaves - 1) values, 2 (leaves - 1) links."""
    total = Value(0.0, "x0")
    for i in range(1, leaves):
        total = total + Value(float(i), f"x{i}")
    return total


class Node:
    """A duck-typed node (viz reads only public fields) that counts how often its links are read."""

    reads = 0

    def __init__(self, parent: Node | None) -> None:
        self.data, self.grad, self.label, self.op = 1.0, 0.0, "", "f" if parent else ""
        self._links = (Link(parent),) if parent else ()

    @property
    def parents(self) -> tuple:
        Node.reads += 1
        return self._links


class Link:
    def __init__(self, value: Node) -> None:
        self.value, self.local_grad = value, 1.0


def test_refusing_a_huge_graph_stops_counting_at_the_limit() -> None:
    node = None
    for _ in range(100_000):
        node = Node(node)
    Node.reads = 0
    with pytest.raises(ValueError, match=r"draw_graph: the graph of .* has more than 10 values \(max_values=10\)"):
        viz.draw_graph(node, max_values=10)
    assert Node.reads <= 12  # not 100,000: the walk stopped at the 11th value


@pytest.mark.parametrize("limit", ["max_values", "max_links"])
def test_draw_graph_draws_at_each_limit_and_refuses_one_past(limit) -> None:
    root = sum_of(6)  # 11 values, 10 links
    at = {"max_values": 11, "max_links": 10}[limit]
    assert 'data-gg-index="10"' in str(viz.draw_graph(root, **{limit: at}))
    with pytest.raises(ValueError, match=rf"more than {at - 1} .*\({limit}={at - 1}\).*pass a larger {limit}"):
        viz.draw_graph(root, **{limit: at - 1})


def test_draw_graph_bounds_graphvizs_layout_nodes() -> None:
    root = sum_of(6)
    cost = graph.layout_cost(graph.walk(root))
    assert cost > 11 + 5  # values, operations, and the bends of edges that cross ranks
    assert "gg-root" in str(viz.draw_graph(root, max_layout=cost))
    with pytest.raises(ValueError, match=rf"more than {cost - 1} layout nodes .*max_layout={cost - 1}"):
        viz.draw_graph(root, max_layout=cost - 1)


def test_a_dense_graph_costs_far_more_layout_than_a_chain_of_the_same_size() -> None:
    chain = Value(1.0, "a")
    dense = [Value(1.0, "a"), Value(2.0, "b")]
    for i in range(60):
        chain = chain * 1.5
        dense.append(dense[-1] * dense[i // 2])  # each value also uses one far back: long edges
    assert graph.layout_cost(graph.walk(dense[-1])) > 5 * graph.layout_cost(graph.walk(chain))


def test_graphs_past_the_large_layout_threshold_get_the_quick_settings(monkeypatch) -> None:
    sources: list[str] = []
    keep = lambda source: sources.append(source) or dot_svg(source)  # noqa: E731 - the backend, passed in
    root = sum_of(4)
    cost = graph.layout_cost(graph.walk(root))
    monkeypatch.setattr(graph, "LARGE_LAYOUT", cost)
    viz.draw_graph(root, render=keep)
    monkeypatch.setattr(graph, "LARGE_LAYOUT", cost - 1)
    viz.draw_graph(root, render=keep)
    assert "splines=line" not in sources[0] and "nslimit" not in sources[0]
    assert "splines=line" in sources[1] and "nslimit=0.01" in sources[1] and "mclimit=0.1" in sources[1]


@pytest.mark.parametrize(
    ("draw", "values"),
    [
        (lambda root, n: viz.show_order_walk(root, max_values=n), 11),
        (lambda root, n: viz.animate_order(root, max_values=n), 11),
        (lambda root, n: viz.show_dependency_order(root, graph.walk(root), max_values=n), 11),
    ],
)
def test_the_other_figures_draw_at_their_limit_and_refuse_one_past(draw, values) -> None:
    root = sum_of(6)
    assert "x5" in str(draw(root, values))
    with pytest.raises(ValueError, match=rf"more than {values - 1} values"):
        draw(root, values - 1)


def test_default_limits_of_the_players_and_cards() -> None:
    big = sum_of(501)  # 1,001 values: one past viz.draw_graph's limit
    for draw in (viz.draw_graph, viz.animate_backward, viz.show_complete_state, viz.show_order_walk):
        with pytest.raises(ValueError, match="more than"):
            draw(big)
    with pytest.raises(ValueError, match=r"animate_order: .*more than 100 values"):
        viz.animate_order(sum_of(51))  # 101 values
    assert "gg-player" in str(viz.animate_order(sum_of(50)))  # 99 values
    with pytest.raises(ValueError, match=r"show_order_walk: .*more than 300 values"):
        viz.show_order_walk(sum_of(151))  # 301 values
    from glassgrad import backward

    assert 'data-gg-steps="998"' in str(viz.show_backward_steps(backward(sum_of(500))))  # 999 values
    with pytest.raises(ValueError, match=r"show_backward_steps: .*more than 1,000 values"):
        viz.show_backward_steps(backward(big))


def test_show_parent_link_bounds_its_links_and_names_a_missing_one() -> None:
    w = Value(1.0, "w")
    from glassgrad import ParentLink

    wide = Value(3.0, "v", [ParentLink(w, 1.0)] * 3, "Σ")
    assert 'id="' in str(viz.show_parent_link(wide, 2, max_links=3))
    with pytest.raises(ValueError, match=r"more than 2 parent links \(max_links=2\)"):
        viz.show_parent_link(wide, max_links=2)
    for k in (3, -1, 1.0):
        with pytest.raises(IndexError, match=rf"'v' has links 0 to 2, no link k={k!r}"):
            viz.show_parent_link(wide, k)


def test_draw_graph_of_none_names_it() -> None:
    for draw in (viz.draw_graph, viz.show_order_walk, viz.show_complete_state, viz.show_parent_link):
        with pytest.raises(TypeError, match=r"expected a Value .* got NoneType None"):
            draw(None)


# --- 3. one escape and truncation path ----------------------------------------------------------------------


HOSTILE = ["w" * 1_000_000, "\ufffe\uffff", "a\ud800b", "\udfff"]


@pytest.mark.parametrize("label", HOSTILE)
def test_hostile_labels_and_a_long_op_draw_in_every_figure(label) -> None:
    w, x = Value(2.0, label), Value(3.0, "x")
    m = w * x
    m.op = "o" * 200_000
    m.label = "m"
    for figure in (
        viz.show_parent_link(m),
        viz.draw_graph(m),
        viz.show_order_walk(m),
        viz.animate_order(m),
        viz.show_complete_state(m),
    ):
        html = str(figure)
        html.encode("utf-8")  # no lone surrogate left
        assert "\ufffe" not in html and "\uffff" not in html
        if len(label) > 40:
            assert "w" * 39 + "…" in html
        else:
            assert label.translate({c: "\ufffd" for c in (0xFFFE, 0xFFFF, 0xD800, 0xDFFF)}) in html
    assert "o" * 11 + "…" in str(viz.draw_graph(m))  # the op circle


@pytest.mark.parametrize("blank", ["\r", "\n", "\t", "\r\n", " \t "])
def test_labels_and_ops_of_only_blanks_draw_in_every_figure(blank) -> None:
    """Graphviz refuses a label text of nothing but tabs and line breaks: every figure draws it as spaces."""
    w, x = Value(2.0, blank), Value(3.0, "x")
    m = w * x
    m.op, m.label = blank, "m"
    for figure in (
        viz.show_parent_link(m),
        viz.draw_graph(m, mark=[m], mark_label=blank),
        viz.draw_graph(m, rankdir="TB"),
    ):
        assert f'data-gg-label="{escape(blank)}"' in str(figure) or isinstance(figure, type(viz.show_parent_link(m)))
    for figure in (viz.animate_order(m), viz.animate_backward(m), viz.show_complete_state(m), viz.show_order_walk(m)):
        assert str(figure)
    boxes = draw_boxes(
        [Box("a", ((blank, "label"), (blank, "data")))], [Arrow("a", "a", blank)], title=blank, id_prefix="b"
    )
    assert 'id="b-box-a"' in str(boxes)


def test_order_violations_lists_each_wrong_pair_once() -> None:
    w = Value(2.0, "w")
    s = w * w
    L = s + w
    assert viz.order_violations(L, [L, s, w]) == []
    assert viz.order_violations(L, [w, L, s]) == [(w, s), (w, L)]
    assert viz.order_violations(L, [L, w, s]) == [(w, s)]

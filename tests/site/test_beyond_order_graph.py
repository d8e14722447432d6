"""'Why the order matters': the wrong backward algorithms, the recursion limit, and the built page.

The snippets under docs/snippets/why_order/ are executed here in one namespace, as the page runs
them in one session. Every expected number is derived from the graph's own links, from glassgrad's
`backward` or from PyTorch, never typed in.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from helpers import REPO, flat_text, page_html, run_snippets

from glassgrad import backward, dependency_safe_order, scratch

SNIPPETS = REPO / "docs" / "snippets" / "why_order"
PAGE = "beyond/why-order/"
PAGE_ORDER = ["graphs", "every_path", "one_pass", "torch_twins", "compare", "assign", "iterative_order", "deep_chain"]


@pytest.fixture(scope="module")
def page() -> dict:
    """The page's session namespace: every snippet executed in page order."""
    return run_snippets(*(SNIPPETS / f"{name}.py" for name in PAGE_ORDER))


def by_label(root) -> dict:
    """Every node reachable from `root`, by label."""
    return {node.label: node for node in dependency_safe_order(root)}


def local(output, parent) -> float:
    """The local derivative saved on the (single) link from `output` to `parent`."""
    (link,) = [link for link in output.parents if link.value is parent]
    return link.local_grad


def path_count_updates(root) -> int:
    """Updates the every-path algorithm must make: for each link, the number of root→output paths."""
    order = dependency_safe_order(root)
    paths = {node: 0 for node in order}
    paths[root] = 1
    total = 0
    for output in reversed(order):
        for link in output.parents:
            paths[link.value] += paths[output]
            total += paths[output]
    return total


# --- the algorithms ------------------------------------------------------------------------------


def test_every_path_is_right_everywhere(page: dict) -> None:
    for name in page["GRAPHS"]:
        assert page["run"](name, "(a) every path")[2] == pytest.approx(page["right_grads"](name), abs=1e-15), name


@pytest.mark.parametrize(
    "graph_name", ["doubling chain", "skip connection", "tutorial: linear", "tutorial: atomic sigmoid"]
)
def test_every_path_work_is_the_number_of_paths(page: dict, graph_name: str) -> None:
    root, steps, _ = page["run"](graph_name, "(a) every path")
    assert len(steps) == path_count_updates(page["GRAPHS"][graph_name]())


@pytest.mark.parametrize("levels", [1, 3, 6, 10])
def test_every_path_work_doubles_per_level_while_backward_is_linear(page: dict, levels: int) -> None:
    path_root, right_root = page["doubling_chain"](levels), page["doubling_chain"](levels)
    path_updates = len(page["backward_every_path"](path_root))
    links = sum(len(node.parents) for node in dependency_safe_order(right_root))
    assert len(backward(right_root)) == links
    assert path_updates == path_count_updates(page["doubling_chain"](levels)) == 2 ** (levels + 1) - 2
    a_path = by_label(path_root)["a"]
    a_right = by_label(right_root)["a"]
    assert a_path.grad == a_right.grad == 2.0**levels


def test_breadth_first_on_the_skip_connection_sends_a_before_c_arrives(page: dict) -> None:
    root, steps, found = page["run"]("skip connection", "(b) breadth-first")
    nodes = by_label(root)
    right = page["right_grads"]("skip connection")
    # a is processed with only d's direct contribution: 1 × ∂d/∂a(direct).
    direct = local(nodes["d"], nodes["a"])
    assert found["x"] == direct * local(nodes["a"], nodes["x"]) != right["x"]
    assert found["a"] == right["a"]  # c's share arrives, but too late to be passed on
    first = page["first_wrong_step"](steps, right)
    assert (steps[first].output.label, steps[first].parent.label, steps[first].upstream) == ("a", "x", direct)
    assert [node.label for node in page["breadth_first_order"](page["skip_connection"]())] == ["d", "a", "c", "x"]


def test_assign_on_the_skip_connection_keeps_only_the_last_contribution(page: dict) -> None:
    root, steps, found = page["run"]("skip connection", "(c) = instead of +=")
    nodes = by_label(root)
    right = page["right_grads"]("skip connection")
    via_c = local(nodes["d"], nodes["c"]) * local(nodes["c"], nodes["a"])  # the last link into a
    assert found["a"] == via_c != right["a"]
    assert found["x"] == via_c * local(nodes["a"], nodes["x"])
    first = page["first_wrong_step"](steps, right)
    assert (steps[first].output.label, steps[first].parent.label) == ("c", "a")
    assert steps[first].after == steps[first].contribution != steps[first].before + steps[first].contribution


def test_assign_on_the_doubling_chain_loses_one_link_per_level(page: dict) -> None:
    levels = 4
    root = page["doubling_chain"](levels)
    page["backward_assign"](root)
    right = page["doubling_chain"](levels)
    backward(right)
    # Each `c = b + b` keeps one of its two equal contributions: the product of one local per level.
    assert by_label(root)["a"].grad == math.prod(node.parents[0].local_grad for node in dependency_safe_order(root)[1:])
    assert by_label(right)["a"].grad == 2**levels * by_label(root)["a"].grad


def test_leaves_first_sends_only_zeros_below_the_root(page: dict) -> None:
    for name in page["GRAPHS"]:
        root, _, found = page["run"](name, "(b) leaves first")
        direct_parents = {link.value.label for link in root.parents}
        for label, grad in found.items():
            if label == root.label:
                assert grad == 1.0
            elif label in direct_parents:
                links = [link.local_grad for link in root.parents if link.value.label == label]
                assert grad == sum(links), (name, label)
            else:
                assert grad == 0.0, (name, label)


@pytest.mark.parametrize("graph_name", ["tutorial: linear", "tutorial: fused sigmoid", "tutorial: atomic sigmoid"])
def test_trees_hide_breadth_first_and_assign_bugs(page: dict, graph_name: str) -> None:
    right = page["right_grads"](graph_name)
    for algorithm in ("(b) breadth-first", "(c) = instead of +="):
        assert page["wrong_labels"](page["run"](graph_name, algorithm)[2], right) == [], algorithm


@pytest.mark.parametrize(
    "graph_name", ["doubling chain", "skip connection", "tutorial: linear", "tutorial: atomic sigmoid"]
)
def test_pytorch_agrees_with_glassgrad_on_every_graph(page: dict, graph_name: str) -> None:
    theirs = page["torch_grads"](graph_name)
    right = page["right_grads"](graph_name)
    assert theirs.keys() == right.keys()
    for label in right:
        assert math.isclose(theirs[label], right[label], rel_tol=1e-12, abs_tol=1e-12), label


def test_grads_table_marks_exactly_the_wrong_cells(page: dict) -> None:
    table = page["grads_table"]("skip connection")
    right = page["right_grads"]("skip connection")
    wrong = sum(
        len(page["wrong_labels"](page["run"]("skip connection", name)[2], right)) for name in page["ALGORITHMS"]
    )
    assert table.count("✗") == wrong > 0


# --- recursion -----------------------------------------------------------------------------------


def test_the_pages_loop_orders_like_chapter_2s_recursion_and_glassgrad(page: dict) -> None:
    for build in page["GRAPHS"].values():
        root = build()
        expected = scratch.dependency_safe_order(root)
        assert page["iterative_dependency_safe_order"](root) == expected == dependency_safe_order(root)


def test_chapter_2s_recursion_hits_the_default_recursion_limit_and_the_loop_does_not(page: dict) -> None:
    limit = page["DEFAULT_LIMIT"]
    longest = page["longest_chain_that_works"](scratch.dependency_safe_order, engine=scratch)
    assert limit - 10 < longest < limit
    fits, too_deep = (page["scaled_chain"](n, engine=scratch)[0] for n in (longest, longest + 1))
    result, error = page["in_fresh_thread"](scratch.dependency_safe_order, fits)
    assert error is None and len(result) == longest + 2
    _, error = page["in_fresh_thread"](scratch.dependency_safe_order, too_deep)
    assert isinstance(error, RecursionError)
    assert len(page["iterative_dependency_safe_order"](too_deep)) == longest + 3


def test_iterative_order_handles_a_deep_chain(page: dict) -> None:
    length = 100_000  # far past any recursion limit, cheap enough for the suite
    root, x, k = page["scaled_chain"](length)
    order = dependency_safe_order(root)
    assert len(order) == length + 2 and order[0] is x and order[-1] is root
    backward(root, record=False)
    assert math.isclose(x.grad, k.data**length, rel_tol=1e-9)
    assert math.isclose(k.grad, length * k.data ** (length - 1), rel_tol=1e-9)


# --- the built page ------------------------------------------------------------------------------


text_of = flat_text


@pytest.mark.site
def test_page_shows_the_computed_wrong_numbers(built_site: Path, page: dict) -> None:
    html = page_html(built_site, PAGE)
    text = text_of(html)
    right = page["right_grads"]("skip connection")
    bfs = page["run"]("skip connection", "(b) breadth-first")[2]
    assigned = page["run"]("skip connection", "(c) = instead of +=")[2]
    assert f"x.grad stays {bfs['x']:g} instead of {right['x']:g}" in text
    assert f"becomes {assigned['x']:g} instead of {right['x']:g}" in text
    assert text.count("⚠") >= 2  # both traces mark their first wrong update


@pytest.mark.site
def test_page_shows_work_counts_and_recursion_figures(built_site: Path, page: dict) -> None:
    text = text_of(page_html(built_site, PAGE))
    assert f"{2**17 - 2:,}" in text  # every-path updates at 16 levels
    assert "RecursionError: maximum recursion depth exceeded" in text
    assert f"recursion limit: {page['DEFAULT_LIMIT']}" in text
    assert "x.grad = " in text and "k.grad = " in text  # the million-node chain's backward ran
    assert f"{1.000001**1_000_000:.7f}"[:8] in text  # ≈ e, as computed on the page


@pytest.mark.site
def test_page_figures_and_tables(built_site: Path) -> None:
    html = page_html(built_site, PAGE)
    # Two graphs up top, the skip connection after the three wrong runs, three players (glassgrad, breadth-first, =).
    assert html.count('class="gg gg-graph"') == 2 + 3 + 3
    assert html.count('class="gg gg-player"') == 3
    assert html.count("<table") >= 2 + 5 + 1 + 1  # work, two traces, five graphs, summary
    assert "✗" in html and "0x7f" not in html

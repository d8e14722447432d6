"""The "made fast" page's claim: glassgrad and chapter 2's engine give the same numbers, orders and steps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import glassgrad
from conftest import build_site
from conftest import copy_tree, keep_only_pages

REPO = Path(__file__).resolve().parents[1]


def page_functions() -> dict:
    """The page's own recipe builder and comparison (docs/snippets/made_fast/random_graphs.py)."""
    namespace: dict = {}
    source = REPO / "docs/snippets/made_fast/random_graphs.py"
    exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), namespace)
    return namespace


PAGE = page_functions()


@given(st.randoms(use_true_random=False))
def test_both_engines_agree_on_random_graphs(rng) -> None:
    found = PAGE["differences"](PAGE["random_recipe"](rng))
    assume(found is not None)  # chapter 2's engine raised (overflow, 1/0): glassgrad gives inf or nan there
    assert found == []


def test_the_comparison_sees_a_wrong_local_derivative(monkeypatch: pytest.MonkeyPatch) -> None:
    def swapped_multiply(u, v, label=""):
        return glassgrad.Value(u.data * v.data, label, (glassgrad.ParentLink(u, u.data), glassgrad.ParentLink(v, v.data)), "×")

    monkeypatch.setattr(glassgrad, "multiply", swapped_multiply)
    recipe = ([2.0, 3.0], [("multiply", 0, 1)])
    assert PAGE["differences"](recipe) == ["v0: data or grad", "v1: data or grad", "step v2 → v0", "step v2 → v1"]


@pytest.mark.site
def test_a_copy_whose_fast_multiply_swaps_its_local_derivatives_fails_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = copy_tree(tmp_path / "tree")
    keep_only_pages(tree, ["beyond/made-fast.md"])
    ops = tree / "src/glassgrad/ops.py"
    source = ops.read_text(encoding="utf-8")
    right = '"×", u, v.data, v, u.data)'
    assert source.count(right) == 1, "multiply's local derivatives are no longer written as this test expects"
    ops.write_text(source.replace(right, '"×", u, u.data, v, v.data)'), encoding="utf-8")

    monkeypatch.setenv("NOTEBOOK_EXECUTE", "false")
    finished = build_site(tree, tmp_path / "site", pythonpath=tree / "src", check=False)
    assert finished.returncode != 0
    assert re.search(r"docs/beyond/made-fast\.md.*AssertionError", finished.stdout, re.S), finished.stdout[-3000:]

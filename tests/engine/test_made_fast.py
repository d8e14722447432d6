"""The "made fast" page's claim: glassgrad and chapter 2's engine give the same numbers, orders and steps."""

from __future__ import annotations

import functools

import pytest
from helpers import REPO, executed_blocks, run_snippets
from hypothesis import assume, given
from hypothesis import strategies as st

import glassgrad


@functools.cache
def page() -> dict:
    """The page's own recipe builder and comparison (run when a test first needs them, not at collection)."""
    return run_snippets("docs/snippets/made_fast/random_graphs.py")


@given(st.randoms(use_true_random=False))
def test_both_engines_agree_on_random_graphs(rng) -> None:
    found = page()["differences"](page()["random_recipe"](rng))
    assume(found is not None)  # chapter 2's engine raised (overflow, 1/0): glassgrad gives inf or nan there
    assert found == []


def swapped_multiply(u, v, label=""):
    """glassgrad's multiply with its two local derivatives swapped (d(uv)/du saved as u)."""
    return glassgrad.Value(
        u.data * v.data, label, (glassgrad.ParentLink(u, u.data), glassgrad.ParentLink(v, v.data)), "×"
    )


def test_the_comparison_sees_a_wrong_local_derivative(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(glassgrad, "multiply", swapped_multiply)
    recipe = ([2.0, 3.0], [("multiply", 0, 1)])
    assert page()["differences"](recipe) == ["v0: data or grad", "v1: data or grad", "step v2 → v0", "step v2 → v1"]


def test_the_page_catches_a_fast_multiply_that_swaps_its_local_derivatives(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's own blocks, run in order, fail (so it cannot build) when glassgrad's multiply is wrong.

    (That a failing block fails every build, naming it: tests/site/test_exec_failures.py.)
    """
    monkeypatch.setattr(glassgrad, "multiply", swapped_multiply)
    page = "docs/beyond/made-fast.md"
    namespace: dict = {"__name__": "__page__"}
    with pytest.raises(AssertionError):
        for code, _ in executed_blocks((REPO / page).read_text(encoding="utf-8"), REPO):
            exec(compile(code, page, "exec"), namespace)  # noqa: S102 - the page's own code

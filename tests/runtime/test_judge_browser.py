"""In a real browser, a Check's verdict comes from the page's judge, a Python no program runs in.

One page load of the Exercises: each attack of issue 41 (the checker replaced, a function's ``__code__``
swapped, ``OPERATIONS`` mutated, a float whose ``__float__`` reads the checker's frame, a KeyboardInterrupt
from a label while the graph is drawn) is added to a wrong answer to tanh, and the reader sees it fail, with
the wrong edge named; then the right answer passes, so the judge is not simply refusing everything.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from exercise_cases import ATTACKS, broken, check, source  # noqa: E402
from helpers import guarded_page  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

WRONG = broken("tanh", "1.0 - t * t", "1.0 + t * t")
"""A wrong answer to tanh (∂t/∂u = 1 + t²): without an attack, the verdict names the edge ∂t/∂u."""

LOUD_LABEL = (
    "class Loud(str):\n"
    "    def __str__(self):\n        raise KeyboardInterrupt\n"
    "    __repr__ = __format__ = __len__ = __iter__ = __str__\n"
    "    def __eq__(self, other):\n        raise KeyboardInterrupt\n"
    "    __hash__ = str.__hash__\n"
    "_tanh = tanh\n"
    "def tanh(u, label=''):\n    t = _tanh(u, label)\n    t.label = Loud('t')\n    return t\n"
)


@pytest.mark.pyodide
def test_no_attack_makes_a_wrong_answer_pass(browser: Any, site_url: str) -> None:
    with guarded_page(browser, site_url) as guarded:
        page, outside = guarded.page, guarded.outside
        page.goto(f"{site_url}exercises/")
        attacks = {**ATTACKS, "a KeyboardInterrupt from a label": LOUD_LABEL}
        # The OPERATIONS attack tries u = 40 only (where tanh's slope is 0.0): the judge's own inputs differ.
        attacks["OPERATIONS mutated"] = attacks["OPERATIONS mutated"] + "\n" + broken("tanh", "1.0 - t * t", "0.0")
        for name, attack in attacks.items():
            verdict = check(page, "tanh", WRONG + "\n" + attack)
            assert verdict.startswith("✗ Not yet."), (name, verdict)
            assert "Passed" not in verdict, (name, verdict)
            assert "The edge ∂t/∂u is wrong" in verdict or "does not match this checker's own inputs" in verdict, (
                name,
                verdict,
            )
        wrong_edge = page.locator('[data-gg-exercise="tanh"] .gg-ex-output svg g[data-gg-wrong="true"]')
        wrong_edge.wait_for(timeout=10_000)  # the label's KeyboardInterrupt did not stop the drawing
        assert wrong_edge.is_visible()
        verdict = check(page, "tanh", source("tanh"))
        assert verdict.startswith("✓ Passed"), verdict
        assert outside == []

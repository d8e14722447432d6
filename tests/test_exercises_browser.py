"""The Exercises page in a real browser: Check runs the reader's code on glassgrad in Pyodide, offline.

One page load drives every check, in the order a reader would meet them (Python loads once): each
exercise's solution, pasted into its editor, passes; the same solution with one derivative broken
is named, with its edge marked in the drawn graph; a loop that never ends is stopped by the time limit
(and the next Check works) and by Stop; progress is kept across a reload and can be cleared; hints
open one at a time; no request leaves the site; a phone's width and the dark palette; axe finds
nothing on the page with a failed check, its graph and its hints open.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from helpers import keep_inside  # noqa: E402
from test_exercises import broken, source  # noqa: E402  (the solutions the page shows, and one change to each)

from conftest import SETTLED  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

LIMIT_S = 3
"""The time limit the test sets through the page's ?limit= parameter (the page's default is longer)."""

BROKEN = {
    # exercise: (change to its solution, what the verdict must say, the marked edge's label, or None)
    "divide": (("dq_dv = -u.data", "dq_dv = u.data"), "The edge ∂q/∂v is wrong", "✗ ∂q/∂v"),
    "tanh": (("1.0 - t * t", "1.0 + t * t"), "The edge ∂t/∂u is wrong", "✗ ∂t/∂u"),
    "power": (("k * u.data ** (k - 1)", "k * u.data ** k"), "The edge ∂p/∂u is wrong", "✗ ∂p/∂u"),
    "sigmoid": (("s * (1.0 - s)", "s * s"), "The edge ∂s/∂z is wrong", "✗ ∂s/∂z"),
    "order": (("[x, a, p, b, q, L]", "[x, a, p, q, b, L]"), "q is at position 3, before its parent b", "✗ ∂q/∂b"),
    "backward": (("link.value.grad += contribution", "link.value.grad = contribution"), "was lost", "✗ ∂L/∂w"),
    "train-step": (("new_w = w - lr * wv.grad", "new_w = w + lr * wv.grad"), "a step up the gradient", None),
    "forward": (("tangent[node] += tangent", "tangent[node] = tangent"), "is missing", "✗ ∂L/∂w"),
}


def check(page: Any, name: str, code: str | None = None) -> str:
    """Put `code` in exercise `name`'s editor (None: keep it), press Check, wait; return the verdict's text."""
    box = page.locator(f'[data-gg-exercise="{name}"]')
    if code is not None:
        box.locator("textarea").fill(code)
    box.get_by_role("button", name="Check").click()
    verdict = box.locator(".gg-ex-verdict")
    verdict.wait_for(timeout=90_000)
    return verdict.inner_text()


def marked_edge(page: Any, name: str) -> Any:
    """The edge drawn as wrong in exercise `name`'s graph."""
    edge = page.locator(f'[data-gg-exercise="{name}"] .gg-ex-output svg g[data-gg-wrong="true"]')
    edge.wait_for(timeout=10_000)
    return edge


@pytest.mark.pyodide
def test_exercises_page(browser: Any, site_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    _, outside = keep_inside(context, site_url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    try:
        page.goto(f"{site_url}exercises/?limit={LIMIT_S}")
        assert page.locator("[data-gg-exercise]").count() == len(BROKEN) >= 6
        assert page.inner_text("[data-gg-ex-progress]").startswith("No exercise solved yet")

        # Each solution passes; the same solution with one derivative broken is named, its edge marked.
        for name, ((old, new), says, edge_label) in BROKEN.items():
            verdict = check(page, name, broken(name, old, new))
            assert verdict.startswith("✗ Not yet."), verdict
            assert says in verdict, verdict
            if edge_label:
                edge = marked_edge(page, name)
                assert edge.locator("text").first.text_content().startswith(edge_label)
                assert page.locator(f'[data-gg-exercise="{name}"] svg g[data-gg-wrong]').count() == 1
            assert check(page, name, source(name)).startswith("✓ Passed"), name
            assert page.locator(f'[data-gg-exercise="{name}"] svg').count() == 0  # a pass draws nothing
        assert page.inner_text("[data-gg-ex-progress]").startswith(f"Solved {len(BROKEN)} of {len(BROKEN)}")

        # Errors in the reader's code are named with their line; what it prints is shown, as text.
        assert "Syntax error on line 2" in check(page, "divide", "def divide(u, v, label=''):\nreturn u\n")
        printing = source("divide") + "print('<b>q</b> =', divide(Value(1, 'u'), Value(4, 'v')).data)\n"
        assert check(page, "divide", printing).startswith("✓ Passed")
        assert page.text_content('[data-gg-exercise="divide"] .gg-ex-printed') == "<b>q</b> = 0.25\n"

        # A phone's width, in the dark palette: no sideways scrolling, the marked edge in the dark palette's red.
        page.locator('label[title="Switch to the dark palette"]').click()  # the palette toggle in the header
        assert page.get_attribute("body", "data-md-color-scheme") == "slate"
        page.set_viewport_size({"width": 375, "height": 800})
        assert "∂s/∂z" in check(page, "sigmoid", source("sigmoid", "_start"))  # the bug the exercise asks to fix
        stroke = marked_edge(page, "sigmoid").locator("path").first.evaluate("path => getComputedStyle(path).stroke")
        assert stroke == "rgb(252, 165, 165)"  # --gg-bad in the dark palette
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        # axe: nothing on the page as it is now (a failed check with its graph, a hint and a solution open, dark, 375 px).
        page.locator("#sigmoid ~ .gg-ex-hints").first.locator("summary").first.click()
        page.locator("#sigmoid ~ details.success").first.locator("summary").click()
        # Colours as they settle: the palette's and the folds' transitions finished (mid-fade text is paler).
        page.evaluate(SETTLED)
        axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")
        options = {
            "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
            "resultTypes": ["violations"],
        }
        violations = axe_playwright.Axe().run(page, options=options).response["violations"]
        assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]

        # A loop that never ends: the time limit stops it and the next Check works; Stop ends one too.
        box = page.locator('[data-gg-exercise="tanh"]')
        assert f"more than {LIMIT_S} s" in check(page, "tanh", "while True:\n    pass\n")
        assert check(page, "tanh", source("tanh")).startswith("✓ Passed")
        box.locator("textarea").fill("while True:\n    pass\n")
        box.get_by_role("button", name="Check").click()
        page.wait_for_function(
            "document.querySelector('[data-gg-exercise=tanh] .gg-ex-status').textContent.startsWith('Checking')",
            timeout=60_000,
        )
        box.get_by_role("button", name="Stop").click()
        assert box.locator(".gg-ex-verdict").inner_text().startswith("Stopped. Press Check")

        # Progress survives a reload (and so does the code last checked); Clear progress forgets both.
        page.reload()
        assert page.inner_text("[data-gg-ex-progress]").startswith(f"Solved {len(BROKEN)} of {len(BROKEN)}")
        assert page.locator(".gg-ex-badge:visible").count() == len(BROKEN)
        assert page.input_value('[data-gg-exercise="divide"] textarea') == printing
        page.get_by_role("button", name="Clear progress").click()
        assert page.locator(".gg-ex-badge:visible").count() == 0
        assert page.input_value('[data-gg-exercise="divide"] textarea') == source("divide", "_start").rstrip("\n")
        page.reload()
        assert page.inner_text("[data-gg-ex-progress]").startswith("No exercise solved yet")

        # Hints: the second appears once the first has been opened.
        hints = page.locator("#divide ~ .gg-ex-hints").first.locator("details")
        assert hints.nth(1).is_hidden()
        hints.nth(0).locator("summary").click()
        assert hints.nth(1).is_visible()

        assert not outside, f"requests outside the site: {outside}"
        assert not errors, errors
    finally:
        context.close()


def test_without_javascript_the_page_shows_each_exercise_and_its_solution(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{site_url}exercises/")
        for name in BROKEN:
            box = page.locator(f'[data-gg-exercise="{name}"]')
            assert box.locator("pre code").inner_text().strip() == source(name, "_start").strip()
        solutions = page.locator("details.success")
        assert solutions.count() == len(BROKEN)
        texts = [
            solutions.nth(i).locator("pre code").text_content().strip() for i in range(len(BROKEN))
        ]  # folded: not rendered
        assert texts == [source(name).strip() for name in BROKEN]
    finally:
        context.close()

"""The Exercises page in a real browser: Check runs the reader's code on glassgrad in Pyodide, offline.

One page load drives every check, in the order a reader would meet them. Every Check gets a Python of its
own, so the checks here are few (tests/runtime/test_exercises.py checks every exercise's solution and wrong answers
without a browser): a check that rewrites the checker's file cannot make the next wrong answer pass; a
broken derivative is named, with its edge marked in the drawn graph; a solution passes and what it prints
is shown as text; a loop that never ends is stopped by the time limit (and the next Check works) and by
Stop; progress is kept across a reload and can be cleared; hints open one at a time; no request leaves the
site; a phone's width and the dark palette; axe finds nothing on the page with a failed check, its graph
and its hints open.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from exercise_cases import MISTAKES, broken, check, source  # noqa: E402  (the solutions the page shows, and one change to each)
from helpers import SETTLED, guarded_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

LIMIT_S = 3
"""The time limit the test sets through the page's ?limit= parameter (the page's default is longer)."""

BROKEN = {
    # exercise: (change to its solution, what the verdict must say, the marked edge's label, or None)
    "divide": (("-u.data / (v.data", "-1.0 / (v.data"), "The edge ∂q/∂v is wrong", "✗ ∂q/∂v"),
    "tanh": (("1.0 - t * t", "1.0 - t"), "The edge ∂t/∂u is wrong", "✗ ∂t/∂u"),
    "power": (("k * u.data ** (k - 1)", "u.data ** (k - 1)"), "The edge ∂p/∂u is wrong", "✗ ∂p/∂u"),
    "sigmoid": (("s * (1.0 - s)", "s * s"), "The edge ∂s/∂z is wrong", "✗ ∂s/∂z"),
    "order": (("[x, a, p, b, q, L]", "[x, a, p, q, b, L]"), "q is at position 3, before its parent b", "✗ ∂q/∂b"),
    "backward": (("link.value.grad += contribution", "link.value.grad = contribution"), "was lost", "✗ ∂L/∂w"),
    "train-step": (("new_w = w - lr * wv.grad", "new_w = w + lr * wv.grad"), "a step up the gradient", None),
    "forward": (("tangent[node] += tangent", "tangent[node] = tangent"), "is missing", "✗ ∂L/∂w"),
}


RULES = {
    # exercise: what its message says after the numbers for BROKEN's mistake: the mistake, then the rule in symbols
    "divide": ("Your number is −1/v² here: the factor u is missing.", "The rule: ∂q/∂v = −u/v²"),
    "tanh": ("Your number is 1 − t here: t is not squared.", "The rule: ∂t/∂u = 1 − t²"),
    "power": ("Your number is u^(k−1) here: the factor k is missing.", "The rule: ∂p/∂u = k·u^(k−1)"),
    "sigmoid": ("Your number is s² here", "The rule: ∂s/∂z = s(1 − s)"),
}
"""Issue 44's four wrong local derivatives (the sigmoid's is its starting code's): each message names its rule."""


def names_its_rule(verdict: str, name: str) -> bool:
    """The verdict names the edge at the inputs tried, the numbers, the mistake and the rule worked out there."""
    edge = BROKEN[name][1].split()[2]
    lines = verdict.splitlines()
    mistake, rule = RULES[name]
    where = lines[0].split(" is wrong at ")[1].rstrip(".")
    return (
        lines[0].startswith(f"✗ Not yet. The edge {edge} is wrong at ")
        and lines[1].startswith(f"At these inputs {edge} = ")
        and lines[2].startswith(mistake)
        and lines[3].startswith(rule)
        and lines[4].startswith(f"At {where}: ")
    )


ON_THE_PAGE = [
    # (exercise, program, what the verdict must say): two of issue 30's cases, the rest are checked through the same
    # record and judge without a browser (tests/runtime/test_judge.py): a KeyboardInterrupt raised by the answer,
    # and a local derivative that is no number.
    (
        "power",
        broken("power", "p = u.data ** k", "p = abs(u.data) ** k\n    raise KeyboardInterrupt"),
        "KeyboardInterrupt",
    ),
    next(
        (name, program, says.split(" at u = ")[0])
        for name, program, says in MISTAKES
        if "ParentLink(u, None)" in program
    ),
]
"""Honest mistakes that once crashed the checker: on the page too, each ends in a verdict naming it."""


def marked_edge(page: Any, name: str) -> Any:
    """The edge drawn as wrong in exercise `name`'s graph."""
    edge = page.locator(f'[data-gg-exercise="{name}"] .gg-ex-output svg g[data-gg-wrong="true"]')
    edge.wait_for(timeout=10_000)
    return edge


@pytest.mark.pyodide
def test_exercises_page(browser: Any, site_url: str) -> None:
    with guarded_page(browser, site_url) as guarded:
        page, outside, errors = guarded.page, guarded.outside, guarded.errors
        page.goto(f"{site_url}exercises/?limit={LIMIT_S}")
        assert page.locator("[data-gg-exercise]").count() == len(BROKEN) >= 6
        assert page.inner_text("[data-gg-ex-progress]").startswith("No exercise solved yet")

        # A check that rewrites the checker's own file (and patches it) reaches no later check: each has a fresh Python.
        tamper = (
            "import pathlib, glassgrad.exercises as checker\n"
            "pathlib.Path(checker.__file__).write_text('def check_program(*args, **kwargs):\\n    raise SystemExit\\n')\n"
        )
        verdict = check(page, "divide", tamper + broken("divide", *BROKEN["divide"][0]))
        assert names_its_rule(verdict, "divide"), verdict
        # A broken derivative is named, its edge marked.
        (old, new), says, edge_label = BROKEN["tanh"]
        verdict = check(page, "tanh", broken("tanh", old, new))
        assert verdict.startswith("✗ Not yet."), verdict
        assert says in verdict and names_its_rule(verdict, "tanh"), verdict
        edge = marked_edge(page, "tanh")
        assert edge.locator("text").first.text_content().replace("\xa0", " ").strip().startswith(edge_label)
        assert page.locator('[data-gg-exercise="tanh"] svg g[data-gg-wrong]').count() == 1
        verdict = check(page, "power", broken("power", *BROKEN["power"][0]))
        assert names_its_rule(verdict, "power"), verdict
        # Honest mistakes that once crashed the checker (issue 30): each gets a verdict naming it, none a traceback.
        for name, program, says in ON_THE_PAGE:
            verdict = check(page, name, program)
            assert verdict.startswith("✗ Not yet."), (name, verdict)
            assert says in verdict and "Traceback" not in verdict, (name, verdict)
        # A solution passes and draws nothing; what it prints is shown, as text.
        printing = source("divide") + "print('<b>q</b> =', divide(Value(1, 'u'), Value(4, 'v')).data)\n"
        assert check(page, "divide", printing).startswith("✓ Passed")
        assert page.locator('[data-gg-exercise="divide"] svg').count() == 0
        printed = page.locator('[data-gg-exercise="divide"] .gg-ex-printed')
        expect(printed).to_be_visible()
        expect(printed).to_have_text("<b>q</b> = 0.25")
        assert page.inner_text("[data-gg-ex-progress]").startswith(f"Solved 1 of {len(BROKEN)}")

        # A phone's width, in the dark palette: no sideways scrolling, the marked edge in the dark palette's red.
        page.locator('label[title="Switch to the dark palette"]').click()  # the palette toggle in the header
        assert page.get_attribute("body", "data-md-color-scheme") == "slate"
        page.set_viewport_size({"width": 375, "height": 800})
        verdict = check(page, "sigmoid", source("sigmoid", "_start"))
        assert names_its_rule(verdict, "sigmoid"), verdict  # the bug the exercise asks to fix
        assert "s * (1.0 - s)" not in verdict  # the line of code waits until the hints are opened, or asked for
        page.locator('[data-gg-exercise="sigmoid"]').get_by_role("button", name="Show the right formula").click()
        page.wait_for_function(
            "() => (document.querySelector('[data-gg-exercise=sigmoid] .gg-ex-verdict') || {}).textContent"
            "?.includes('ds_dz = s * (1.0 - s)')",
            timeout=90_000,
        )
        shown = page.locator('[data-gg-exercise="sigmoid"] .gg-ex-verdict').inner_text()
        assert shown.startswith(verdict)  # the same inputs and numbers: the formula joins the check it explains
        assert shown.splitlines()[-1] == "The right formula, in the starting code: ds_dz = s * (1.0 - s)"
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
            "() => document.querySelector('[data-gg-exercise=tanh] .gg-ex-status').textContent.startsWith('Checking')",
            timeout=60_000,
        )
        box.get_by_role("button", name="Stop").click()
        assert box.locator(".gg-ex-verdict").inner_text().startswith("Stopped. Press Check")

        # Progress survives a reload (and so does the code last checked); Clear progress forgets both.
        page.reload()
        assert page.inner_text("[data-gg-ex-progress]").startswith(f"Solved 2 of {len(BROKEN)}")
        assert page.locator(".gg-ex-badge:visible").count() == 2
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

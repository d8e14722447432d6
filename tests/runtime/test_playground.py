"""The playground in a real browser: the reader's program runs on glassgrad in Pyodide, offline.

One page load drives every check, in the order a reader would meet them: nothing heavy loads before
Run and no empty console shows; the first Run shows its phases (downloading, starting Python, running);
the linear preset gives PyTorch's gradients and its full graph; an edited input changes them; errors are
named; a program that never ends is stopped (by Stop and by the time limit, which a program cannot switch
off from inside) and the next Run works; a program's link reopens it; no request ever leaves the site; a
phone's width does not scroll the page sideways; ``?preset=NAME`` opens a preset. Every Run starts a
Python of its own, so the runs here are few.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from helpers import guarded_page  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

import glassgrad.scratch  # noqa: E402
from glassgrad.examples import linear_loss  # noqa: E402
from glassgrad.viz import fmt  # noqa: E402

LIMIT_S = 3
"""The time limit the test sets through the page's ?limit= parameter (the page's default is longer)."""


FORGER = """\
import js
from pyodide.ffi import to_js
done = to_js({"type": "result", "id": "", "result": {"error": "forged: finished"}}, dict_converter=js.Object.fromEntries)
js.postMessage(done)
i = 0
while True:
    i += 1
    if i % 100_000 == 0:
        print("still running", i)
        js.postMessage(done)
"""
"""A program that never ends, posting a forged "finished" to its worker and printing as it goes."""


def expected_summary(**inputs: float) -> str:
    """The summary line the page should print, from glassgrad in this process, checked against PyTorch float64."""
    torch = pytest.importorskip("torch")
    nodes = linear_loss(glassgrad.scratch, **inputs)
    glassgrad.scratch.backward(nodes["L"])
    leaves = {name: torch.tensor(nodes[name].data, dtype=torch.float64, requires_grad=True) for name in "wxby"}
    loss = (leaves["w"] * leaves["x"] + leaves["b"] - leaves["y"]) ** 2
    loss.backward()
    assert loss.item() == nodes["L"].data
    assert all(leaves[name].grad.item() == nodes[name].grad for name in "wxby")
    grads = ", ".join(f"{name}.grad = {fmt(nodes[name].grad)}" for name in "wxby")
    return f"L = {fmt(nodes['L'].data)}; {grads}"


def run(page: Any, code: str | None = None) -> str:
    """Put `code` in the editor (None: keep it), press Run, wait for the answer; return the output's text."""
    if code is not None:
        page.fill("textarea", code)
    page.evaluate("document.querySelector('[data-gg-output]').textContent = ''")
    page.click("[data-gg-do=run]")
    page.wait_for_selector(".gg-pg-summary, .gg-pg-error, .gg-pg-note", timeout=60_000)
    return page.inner_text("[data-gg-output]")


def status(page: Any) -> str:
    return page.inner_text("[data-gg-status]")


@pytest.mark.browser
@pytest.mark.site
@pytest.mark.pyodide
def test_playground(browser: Any, site_url: str) -> None:
    with guarded_page(browser, site_url) as guarded:
        page, fetched, outside, errors = guarded.page, guarded.fetched, guarded.outside, guarded.errors
        # ?preset= opens a preset (the chapters link to the playground this way).
        page.goto(f"{site_url}playground/?preset=atomic-sigmoid&limit={LIMIT_S}")
        assert 'reciprocal(d, "s")' in page.input_value("textarea")
        assert not [url for url in fetched if "/assets/playground/" in url], "Python loaded before the reader asked"
        assert "not loaded yet" in status(page)
        assert not page.locator("[data-gg-console]").is_visible()  # no empty console before any run
        # Run as the reader's first act (choosing a preset would start Python loading before it).
        page.goto(f"{site_url}playground/?preset=linear&limit={LIMIT_S}")
        page.evaluate(
            """() => { window.__ggPhases = [];
              new MutationObserver(() => window.__ggPhases.push(document.querySelector('[data-gg-status]').textContent))
                .observe(document.querySelector('[data-gg-status]'), {childList: true, characterData: true, subtree: true}); }"""
        )

        # The linear preset: the numbers of chapters 1 and 2, and the whole graph (8 values, 7 links).
        text = run(page)
        phases = page.evaluate("window.__ggPhases")
        assert any(re.fullmatch(r"Downloading Python(: \d+\.\d of \d+\.\d MB)?…", phase) for phase in phases), phases
        assert "Starting Python…" in phases and f"Running… (stopped after {LIMIT_S} s)" in phases, phases
        assert page.inner_text(".gg-pg-summary") == expected_summary()
        assert "L = 9; w.grad = -18" in text
        graph = page.locator(".gg-pg-output .gg-player-graph svg").first
        assert graph.locator("g.gg-value").count() == 8
        assert graph.locator("g.gg-link").count() == 7

        # Edit w: the figure follows.
        page.fill("textarea", page.input_value("textarea").replace('Value(2.0, "w")', 'Value(4.0, "w")'))
        page.evaluate("document.querySelector('[data-gg-output]').textContent = ''")
        page.press("textarea", "Control+Enter")  # the keyboard's Run
        page.wait_for_selector(".gg-pg-summary", timeout=60_000)
        assert page.inner_text(".gg-pg-summary") == expected_summary(w=4.0)
        w_box = page.locator('.gg-pg-output .gg-player-graph g.gg-value[data-gg-label="w"]').first
        assert re.search(r"data\s*4\s", w_box.text_content())

        # A program that only prints is a normal program: what it printed shows, and a line says how to get a graph.
        text = run(page, "print('hello', 6 * 7)\nprint('<b>bold?</b>')\n")
        expect(page.locator("[data-gg-console]")).to_be_visible()
        expect(page.locator("[data-gg-console]")).to_have_text("hello 42\n<b>bold?</b>")
        expect(page.locator(".gg-pg-note")).to_be_visible()
        assert "To see a graph drawn, name the output L" in text
        assert status(page) == "Done: what the program printed is below."
        assert not page.locator(".gg-pg-error").count()

        # Errors name the problem (and the line); the page stays usable.
        assert "line 3" in run(page, "from glassgrad.scratch import Value\n\nw = Value(2.0, 'w'\n")

        # The time limit, against a program that forges a finished result and keeps printing: it cannot switch the
        # limit off, once stopped its worker never writes into the page again, and the next Run works.
        page.fill("textarea", FORGER)
        page.click("[data-gg-do=run]")
        page.wait_for_function(
            "() => document.querySelector('[data-gg-status]').textContent.includes('more than')", timeout=60_000
        )
        assert f"more than {LIMIT_S} s" in status(page)
        assert "forged" not in page.inner_text("[data-gg-output]")
        page.wait_for_timeout(100)  # the lines that came before the stop are drawn on the next frame
        printed = page.inner_text("[data-gg-console]")
        assert printed.startswith("still running")
        page.wait_for_timeout(500)  # the stopped worker had been printing: nothing more may arrive
        assert page.inner_text("[data-gg-console]") == printed
        assert f"more than {LIMIT_S} s" in status(page)
        page.select_option("select", "shared")
        assert "L = 4; w.grad = 4" in run(page)
        # Stop ends a program that never ends.
        page.fill("textarea", "while True:\n    pass\n")
        page.click("[data-gg-do=run]")
        page.wait_for_function(
            "() => document.querySelector('[data-gg-status]').textContent.startsWith('Running')", timeout=60_000
        )
        page.click("[data-gg-do=stop]")
        assert status(page).startswith("Stopped")
        page.click("[data-gg-do=reset]")
        assert "multiply(w, w" in page.input_value("textarea")

        # A phone's width: the page itself does not scroll sideways.
        page.set_viewport_size({"width": 375, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        # "Link to this program": the address it gives opens the playground with that program.
        page.fill("textarea", "# ∂L/∂w, in a link\nfrom glassgrad.scratch import Value\nL = Value(1.0, 'L')\n")
        page.click("[data-gg-do=link]")
        linked = page.url
        assert "#code=" in linked
        page.goto("about:blank")
        page.goto(linked)
        assert page.input_value("textarea").startswith("# ∂L/∂w, in a link\n")

        # Lab mode (python-session.js's open): one long-lived Python that a page's own code drives, call by call.
        lab = page.evaluate(LAB)
        assert lab == [
            '{"n":2,"type":"memoryview","total":6,"options":{"a":[1,2]},"weights":[1.5,2.5]}',
            "Float64Array",
            0,  # the array was moved to the worker, not copied
            "One call at a time: wait for the one under way.",
            '{"n":3,"type":"list","total":1,"options":{},"weights":[1.5,2.5]}',
            "ValueError: bad step; open: true",
            f"Stopped: labprobe.spin ran for more than {LIMIT_S} s; the lab's Python was closed.; open: false",
            "The lab's Python was closed: open a new one.",
        ]

        assert not outside, f"requests outside the site: {outside}"
        assert not errors, errors


LAB = """async () => {
  const said = [];
  const { open } = await import(new URL("../javascripts/python-session.js", location.href).href);
  const lab = await open({modules: {labprobe:
    "import array\\n" +
    "def step(n, xs, options):\\n" +
    "    return {'n': n + 1, 'type': type(xs).__name__, 'total': sum(xs), 'options': options, 'weights': array.array('d', [1.5, 2.5])}\\n" +
    "def spin():\\n    while True:\\n        pass\\n" +
    "def boom():\\n    raise ValueError('bad step')\\n"}});
  const show = (value) => JSON.stringify(Object.assign({}, value, {weights: Array.from(value.weights)}));
  const xs = new Float64Array([1, 2, 3]);
  const first = await lab.call("labprobe.step", [1, xs, {a: [1, 2]}], [xs.buffer]);
  said.push(show(first), first.weights.constructor.name, xs.length);
  const second = lab.call("labprobe.step", [2, [1], {}]);
  await lab.call("labprobe.step", [3, [1], {}]).catch((error) => said.push(error.message));
  said.push(show(await second));
  await lab.call("labprobe.boom", []).catch((error) => said.push(error.message + "; open: " + !lab.closed));
  await lab.call("labprobe.spin", []).catch((error) => said.push(error.message + "; open: " + !lab.closed));
  await lab.call("labprobe.step", [4, [1], {}]).catch((error) => said.push(error.message));
  return said;
}"""
"""Opens a lab with a module of its own; calls it with a moved typed array, twice at once, into an exception, past the limit."""


@pytest.mark.browser
@pytest.mark.site
def test_without_javascript_the_presets_are_drawn(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site_url}playground/")
        assert "needs JavaScript" in page.inner_text("article")
        assert not page.locator("[data-gg-playground]").is_visible()
        presets = page.locator("article details")
        assert presets.count() == 5
        assert all(presets.nth(i).locator("svg g.gg-value").count() >= 2 for i in range(5))
        assert "L = 9; w.grad = -18" in presets.first.locator("summary").inner_text()
    finally:
        context.close()

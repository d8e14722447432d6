"""The training lab in a real browser, on one Python start: it trains, pauses within a step, inspects an example's
graph (numbers rewritten in place), checks its gradients, and the downloaded script prints the page's losses.

The heat map is checked against the engine: the page's grid and weights, through glassgrad natively (the same IEEE
additions and products as in Pyodide, no maths library involved), give the page's scores bit for bit.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

from helpers import Visit  # noqa: E402

from glassgrad import Value  # noqa: E402
from glassgrad.nn import MLP  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

WAIT = 90_000  # ms: Python's first start on a busy machine
WCAG = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
"""axe's WCAG 2.1 A and AA rules, as for every page (tests/site/test_every_page.py): here with the lab's views filled."""


def status(tab: Any) -> str:
    return tab.inner_text("[data-lab=status]")


def wait_step(tab: Any, at_least: int) -> None:
    tab.wait_for_function(
        f"() => window.glassgrad.lab && window.glassgrad.lab.state() && window.glassgrad.lab.state().step >= {at_least}",
        timeout=WAIT,
    )


def model_scores(state: dict[str, Any], points: list[list[float]]) -> list[float]:
    """``model(x).data`` of glassgrad's own MLP holding the page's weights, for every point."""
    model = MLP(2, state["sizes"][1:], rng=0)
    assert len(model.parameters()) == len(state["weights"])
    for parameter, weight in zip(model.parameters(), state["weights"]):
        parameter.data = weight
    return [model([Value(a), Value(b)]).data for a, b in points]  # type: ignore[union-attr]


@pytest.mark.pyodide
def test_the_lab_trains_pauses_inspects_and_replays_as_a_script(visit: Callable[..., Visit], tmp_path: Any) -> None:
    session = visit("lab/#size=120&seed=2")
    tab = session.page
    assert tab.is_visible("[data-gg-lab]") and tab.inner_text("[data-lab-do=train]") == "Train"
    tab.wait_for_function("() => window.glassgrad.lab && window.glassgrad.lab.ready()", timeout=WAIT)

    # One step: the text says so, and the heat map is the engine's model(x).data on the whole grid.
    tab.click("[data-lab-do=step]")
    wait_step(tab, 1)
    assert status(tab).startswith("step 1")
    said = tab.inner_text("[data-lab=metrics]")
    assert "training loss" in said and "test loss" in said and "data loss" in said and "L2 term" in said
    first = tab.evaluate("window.glassgrad.lab.grid()")
    state = tab.evaluate("window.glassgrad.lab.state()")
    assert len(first["scores"]) == 100 * 100 and len(state["points"]) == 60
    assert model_scores(state, first["points"]) == first["scores"]

    # Train: the loss falls and the boundary changes; Pause stops within the step under way.
    tab.click("[data-lab-do=train]")
    assert tab.inner_text("[data-lab-do=train]") == "Pause"
    wait_step(tab, 12)
    tab.click("[data-lab-do=train]")
    asked = tab.evaluate("window.glassgrad.lab.state().step")
    tab.wait_for_function("() => !window.glassgrad.lab.running()", timeout=WAIT)
    tab.wait_for_timeout(300)
    stopped = tab.evaluate("window.glassgrad.lab.state().step")
    assert asked <= stopped <= asked + 1
    assert tab.inner_text("[data-lab-do=train]") == "Train"
    losses = tab.evaluate("window.glassgrad.lab.losses()")
    assert len(losses) == stopped and losses[-1] < losses[0]
    later = tab.evaluate("window.glassgrad.lab.grid()")
    assert later["points"] == first["points"] and later["scores"] != first["scores"]
    assert status(tab).startswith(f"step {stopped}")
    assert f"the step's loss {losses[-1]:.4f} = data loss" in tab.inner_text("[data-lab=metrics]")

    # Inspect: the example's loss graph, drawn once, then its numbers rewritten in place by a step.
    tab.click("[data-lab-do=inspect]")
    tab.wait_for_selector("[data-lab=graph] svg g.gg-value", timeout=WAIT)
    graph = tab.locator("[data-lab=graph] svg").first
    values = graph.locator("g.gg-value").count()
    # Each neuron as one node: x1, x2, 16 neurons, the score; the hinge: y, y·s, 1, 1−y·s, its ReLU.
    assert values == 2 + 16 + 1 + 5
    # Its links are bare; pointing at a node says its numbers and its links' (the score: ∂s/∂L2.n_i = w_i).
    assert graph.locator("g.gg-link .gg-t-local").count() == 0
    assert tab.is_visible("[data-lab=player] .gg-player")
    score = graph.locator("g.gg-value[data-gg-label='L3.n0.z']")
    score.hover()
    said = tab.inner_text("[data-lab=graph-readout]")
    assert said.startswith("L3.n0.z: data ") and said.count("∂L3.n0.z/∂L2.n") == 8, said
    graph.locator("g.gg-value[data-gg-label='L2.n3']").hover()
    assert re.match(
        r"L2\.n3 \(weighted sum z = -?[\d.e-]+, then its activation\)", tab.inner_text("[data-lab=graph-readout]")
    )
    graph.evaluate("svg => svg.setAttribute('data-test-kept', 'yes')")
    before = graph.locator("g.gg-root .gg-t-grad, g.gg-value .gg-t-value").all_text_contents()
    inspections = tab.evaluate("window.glassgrad.lab.timings.inspections")
    tab.click("[data-lab-do=step]")
    wait_step(tab, stopped + 1)
    # After a Step the player is made anew for the new numbers (the drawing stays).
    tab.wait_for_function(f"() => window.glassgrad.lab.timings.inspections > {inspections}", timeout=WAIT)
    assert graph.get_attribute("data-test-kept") == "yes"  # the same drawing
    assert graph.locator("g.gg-root .gg-t-grad, g.gg-value .gg-t-value").all_text_contents() != before
    graph.locator("g.gg-value[data-gg-label='L2.n3']").hover()
    score.hover()  # the links' numbers are the step's: the weights moved
    assert tab.inner_text("[data-lab=graph-readout]") != said
    # The player replays the example's backward pass on it.
    tab.click("[data-lab=player] [data-gg-action=forward]")
    assert "Seed" in tab.inner_text("[data-lab=player] .gg-player-status") or "Start" in tab.inner_text(
        "[data-lab=player] .gg-player-status"
    )
    # A click on a neuron shows its Values (2 weights, a bias, z, its activation), the rest still folded; Enter on
    # one of them folds it again.
    graph.locator("g.gg-value[data-gg-label='L1.n2']").click()
    values_are = "n => document.querySelectorAll('[data-lab=graph] svg g.gg-value').length === n"
    tab.wait_for_function(values_are, arg=24 + 4, timeout=WAIT)
    graph = tab.locator("[data-lab=graph] svg").first
    assert graph.locator("g.gg-value[data-gg-label='L1.n2.w1']").is_visible()
    assert "except L1.n2, drawn as its Values" in tab.inner_text("[data-lab=inspect-text]")
    graph.locator("g.gg-value[data-gg-label='L1.n2.h']").focus()
    tab.keyboard.press("Enter")
    tab.wait_for_function(values_are, arg=24, timeout=WAIT)
    # Every Value: x1, x2 and the 105 parameters; 17 Σ and 16 ReLU nodes; the hinge's 5, drawn anew.
    tab.check("[data-lab=every-value]")
    tab.wait_for_function(
        "() => document.querySelectorAll('[data-lab=graph] svg g.gg-value').length === 2 + 105 + 17 + 16 + 5",
        timeout=WAIT,
    )
    assert "105 parameters" in tab.inner_text("[data-lab=inspect-text]")
    assert "∂" in tab.locator("[data-lab=graph] svg g.gg-link .gg-t-local").first.text_content()
    # The network diagram: a click on a hidden neuron (first hidden layer, second column of three) shows its node.
    box = tab.locator("[data-lab=network]").bounding_box()
    assert box and box["height"] > 100
    tab.uncheck("[data-lab=every-value]")
    # (The inputs' column at 44 px of names + 15, the output's 30 px from the right edge; neurons 30 px apart.)
    tab.click("[data-lab=network]", position={"x": 59 + (box["width"] - 89) / 3, "y": box["height"] / 2 - 15})
    tab.wait_for_selector("[data-lab=graph] g.gg-lab-picked", timeout=WAIT)
    assert re.match(r"L1\.n\d", tab.locator("[data-lab=graph] g.gg-lab-picked").first.text_content().strip())
    tab.check("[data-lab=every-value]")
    tab.wait_for_function(
        "() => document.querySelectorAll('[data-lab=graph] svg g.gg-value').length === 2 + 105 + 17 + 16 + 5",
        timeout=WAIT,
    )
    tab.click("[data-lab-do=gradcheck]")
    tab.wait_for_function("() => document.querySelector('[data-lab=gradcheck-text]').textContent.includes('central')")
    assert tab.inner_text("[data-lab=gradcheck-text]").startswith("✓")
    violations = axe_playwright.Axe().run(tab, None, WCAG).response["violations"]
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]

    # The downloaded script prints the page's losses, bit for bit.
    with tab.expect_download() as download:
        tab.click("[data-lab-do=download]")
    script = tmp_path / "run.py"
    download.value.save_as(script)
    printed = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=120)
    page_losses = tab.evaluate("window.glassgrad.lab.losses()")
    assert [float(line.split()[3]) for line in printed.stdout.splitlines()] == page_losses

    # A click adds a point of the chosen class: the run starts again from step 0 with it, and the address keeps it.
    tab.check("input[name=gg-lab-click][value='add+1']")
    tab.click("[data-lab=plane]", position={"x": 30, "y": 30})
    tab.wait_for_function(
        "() => window.glassgrad.lab.state().points.length === 61 && window.glassgrad.lab.state().step === 0"
    )
    assert "add=" in tab.url and "seed=2" in tab.url

    # A setting out of its limits is clamped, and the page says so where the reader looks.
    tab.fill("[data-lab-set=layers]", "32, 32, 32, 32, 99")
    tab.press("[data-lab-set=layers]", "Tab")
    tab.wait_for_function("() => window.glassgrad.lab.state().settings.layers.length === 4")
    assert tab.is_visible("text=5 hidden layers asked for: the first 4 kept.")
    assert "outside 1 to 32: 32" in status(tab)
    tab.fill("[data-lab-set=layers]", "8, 8")
    tab.press("[data-lab-set=layers]", "Tab")
    tab.wait_for_function("() => window.glassgrad.lab.state().settings.layers.length === 2")
    # Without a mouse: the plane takes the focus, arrows move its cross, Enter adds a point there (a blue one,
    # at the plane's left edge and half way up: x1 is the view's left bound).
    tab.check("input[name=gg-lab-click][value='add-1']")
    tab.focus("[data-lab=plane]")
    for _ in range(6):  # from the middle, 0.1 of the width each: the fifth reaches the edge, the sixth stays there
        tab.keyboard.press("Shift+ArrowLeft")
    tab.keyboard.press("Enter")
    tab.wait_for_function("() => window.glassgrad.lab.state().points.length === 62")
    added = tab.evaluate("window.glassgrad.lab.state()")
    view = added["view"]
    newest = added["points"][-1]
    assert newest[0] == pytest.approx(view[0], abs=1e-3) and newest[1] == pytest.approx(
        (view[2] + view[3]) / 2, abs=1e-3
    )
    assert added["labels"][-1] == -1
    # Leaving the page (the theme's instant navigation keeps the document) ends the lab's Python. The lab hides the
    # site's navigation (its graph takes the width): the header's logo leads home.
    tab.click("a.md-header__button.md-logo")
    tab.wait_for_function(
        "() => !location.pathname.includes('/lab/') && !(window.glassgrad && window.glassgrad.lab)", timeout=WAIT
    )
    assert not session.outside, session.outside
    assert not session.errors, session.errors


def test_without_javascript_the_page_says_what_it_does_and_links_to_the_training_page(
    visit: Callable[..., Visit],
) -> None:
    tab = visit("lab/", java_script_enabled=False).page
    assert not tab.is_visible("[data-gg-lab]")
    text = tab.inner_text("article")
    assert "This page needs JavaScript" in text and "Train with it" in text
    assert tab.get_attribute("noscript a", "href") == "../training/"


TEXT_PX = """() => Array.from(document.querySelectorAll('[data-lab=graph] svg g.gg-value text.gg-t-data'))
  .map(t => t.getScreenCTM().a * parseFloat(t.getAttribute('font-size')))"""
"""The on-screen size, in CSS px, of each box's data text in the inspected graph (its font size times the zoom)."""
COVERED = """() => Array.from(document.querySelectorAll('[data-gg-lab] button, [data-gg-lab] input, [data-gg-lab] select'))
  .filter(el => el.offsetParent !== null)
  .map(el => { el.scrollIntoView({block: 'center'}); const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top === el || el.contains(top) || (el.labels && Array.from(el.labels).some(l => l.contains(top))) ? null
      : (el.dataset.labDo || el.dataset.labSet || el.dataset.labZoom || el.name || el.dataset.labFeature || el.outerHTML.slice(0, 60)); })
  .filter(Boolean)"""
"""The lab's controls that are on the page but not the topmost thing where a tap on them lands, each scrolled into view."""


@pytest.mark.pyodide
@pytest.mark.parametrize("width", [1280, 375])
def test_inspect_opens_readable_zooms_to_the_whole_graph_and_every_control_is_reachable(
    visit: Callable[..., Visit], width: int
) -> None:
    session = visit("lab/", viewport={"width": width, "height": 800})
    tab = session.page
    tab.wait_for_function("() => window.glassgrad.lab && window.glassgrad.lab.ready()", timeout=WAIT)
    tab.click("[data-lab-do=step]")
    wait_step(tab, 1)
    tab.click("[data-lab-do=inspect]")
    tab.wait_for_selector("[data-lab=graph] svg g.gg-value", timeout=WAIT)
    box = tab.locator("[data-lab=graph] .gg-scroll")
    # It opens readable, the loss in the window: whole at 1280 (node text 12 px or more), at 12 px at 375.
    assert min(tab.evaluate(TEXT_PX)) >= 12 - 1e-6
    opened = tab.inner_text("[data-lab=zoom-text]")
    assert opened.endswith("the whole graph") if width == 1280 else opened.startswith("node text 12 px"), opened
    loss, window = tab.locator("[data-lab=graph] g.gg-root").bounding_box(), box.bounding_box()
    assert loss and window and window["x"] <= loss["x"] + loss["width"] / 2 <= window["x"] + window["width"]
    assert window["x"] + window["width"] <= width  # the window fits the screen
    violations = axe_playwright.Axe().run(tab, None, WCAG).response["violations"]  # its neurons are buttons
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]
    # The whole graph in the window; zoom in from there, and back to the readable size.
    tab.click("[data-lab-zoom=fit]")
    svg, window = tab.locator("[data-lab=graph] svg").bounding_box(), box.bounding_box()
    assert svg and window and svg["width"] <= window["width"] + 1 and svg["height"] <= window["height"] + 1
    assert "the whole graph" in tab.inner_text("[data-lab=zoom-text]")
    fitted = max(tab.evaluate(TEXT_PX))
    tab.click("[data-lab-zoom=in]")
    assert max(tab.evaluate(TEXT_PX)) == pytest.approx(fitted * 1.25, rel=1e-3)  # the layout rounds to a pixel
    tab.click("[data-lab-zoom=read]")
    assert min(tab.evaluate(TEXT_PX)) == pytest.approx(12, rel=1e-3)
    # No sideways scroll, and every control of the lab can be reached and tapped (nothing covers it).
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    assert tab.evaluate(COVERED) == []
    assert not session.errors, session.errors

"""The explorers of chapters 2 and 3 in a real browser, as a reader uses them: sliders dragged and moved with the
keyboard, fields typed into (good and bad), Reset, the address, both widths; every number checked against the
engine's frame (`glassgrad_site.explore.compute`, itself checked against PyTorch in tests/test_explore.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
torch_reference = pytest.importorskip("glassgrad.torch_reference")

from helpers import Visit  # noqa: E402

from glassgrad_site.explore import compute  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

CHAPTER_2, CHAPTER_3 = "chapters/2-from-scratch/", "chapters/3-fused-sigmoid/"
FORWARD_MODE = "beyond/forward-mode/"
WAIT = 90_000  # ms: Python's first start on a busy machine


def sentence(tab: Any) -> str:
    return tab.inner_text(".gg-explore-say")


def node_text(tab: Any, label: str, part: str) -> str:
    """What the graph shows in value `label`'s box: its data (``"data"``) or its grad (``"grad"``)."""
    return tab.locator(f'.gg-explore g.node[data-gg-label="{label}"] text[id$="-{part}"]').text_content()


def shown_numbers(tab: Any) -> list[str]:
    """Every number of the explorer's frame as the reader sees it (the first element of each slot)."""
    return tab.evaluate(
        """() => { const section = document.querySelector('.gg-explore');
        const data = JSON.parse(section.querySelector('script.gg-explore-data').textContent);
        return data.slots.map(([[id, template]]) => {
          const text = document.getElementById(id).textContent, [before, after] = template.split('{}');
          return text.slice(before.length, text.length - after.length); }); }"""
    )


def drag(tab: Any, leaf: str, fraction: float) -> None:
    """Drag leaf's slider with the mouse from its thumb to `fraction` of its track."""
    slider = tab.locator(f'.gg-explore input[type="range"][data-gg-leaf="{leaf}"]')
    box = slider.bounding_box()
    low, high, value = (float(slider.get_attribute(name)) for name in ("min", "max", "value"))
    y = box["y"] + box["height"] / 2
    tab.mouse.move(box["x"] + 8 + (box["width"] - 16) * (value - low) / (high - low), y)
    tab.mouse.down()
    for step in range(1, 6):
        tab.mouse.move(box["x"] + 8 + (box["width"] - 16) * fraction * step / 5, y)
    tab.mouse.up()


def test_chapter_two_follows_sliders_keys_fields_reset_and_the_address(visit: Callable[..., Visit]) -> None:
    session = visit(CHAPTER_2)
    tab = session.page
    section = tab.locator(".gg-explore")
    section.scroll_into_view_if_needed()
    assert tab.is_visible(".gg-explore-controls") and tab.is_visible('.gg-explore input[type="range"]')
    assert sentence(tab) == "At w = 2, x = 3, b = 1, y = 10: L = 9 and ∂L/∂w = -18."
    # At 1280 px the controls and the whole graph are on screen together.
    tab.evaluate("document.querySelector('.gg-explore').scrollIntoView()")
    height = tab.viewport_size["height"]
    for part in (".gg-explore-controls", ".gg-explore figure.gg-graph"):
        box = tab.locator(part).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, part

    drag(tab, "x", 0.25)  # a drag lands on the grid: the build's frame, every number the engine's
    x = float(tab.input_value('.gg-explore input[type="text"][data-gg-leaf="x"]'))
    assert x != 3 and tab.inner_text(".gg-explore-badge") == "precomputed"
    assert shown_numbers(tab) == compute("linear", {"x": x})["numbers"]
    assert node_text(tab, "x", "data") == f"{x:g}"

    tab.click(".gg-explore-reset")
    assert sentence(tab) == "At w = 2, x = 3, b = 1, y = 10: L = 9 and ∂L/∂w = -18."
    tab.focus('.gg-explore input[type="range"][data-gg-leaf="w"]')
    for _ in range(5):
        tab.keyboard.press("ArrowRight")
    assert tab.input_value('.gg-explore input[type="text"][data-gg-leaf="w"]') == "2.5"
    assert sentence(tab) == "At w = 2.5, x = 3, b = 1, y = 10: L = 2.25 and ∂L/∂w = -9."
    assert (node_text(tab, "L", "data"), node_text(tab, "w", "grad")) == ("2.25", "grad -9")
    tab.click(".gg-explore .gg-collapsed > summary")  # the trace, folded under the graph
    assert tab.is_visible('.gg-explore .gg-step[data-gg-step="6"]')
    assert tab.inner_text('.gg-explore .gg-step[data-gg-step="6"]').endswith("w.grad: 0 → -9")
    assert shown_numbers(tab) == compute("linear", {"w": 2.5})["numbers"]
    tab.wait_for_function("() => location.search === '?w=2.5'")

    field = '.gg-explore input[type="text"][data-gg-leaf="w"]'
    for typed, message in (("two", "not a number"), ("Infinity", "must be finite"), ("", "type a number")):
        tab.fill(field, typed)
        assert tab.inner_text(".gg-explore-msg:not(:empty)").startswith(message)
        assert tab.is_visible(".gg-explore-msg:not(:empty)") and "L = 2.25 and ∂L/∂w = -9" in sentence(tab)
    tab.fill(field, "2.3")
    assert not tab.is_visible(".gg-explore-msg:not(:empty)")
    assert shown_numbers(tab) == compute("linear", {"w": 2.3})["numbers"]

    tab.click(".gg-explore-reset")
    assert shown_numbers(tab) == compute("linear", {})["numbers"]
    assert tab.input_value(field) == "2"
    tab.wait_for_function("() => location.search === ''")

    session = visit(CHAPTER_2 + "?y=12.5")  # a link reproduces the view
    assert session.page.input_value('.gg-explore input[type="text"][data-gg-leaf="y"]') == "12.5"
    assert shown_numbers(session.page) == compute("linear", {"y": 12.5})["numbers"]
    assert session.errors == [] and session.outside == []


def test_chapter_three_shows_pytorchs_numbers_at_phone_width(visit: Callable[..., Visit]) -> None:
    session = visit(CHAPTER_3, viewport={"width": 375, "height": 800})
    tab = session.page
    assert tab.evaluate("document.documentElement.scrollWidth") <= 375
    slider = '.gg-explore input[type="range"][data-gg-leaf="b"]'
    tab.locator(slider).scroll_into_view_if_needed()
    assert tab.is_visible(slider) and tab.is_visible(".gg-explore-reset")
    tab.focus(slider)
    for _ in range(15):
        tab.keyboard.press("ArrowRight")  # b from -1 to 0.5
    reference = torch_reference.sigmoid_neuron(True, b=0.5)
    for label, (data, grad) in reference.items():
        assert float(node_text(tab, label, "data")) == pytest.approx(data, rel=1e-5, abs=1e-12), label
        assert float(node_text(tab, label, "grad").removeprefix("grad ")) == pytest.approx(grad, rel=1e-5, abs=1e-12)
    assert tab.evaluate("document.documentElement.scrollWidth") <= 375
    assert session.errors == []


def test_forward_mode_shows_the_tangents_follow(visit: Callable[..., Visit]) -> None:
    session = visit(FORWARD_MODE)
    tab = session.page
    tab.locator(".gg-explore").scroll_into_view_if_needed()
    assert sentence(tab) == "At w = 2, x = 3, b = 1, y = 10: L = 9 and the tangent of L, ∂L/∂w = -18."
    assert node_text(tab, "m", "grad") == "tangent 3"
    tab.fill('.gg-explore input[type="text"][data-gg-leaf="x"]', "4")  # the page's prose: tangents 4, L's -8
    assert [node_text(tab, label, "grad") for label in ("m", "a", "e", "L")] == ["tangent 4"] * 3 + ["tangent -8"]
    assert node_text(tab, "e", "data") == "-1"
    assert shown_numbers(tab) == compute("forward", {"x": 4})["numbers"]
    tab.click(".gg-explore-reset")
    tab.fill('.gg-explore input[type="text"][data-gg-leaf="y"]', "6")
    assert sentence(tab) == "At w = 2, x = 3, b = 1, y = 6: L = 1 and the tangent of L, ∂L/∂w = 6."
    assert session.errors == [] and session.outside == []


@pytest.mark.pyodide
def test_two_leaves_moved_are_computed_by_the_engine_in_the_page(visit: Callable[..., Visit]) -> None:
    session = visit(CHAPTER_2 + "?w=2.5&b=0")
    tab = session.page
    tab.wait_for_function(
        "() => document.querySelector('.gg-explore-badge').textContent === 'computed now in your browser'", timeout=WAIT
    )
    assert sentence(tab) == "At w = 2.5, x = 3, b = 0, y = 10: L = 6.25 and ∂L/∂w = -15."
    assert shown_numbers(tab) == compute("linear", {"w": 2.5, "b": 0})["numbers"]
    tab.fill('.gg-explore input[type="text"][data-gg-leaf="x"]', "1e200")  # the square of e overflows
    tab.wait_for_selector(".gg-explore-msg:not(:empty)", timeout=WAIT)
    assert tab.inner_text(".gg-explore-msg:not(:empty)").startswith("too large: L overflows (inf)")
    assert "L = 6.25 and ∂L/∂w = -15" in sentence(tab)
    tab.fill('.gg-explore input[type="text"][data-gg-leaf="x"]', "3.01")  # off the grid
    tab.wait_for_function("() => document.getElementById('ggx-linear-say-x').textContent === '3.01'", timeout=WAIT)
    assert shown_numbers(tab) == compute("linear", {"w": 2.5, "b": 0, "x": 3.01})["numbers"]
    assert session.errors == [] and session.outside == []

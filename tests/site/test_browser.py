"""The built site in a real browser (Debian's Chromium, driven by Playwright).

Every step-through animation shows, at every step, exactly the engine's trace (expected values are
computed here from glassgrad, never typed in); controls, keyboard, linked highlights and full
screen work; the dark palette keeps graph text legible, mid-animation too. (Every page's console,
requests, accessibility and phone width: tests/site/test_every_page.py.)
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from helpers import Visit, site_pages  # noqa: E402

from glassgrad import Value, backward, dependency_safe_order, trace_dependency_safe_order  # noqa: E402
from glassgrad.examples import linear_loss, sigmoid_neuron  # noqa: E402
from glassgrad.viz import fmt  # noqa: E402

pytestmark = pytest.mark.browser  # and `site`, from conftest, on each test that reads the built site

GRAPHS: dict[str, Callable[[], Value]] = {
    "linear": lambda: linear_loss()["L"],
    "fused sigmoid": lambda: sigmoid_neuron(True)["L"],
    "atomic sigmoid": lambda: sigmoid_neuron(False)["L"],
}
"""The graphs the chapters animate; a player is matched to one by its dependency-first names."""


def pages_with_players(built_site: Path) -> list[str]:
    return [
        page
        for page in site_pages(built_site)
        if 'class="gg gg-player"' in (built_site / page / "index.html").read_text("utf-8")
    ]


def players(page: Any, kind: str) -> list[Any]:
    return page.query_selector_all(f'.gg-player[data-gg-player="{kind}"][data-gg-ready]')


def match_graph(player: Any) -> Value | None:
    """The example graph whose names the player's figure shows, or None for another graph."""
    shown = player.evaluate(  # a player on a figure outside it (data-gg-graph) reads that figure
        "p => [...(p.dataset.ggGraph ? p.parentElement.closest('.gg') : p).querySelectorAll('.gg-svg .gg-value')]"
        ".map(e => e.dataset.ggLabel)"
    )
    for make in GRAPHS.values():
        root = make()
        if sorted(node.label for node in dependency_safe_order(root)) == sorted(shown):
            return root
    return None


def frames_of(player: Any) -> dict[str, Any]:
    return json.loads(player.eval_on_selector("script.gg-frames", "e => e.textContent"))


def check_against_frames(states: list[dict[str, Any]], data: dict[str, Any]) -> None:
    """Any player, any graph: at every step the page shows exactly its embedded frame, and nothing of earlier ones."""
    assert len(states) == len(data["frames"])
    frame_classes = {css for frame in data["frames"] for classes in frame["marks"].values() for css in classes.split()}
    folded: dict[str, str] = {}
    for step, (seen, frame) in enumerate(zip(states, data["frames"])):
        folded.update(frame["texts"])
        assert seen["step"] == step and seen["status"] == f"{frame['label']}. {frame['text']}"
        assert {
            i: set(classes) & frame_classes for i, classes in seen["classes"].items() if set(classes) & frame_classes
        } == {i: set(classes.split()) for i, classes in frame["marks"].items()}
        assert {i: seen["texts"][i] for i in folded} == {
            i: html.unescape(re.sub("<[^>]+>", "", text)) for i, text in folded.items()
        }


# The state of a player as the reader sees it, read in one round trip per step.
READ_STATE = """player => {
  // A player on a figure outside it: the figure, player and trace around it (one column of a comparison).
  const home = player.dataset.ggGraph ? player.parentElement.closest('.gg-compare-cell, .gg') : player;
  const labelsWith = name => [...home.querySelectorAll('.gg-svg .gg-value.' + name)].map(e => e.dataset.ggLabel);
  const active = [...home.querySelectorAll('.gg-svg .gg-link.gg-active')].map(
    e => [Number(e.dataset.ggOutput), Number(e.dataset.ggParent), Number(e.dataset.ggLink)]);
  const grads = {};
  home.querySelectorAll('.gg-svg .gg-value').forEach(e => {
    const text = e.querySelector('text.gg-t-grad');  // absent where the graph is drawn without grads
    grads[e.dataset.ggLabel] = text ? text.textContent : null; });
  const chips = sel => [...player.querySelectorAll(sel + ' .gg-chip')].filter(
    c => !c.classList.contains('gg-pending')).map(c => c.textContent);
  const card = player.querySelector('.gg-player-card');
  const classes = {}, texts = {};
  home.querySelectorAll('[id]').forEach(e => { classes[e.id] = [...e.classList]; texts[e.id] = e.textContent; });
  return {
    classes, texts,
    step: Number(player.dataset.ggStep),
    status: player.querySelector('.gg-player-status').textContent,
    current: labelsWith('gg-current'), appended: labelsWith('gg-appended'), skipped: labelsWith('gg-skipped'),
    path: player.querySelector('.gg-player-path') ? player.querySelector('.gg-player-path').textContent : null,
    order: chips('.gg-order-list'), schedule: chips('.gg-schedule-list'),
    active, grads,
    card: card && getComputedStyle(card).display !== 'none' ? card.textContent : null,
  };
}"""


def expected_order_states(root: Value) -> list[dict[str, Any]]:
    """What the order player must show at each step, straight from `trace_dependency_safe_order`."""
    order_nodes = dependency_safe_order(root)
    index = {node: i for i, node in enumerate(order_nodes)}
    states = [{"current": [], "appended": [], "skipped": [], "path": [], "order": [], "schedule": [], "active": None}]
    path: list[Value] = []
    order: list[str] = []
    for event in trace_dependency_safe_order(root):
        link = None
        if event.kind != "append" and event.depth > 0:
            output = path[event.depth - 1]
            ks = [k for k, parent_link in enumerate(output.parents) if parent_link.value is event.node]
            link = [(index[output], index[event.node], k) for k in ks]  # w * w: either link of the pair
        if event.kind == "enter":
            path.append(event.node)
        elif event.kind == "append":
            path.pop()
            order.append(event.node.label)
        states.append(
            {
                "current": [event.node.label] if event.kind == "enter" else [],
                "appended": [event.node.label] if event.kind == "append" else [],
                "skipped": [event.node.label] if event.kind == "skip" else [],
                "path": [node.label for node in path],
                "order": list(order),
                "schedule": [],
                "active": link,
            }
        )
    states.append(
        {
            **states[-1],
            "current": [],
            "appended": [],
            "skipped": [],
            "path": [],
            "active": None,
            "schedule": order[::-1],
        }
    )
    return states


def check_order_state(seen: dict[str, Any], want: dict[str, Any]) -> None:
    for key in ("current", "appended", "skipped", "order", "schedule"):
        assert seen[key] == want[key], (key, seen)
    assert seen["path"] == (" → ".join(want["path"]) if want["path"] else "none")
    if want["active"] is None:
        assert seen["active"] == []
    else:
        assert len(seen["active"]) == 1 and tuple(seen["active"][0]) in want["active"]
    assert seen["status"]


def expected_backward_states(root: Value) -> list[dict[str, Any]]:
    """Grad texts, active link and card numbers at each step, straight from `backward(root)`."""
    order_nodes = dependency_safe_order(root)
    index = {node: i for i, node in enumerate(order_nodes)}
    steps = backward(root)
    grads = {node.label: "—" for node in order_nodes}
    states = [{"grads": dict(grads), "active": [], "numbers": None, "current": []}]
    grads = {node.label: fmt(0.0) for node in order_nodes} | {root.label: fmt(1.0)}
    states.append({"grads": dict(grads), "active": [], "numbers": None, "current": [root.label]})
    used: dict[Value, int] = {}
    for step in steps:
        k = used.get(step.output, 0)
        used[step.output] = k + 1
        grads[step.parent.label] = fmt(step.after)
        numbers = [fmt(x) for x in (step.upstream, step.local, step.contribution, step.before, step.after)]
        states.append(
            {
                "grads": dict(grads),
                "active": [[index[step.output], index[step.parent], k]],
                "numbers": numbers,
                "current": [step.output.label],
            }
        )
    assert grads == {node.label: fmt(node.grad) for node in order_nodes}
    return states


def check_backward_state(seen: dict[str, Any], want: dict[str, Any]) -> None:
    assert seen["grads"] == {label: "grad " + text for label, text in want["grads"].items()}
    assert seen["active"] == want["active"]
    assert seen["current"] == want["current"]
    if want["numbers"] is None:
        assert seen["card"] is None
    else:
        card = re.sub(r"\s+", " ", seen["card"])
        upstream, local, contribution, before, after = want["numbers"]
        assert f"= {upstream} ×" in card and f"= {local} =" in card and f"= {contribution}" in card, card
        assert f"{before} → {after}" in card, card


def step_through(player: Any, count: int) -> list[dict[str, Any]]:
    """Click Forward until the last frame, reading the state at every step (frame 0 first).

    The clicks are dispatched inside the page, one round trip per player instead of two per step
    (the real pointer path is exercised by the controls test).
    """
    states = player.evaluate(
        f"""player => {{
          const read = {READ_STATE};
          const forward = player.querySelector('[data-gg-action="forward"]');
          player.querySelector('[data-gg-action="reset"]').click();  // a player on a page's figure opens on it as drawn
          const states = [read(player)];
          const atEnd = () => forward.getAttribute('aria-disabled') === 'true';
          for (let guard = 0; !atEnd() && guard < 1000; guard++) {{ forward.click(); states.push(read(player)); }}
          return states;
        }}"""
    )
    assert len(states) == count
    return states


def test_animations_replay_the_engine_traces(built_site: Path, visit: Callable[..., Visit]) -> None:
    """At every step, each player shows exactly its frames; on the chapters' graphs, exactly the engine's trace."""
    order_graphs, backward_graphs = set(), set()
    for page in pages_with_players(built_site):
        session = visit(page)
        for kind in ("order", "backward"):
            for player in players(session.page, kind):
                data = frames_of(player)
                states = step_through(player, len(data["frames"]))
                check_against_frames(states, data)
                root = match_graph(player)
                if root is None:
                    continue  # another page's own graph: its frames are checked above
                if kind == "order":
                    want = expected_order_states(root)
                    for got, expected in zip(states, want, strict=True):
                        check_order_state(got, expected)
                    order_graphs.add(len(dependency_safe_order(root)))
                else:
                    want = expected_backward_states(root)
                    for got, expected in zip(states, want, strict=True):
                        check_backward_state(got, expected)
                    backward_graphs.add(len(dependency_safe_order(root)))
        assert session.errors == []
    # Chapters 2 and 3 replay backward on the linear (8 values), fused (9) and atomic (12) graphs; chapter 2 the
    # ordering walk on the linear one.
    assert backward_graphs == {len(dependency_safe_order(make())) for make in GRAPHS.values()}
    assert order_graphs == {len(dependency_safe_order(GRAPHS["linear"]()))}


def test_back_undoes_a_step_reset_returns_to_the_start_and_keys_step(
    built_site: Path, visit: Callable[..., Visit]
) -> None:
    page = next(p for p in pages_with_players(built_site) if "2-" in p)
    session = visit(page)
    player = players(session.page, "backward")[0]
    want = expected_backward_states(match_graph(player))
    forward = player.query_selector('[data-gg-action="forward"]')
    for _ in range(4):
        forward.click()
    check_backward_state(player.evaluate(READ_STATE), want[4])
    player.query_selector('[data-gg-action="back"]').click()
    check_backward_state(player.evaluate(READ_STATE), want[3])
    player.query_selector('[data-gg-action="reset"]').click()
    start = player.evaluate(READ_STATE)
    assert start["step"] == 0
    check_backward_state(start, want[0])
    player.focus()
    session.page.keyboard.press("ArrowRight")
    session.page.keyboard.press("ArrowRight")
    check_backward_state(player.evaluate(READ_STATE), want[2])
    session.page.keyboard.press("ArrowLeft")
    check_backward_state(player.evaluate(READ_STATE), want[1])
    session.page.keyboard.press("End")
    assert player.get_attribute("data-gg-step") == str(len(want) - 1)
    assert player.query_selector('[data-gg-action="forward"]').get_attribute("aria-disabled") == "true"
    session.page.keyboard.press("Home")
    check_backward_state(player.evaluate(READ_STATE), want[0])
    session.page.keyboard.press("ArrowRight")
    session.page.keyboard.press("Space")  # play
    assert player.query_selector('[data-gg-action="play"]').get_attribute("aria-pressed") == "true"
    session.page.keyboard.press("Space")  # pause
    assert player.query_selector('[data-gg-action="play"]').get_attribute("aria-pressed") == "false"
    assert player.query_selector(".gg-player-status").text_content().startswith("Seed. ")
    assert player.query_selector(".gg-player-status").get_attribute("aria-live") == "polite"


def test_a_trace_card_and_its_edge_highlight_each_other(built_site: Path, visit: Callable[..., Visit]) -> None:
    page = next(p for p in pages_with_players(built_site) if "2-" in p)
    session = visit(page)
    cards = [card for card in session.page.query_selector_all(".gg-step[data-gg-edge]") if card.is_visible()]
    assert cards  # (w * w's trace is folded away)
    for card in (cards[0], cards[-1]):
        ids = [card.get_attribute(name) for name in ("data-gg-edge", "data-gg-output-node", "data-gg-parent-node")]
        card.hover()
        lit = session.page.evaluate(
            "ids => ids.map(id => document.getElementById(id).classList.contains('gg-linked'))", ids
        )
        assert lit == [True, True, True]
        session.page.mouse.move(0, 0)
        assert not session.page.evaluate("id => document.getElementById(id).classList.contains('gg-linked')", ids[0])
        session.page.hover(f"#{ids[0]} text")  # the edge's label belongs to the edge's group
        assert "gg-linked" in card.get_attribute("class")
        session.page.mouse.move(0, 0)
        card.focus()  # keyboard users get the same highlight
        assert session.page.evaluate("id => document.getElementById(id).classList.contains('gg-linked')", ids[0])


@pytest.mark.parametrize("api", ["Fullscreen API", "overlay fallback"])
def test_full_screen_opens_and_closes(
    built_site: Path, visit: Callable[..., Visit], browser: Any, site_url: str, api: str
) -> None:
    page = next(p for p in pages_with_players(built_site) if "2-" in p)
    if api == "Fullscreen API":
        session = visit(page)
    else:  # a browser that refuses full screen (iPhone Safari, some embeds): the CSS overlay takes over
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script("Object.defineProperty(Document.prototype, 'fullscreenEnabled', {get: () => false})")
        session = Visit(context.new_page(), site_url)
        session.page.goto(site_url + page)
    player = players(session.page, "order")[0]
    button = player.query_selector('[data-gg-action="fullscreen"]')
    is_open = "el => document.fullscreenElement === el || el.classList.contains('gg-player--overlay')"
    label = "el.querySelector('[data-gg-action=fullscreen]').textContent"
    for close in ("Escape", "button"):
        button.click()
        session.page.wait_for_function(f"el => ({is_open})(el) && {label} === 'Close full screen'", arg=player)
        if api != "Fullscreen API":
            assert session.page.evaluate("document.fullscreenElement") is None
            assert player.evaluate("el => el.getBoundingClientRect().width") == 1280  # covers the window
        if close == "Escape":
            session.page.keyboard.press("Escape")
        else:
            button.click()
        session.page.wait_for_function(f"el => !({is_open})(el) && {label} === 'Open full screen'", arg=player)
    if api != "Fullscreen API":
        session.page.context.close()


# WCAG relative luminance and contrast, with translucent backgrounds composited over what is below.
CONTRAST = """player => [...player.querySelectorAll('.gg-svg text')].map(text => {
  const parse = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const over = (top, bottom) => { const a = top.length > 3 ? top[3] : 1;
    return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)); };
  const background = el => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      const c = parse(node instanceof SVGElement ? 'rgba(0,0,0,0)' : style.backgroundColor);
      if (c.length >= 3 && (c.length === 3 || c[3] > 0)) { layers.push(c); if (c.length === 3 || c[3] === 1) break; }
    }
    let colour = [255, 255, 255];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const group = text.closest('g');
  const box = group && group.querySelector(':scope > path, :scope > polygon');
  let bg = background(text.closest('svg'));
  if (box && group.classList.contains('gg-value')) bg = over(parse(getComputedStyle(box).fill), bg);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const fg = parse(getComputedStyle(text).fill);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return [text.textContent, (a + 0.05) / (b + 0.05)];
})"""


def contrast_problems(page: Any) -> list[tuple[str, float]]:
    """Graph texts of every player, measured mid-animation so the highlighted states count too."""
    ratios = []
    for player in players(page, "order") + players(page, "backward"):
        for _ in range(3):
            player.query_selector('[data-gg-action="forward"]').click()
        ratios += player.evaluate(CONTRAST)
    assert ratios
    return [(content, round(ratio, 2)) for content, ratio in ratios if ratio < 4.5]


def test_graph_text_contrasts_with_its_background_in_both_palettes(
    built_site: Path, visit: Callable[..., Visit]
) -> None:
    page = next(p for p in pages_with_players(built_site) if "2-" in p)
    session = visit(page)
    assert contrast_problems(session.page) == []
    session.page.locator("form[data-md-component=palette] label:visible").first.click()  # Material's toggle
    session.page.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'slate'")
    assert contrast_problems(session.page) == []


def test_reduced_motion_turns_transitions_off(built_site: Path, visit: Callable[..., Visit]) -> None:
    page = next(p for p in pages_with_players(built_site) if "2-" in p)
    path = ".gg-player .gg-svg .gg-value > path"
    session = visit(page)
    moving = session.page.eval_on_selector(path, "e => getComputedStyle(e).transitionDuration")
    session.page.emulate_media(reduced_motion="reduce")
    still = session.page.eval_on_selector(path, "e => getComputedStyle(e).transitionDuration")
    assert moving != "0s" and still == "0s"


def test_without_javascript_the_lists_and_trace_are_complete(built_site: Path, visit: Callable[..., Visit]) -> None:
    page = next(p for p in pages_with_players(built_site) if "2-" in p)
    session = visit(page, java_script_enabled=False)
    player = session.page.query_selector('.gg-player[data-gg-player="order"]')
    root = match_graph(player)
    names = [node.label for node in dependency_safe_order(root)]
    assert player.eval_on_selector_all(".gg-order-list .gg-chip", "els => els.map(e => e.textContent)") == names
    assert (
        player.eval_on_selector_all(".gg-schedule-list .gg-chip", "els => els.map(e => e.textContent)") == names[::-1]
    )
    assert not player.query_selector(".gg-player-controls").is_visible()
    trace_cards = session.page.query_selector_all(".gg-step[data-gg-step]")
    assert len(trace_cards) >= len(backward(root))


def test_instant_navigation_initialises_each_player_once(built_site: Path, visit: Callable[..., Visit]) -> None:
    page = next(p for p in pages_with_players(built_site) if "2-" in p)
    session = visit("")
    session.page.click(f'a[href$="{page}"]')  # Material's instant navigation: no full reload
    session.page.wait_for_selector(".gg-player[data-gg-ready]")
    player = players(session.page, "backward")[0]
    player.query_selector('[data-gg-action="forward"]').click()
    assert player.get_attribute("data-gg-step") == "1"  # one listener per button, so one step per click
    assert session.errors == []


def test_jupyter_fragments_carry_their_script_and_initialise_once(browser: Any) -> None:
    """Outside the site (Jupyter), each fragment brings the script; a second copy must not re-bind players."""
    from glassgrad.viz import animate_backward, animate_order, stylesheet

    root = linear_loss()["L"]
    fragments = str(stylesheet()) + animate_order(root)._repr_html_() + animate_backward(root)._repr_html_()
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.set_content(f"<!doctype html><meta charset='utf-8'><body>{fragments}</body>")
        for kind in ("order", "backward"):
            player = players(page, kind)[0]
            player.query_selector('[data-gg-action="forward"]').click()
            assert player.get_attribute("data-gg-step") == "1"
        assert errors == []
    finally:
        page.close()

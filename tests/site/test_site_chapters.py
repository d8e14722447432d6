"""Chapters 2 and 3 as built: their numbers, figures and traces equal what chapter 2's engine and PyTorch compute now."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import Visit, page_html

import glassgrad.scratch
from glassgrad.examples import linear_loss as build_linear_loss
from glassgrad.examples import sigmoid_neuron as build_sigmoid_neuron
from glassgrad.scratch import BackwardStep, ParentLink, Value, backward, dependency_safe_order, multiply
from glassgrad.torch_reference import linear_loss as torch_linear_loss
from glassgrad.torch_reference import sigmoid_neuron as torch_sigmoid_neuron

pytestmark = pytest.mark.site

CHAPTER_2 = "chapters/2-from-scratch/"
CHAPTER_3 = "chapters/3-fused-sigmoid/"


def linear_loss() -> dict[str, Value]:
    return build_linear_loss(glassgrad.scratch)


def sigmoid_neuron(fused: bool) -> dict[str, Value]:
    return build_sigmoid_neuron(fused, glassgrad.scratch)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Figures(HTMLParser):
    """Collects the page text, every id, the glassgrad SVGs and, per trace, its cards.

    Step-through players (``.gg-player``, from `glassgrad.viz.animate`) and explorers (``.gg-explore``, from
    `glassgrad_site.explore`) embed their own graphs;
    `svgs` and `static_text` count only what lies outside them, so this file checks the static
    figures the chapter itself prints.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.static_text: list[str] = []
        self.ids: list[str] = []
        self.svgs = 0
        self.players = 0
        self.traces: list[list[dict[str, str]]] = []  # one list of card attributes per trace
        self.graph_prefixes: list[str] = []
        self._depth: dict[str, int] = {}  # open elements per tag name
        self._player: tuple[str, int] | None = None  # (tag, depth) of the player being read, if any

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        classes = values.get("class", "").split()
        if "id" in values:
            self.ids.append(values["id"])
        if tag not in VOID:
            self._depth[tag] = self._depth.get(tag, 0) + 1
            if ("gg-player" in classes or "gg-explore" in classes) and self._player is None:
                self._player = (tag, self._depth[tag])  # an explorer, like a player, carries its own figure
                self.players += "gg-player" in classes
        if self._player is not None:
            return
        if tag == "svg" and "gg-svg" in classes:
            self.svgs += 1
        if tag == "figure" and "gg-graph" in classes and "data-gg-prefix" in values:
            self.graph_prefixes.append(values["data-gg-prefix"])
        if tag == "div" and "gg-trace" in classes:
            self.traces.append([])
        if tag == "li" and "gg-step" in classes:
            self.traces[-1].append(values)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not self._depth.get(tag):
            return
        if self._player == (tag, self._depth[tag]):
            self._player = None
        self._depth[tag] -= 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._player is None:
            self.static_text.append(data)


def read(site: Path, page: str) -> _Figures:
    parser = _Figures()
    parser.feed(page_html(site, page))
    parser.close()
    return parser


def text(parser: _Figures) -> str:
    return "".join(parser.text)


def flat(parser: _Figures) -> str:
    """Page text with every run of whitespace collapsed (SVG text and cards span several lines)."""
    return re.sub(r"\s+", " ", text(parser))


@pytest.fixture(scope="module")
def chapter_2(built_site: Path) -> _Figures:
    return read(built_site, CHAPTER_2)


@pytest.fixture(scope="module")
def chapter_3(built_site: Path) -> _Figures:
    return read(built_site, CHAPTER_3)


# ---- chapter 2 ------------------------------------------------------------------------------------


def test_chapter_2_figures_and_trace_lengths(chapter_2: _Figures) -> None:
    nodes = linear_loss()
    w = Value(2.0, "w")
    r = multiply(w, w, "r")
    # Figures: the ParentLink storage, w*w and the graph after backward; the graph before it is the ordering player's.
    assert chapter_2.svgs == 3 and chapter_2.players == 2
    assert [len(cards) for cards in chapter_2.traces] == [len(backward(r)), len(backward(nodes["L"]))] == [2, 7]
    assert len(chapter_2.ids) == len(set(chapter_2.ids)), "duplicate element ids on the page"


def test_chapter_2_trace_cards_point_at_the_graph_after_backward(chapter_2: _Figures) -> None:
    nodes = linear_loss()
    steps = backward(nodes["L"])
    order = dependency_safe_order(nodes["L"])
    cards = chapter_2.traces[1]
    ids = set(chapter_2.ids)
    assert len(cards) == len(steps)
    link_number: dict[Value, int] = {}
    for card, step in zip(cards, steps):
        k = link_number.get(step.output, 0)  # an output's steps come in its link order
        link_number[step.output] = k + 1
        assert card["data-gg-edge"] in ids and card["data-gg-parent-node"] in ids
        assert card["data-gg-edge"].endswith(f"-edge-{order.index(step.output)}-{k}")
        assert card["data-gg-parent-node"].endswith(f"-node-{order.index(step.parent)}")
        assert (card["data-gg-output"], card["data-gg-parent"]) == (step.output.label, step.parent.label)


def test_chapter_2_numbers_are_the_engines_and_pytorchs(chapter_2: _Figures) -> None:
    page = flat(chapter_2)
    reference = torch_linear_loss()
    nodes = linear_loss()
    steps = backward(nodes["L"])
    # Every card of the complete state shows PyTorch's gradient with its meaning.
    for name, (value, grad) in reference.items():
        assert f".data{value:g}.grad{grad:g} (= ∂L/∂{name})" in page, name
    for step in steps:
        out, parent = step.output.label, step.parent.label
        assert (
            f"g{out} = {step.upstream:g} × ∂{out}/∂{parent} = {step.local:g} = Δg{parent} = {step.contribution:g}"
        ) in page
    m = nodes["m"]
    for link in m.parents:
        assert f"parent {link.value.label}: local ∂m/∂{link.value.label} = {link.local_grad:g}" in page
    order = " → ".join(node.label for node in dependency_safe_order(nodes["L"]))
    assert f"Dependency-first order: {order}" in page
    assert "✓ Every value and gradient matches PyTorch." in page
    # The storage figure's update line: upstream m.grad × local ∂m/∂w = contribution.
    local = m.parents[0].local_grad
    assert (f"upstream m.grad = {m.grad:g} × local ∂m/∂w = {local:g} = edge contribution {m.grad * local:g}") in page


def test_chapter_2_graph_before_backward_hides_grads(built_site: Path) -> None:
    before = re.findall(r'<figure [^>]*data-gg-grads="hidden".*?</figure>', page_html(built_site, CHAPTER_2), re.S)
    assert len(before) == 1 and re.sub(r"\s+", " ", before[0]).count("grad —") == len(linear_loss())


def test_chapter_2_shared_operand_and_recursion_limit(chapter_2: _Figures) -> None:
    w = Value(2.0, "w")
    r = multiply(w, w, "r")
    steps = backward(r)
    assert (
        [card["data-gg-parent"] for card in chapter_2.traces[0]] == [step.parent.label for step in steps] == ["w", "w"]
    )
    assert f"grad {w.grad:g}" in flat(chapter_2) and w.grad == 4.0
    # The recursive walk really stops at Python's recursion limit on a chain 5000 deep, as the page says.
    deep = Value(1.0, "x")
    for _ in range(5000):
        deep = glassgrad.scratch.square(deep)
    with pytest.raises(RecursionError):
        dependency_safe_order(deep)
    assert "Python stops a long enough chain of nested calls with a RecursionError" in flat(chapter_2)


def test_chapter_2_lists_the_whole_engine(chapter_2: _Figures) -> None:
    page = text(chapter_2)
    shown = (
        ParentLink,
        Value,
        multiply,
        glassgrad.scratch.add,
        glassgrad.scratch.subtract,
        glassgrad.scratch.square,
        dependency_safe_order,
        BackwardStep,
        backward,
    )
    for obj in shown:
        assert inspect.getsource(obj).rstrip() in page, obj.__qualname__


def test_chapter_2_order_walk(chapter_2: _Figures) -> None:
    page = text(chapter_2)
    assert (
        "visit(m):\n"
        "  visit(w) → w has no parents → append w\n"
        "  visit(x) → x has no parents → append x\n"
        "  both parents are in the order → append m"
    ) in page
    assert "m is processed before a, which uses it" in page


# ---- chapter 3 ------------------------------------------------------------------------------------


def test_chapter_3_figures_traces_and_highlights(chapter_3: _Figures) -> None:
    fused, atomic = sigmoid_neuron(True), sigmoid_neuron(False)
    fused_steps, atomic_steps = backward(fused["L"]), backward(atomic["L"])
    assert chapter_3.svgs == 2
    assert [len(cards) for cards in chapter_3.traces] == [len(fused_steps), len(atomic_steps)] == [8, 11]
    highlighted = [
        [card["data-gg-output"] for card in cards if "gg-highlight" in card["class"].split()]
        for cards in chapter_3.traces
    ]
    assert highlighted == [["s"], ["s", "d", "q", "n"]]
    for cards, steps in zip(chapter_3.traces, (fused_steps, atomic_steps)):
        assert [(card["data-gg-output"], card["data-gg-parent"]) for card in cards] == [
            (step.output.label, step.parent.label) for step in steps
        ]
    assert len(chapter_3.ids) == len(set(chapter_3.ids)), "duplicate element ids on the page"
    assert len(set(chapter_3.graph_prefixes)) == 2


def test_chapter_3_numbers_are_the_engines_and_pytorchs(chapter_3: _Figures) -> None:
    page = flat(chapter_3)
    fused = sigmoid_neuron(True)
    backward(fused["L"])
    reference = torch_sigmoid_neuron(True)
    assert [reference[name][1] for name in "wxby"] == [fused[name].grad for name in "wxby"]
    final = ", ".join(f"{name} = {fused[name].grad:g}" for name in "wxby")
    assert f"final gradients: {final}" in page
    local = fused["s"].parents[0].local_grad
    assert f"sigmoid local: 4 atomic factors = {local} = 1 fused factor" in page
    for name in ("w", "x", "m", "b", "z", "s", "e", "L"):
        assert f"grad {fused[name].grad:g}" in page
    assert "✓ fused and atomic agree on 9 shared nodes" in page
    assert "✓ fused, atomic and PyTorch agree at every node" in page
    assert "s = torch.sigmoid(z)" in page


def test_chapter_3_shows_the_sigmoid_source(chapter_3: _Figures) -> None:
    from glassgrad.scratch import exponential, negate, plus_one, reciprocal, sigmoid

    page = text(chapter_3)
    for obj in (negate, exponential, plus_one, reciprocal, sigmoid):
        assert inspect.getsource(obj).rstrip() in page, obj.__name__


@pytest.mark.parametrize("page", [CHAPTER_2, CHAPTER_3])
def test_no_traceback(built_site: Path, page: str) -> None:
    assert "Traceback" not in text(read(built_site, page))


# ---- in a browser: phones and the dark palette ------------------------------------------------------


@pytest.mark.browser
def test_dark_palette_recolours_the_svg(visit: Callable[..., Visit]) -> None:
    tab = visit(CHAPTER_3).page
    # Read final colours, not a frame of a colour transition (the players animate fills).
    tab.add_style_tag(content="* { transition: none !important; animation: none !important; }")
    colours = {}
    for scheme in ("default", "slate"):
        tab.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        colours[scheme] = tab.evaluate(
            "['text.gg-t-grad', 'text.gg-t-label', 'text.gg-t-local', '.gg-value .gg-f-box']"
            ".map(s => getComputedStyle(document.querySelector(s)).fill)"
        )
    assert all(light != dark for light, dark in zip(colours["default"], colours["slate"])), colours


@pytest.mark.browser
def test_chapter_3_is_shorter_than_chapter_2_and_both_fit_11000_px(visit: Callable[..., Visit]) -> None:
    """Chapter 3, the source's optional example, reads shorter than chapter 2; neither grows past 11,000 px at 1280."""
    heights = {}
    for page in (CHAPTER_2, CHAPTER_3):
        tab = visit(page, viewport={"width": 1280, "height": 900}).page
        tab.evaluate("document.fonts.ready")
        heights[page] = tab.evaluate("document.documentElement.scrollHeight")
    print(f"page heights at 1280 px: {heights}")  # shown with -s, and in the report
    assert heights[CHAPTER_3] < heights[CHAPTER_2] <= 11_000, heights  # 10,000 before the explorers (issue 43)


# Texts of chapter 3's graphs that straddle the gold frame around the sigmoid (one corner in, one out).
STRADDLING = """() => [...document.querySelectorAll('article svg g.gg-mark')].map(mark => {
  const frame = mark.querySelector('path, polygon').getBoundingClientRect();
  const inside = (x, y) => x > frame.left && x < frame.right && y > frame.top && y < frame.bottom;
  return [...mark.closest('svg').querySelectorAll('text')].filter(text => {
    const b = text.getBoundingClientRect();
    const corners = [inside(b.left, b.top), inside(b.right, b.top), inside(b.left, b.bottom), inside(b.right, b.bottom)];
    return corners.some(Boolean) && !corners.every(Boolean);
  }).map(text => text.textContent);
})"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 375])
def test_chapter_3_frames_hold_their_labels(visit: Callable[..., Visit], width: int) -> None:
    tab = visit(CHAPTER_3, viewport={"width": width, "height": 900}).page
    tab.evaluate("document.fonts.ready")
    assert tab.evaluate(STRADDLING) == [[], []]

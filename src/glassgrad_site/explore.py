"""Explorable running examples: a slider and a field per leaf beside the graph, every number from the engine.

The build draws the example once (`draw_graph`, its trace and its state card) and gives every number in it an
id of the figure's prefix (``p-node-i-data``, ``p-node-i-grad``, ``p-edge-i-k-local``, ``p-step-n-upstream``,
``p-state-i-grad``...). A *frame* is the list of those numbers as the figures print them (`fmt`), in the order
of `quantities`; the page's script (``docs/javascripts/explore.js``) writes frame number q into every element of
slot q, by id, so the layout stays and only labels change, as in the step-through players. The build computes
the frames of single-leaf moves on a grid (`GRID_POINTS` positions per leaf, the others at their defaults);
any other setting is computed in the reader's browser by `compute`, the same code in Pyodide. The forward-mode
page's explorer (``forward``) shows each value's tangent, with one leaf moving at speed 1, where the others show
its gradient, and its trace is forward mode's.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import glassgrad
from glassgrad import examples, scratch
from glassgrad.viz.animate import frames_json
from glassgrad.viz.graph import Value, walk
from glassgrad.viz.html import escape, fmt

GRID_POINTS = 81  # slider positions per leaf, every one precomputed
GRID_STEP = 0.1  # the slider's step: the defaults sit on the grid, 40 steps from either end


@dataclass(frozen=True)
class Example:
    """A running example: its leaves' default values, how to build its loss with an engine from leaf values, and
    (forward mode only) the leaf that moves at speed 1."""

    defaults: dict[str, float]
    build: Callable[[ModuleType, Mapping[str, float]], Value]
    moving: str | None = None


def _linear(engine: ModuleType, leaves: Mapping[str, float]) -> Value:
    return examples.linear_loss(engine, **leaves)["L"]


EXAMPLES = {
    "linear": Example(dict(examples.LINEAR_INPUTS), _linear),
    "neuron": Example(
        dict(examples.SIGMOID_INPUTS), lambda engine, leaves: examples.sigmoid_neuron(True, engine, **leaves)["L"]
    ),
    "forward": Example(dict(examples.LINEAR_INPUTS), _linear, moving="w"),
}
"""Chapter 2's graph (``linear``) and chapter 3's fused neuron (``neuron``), built with ``glassgrad.scratch`` and
run backward; chapter 2's graph with ``w`` moving at speed 1 (``forward``), built with ``glassgrad`` for `trace_jvp`."""

STEP_FIELDS = ("upstream", "local", "contribution", "before", "after")
FORWARD_STEP_FIELDS = ("parent_tangent", "local", "contribution", "before", "after")  # a `ForwardStep`'s, same places


def grid(default: float) -> list[float]:
    """The `GRID_POINTS` slider positions of a leaf whose default is `default` (rounded: 2.3, not 2.3000000000000003).

    Examples:
        >>> positions = grid(2.0)
        >>> positions[0], positions[40], positions[45], positions[-1]
        (-2.0, 2.0, 2.5, 6.0)
    """
    half = GRID_POINTS // 2
    return [round(default + (k - half) * GRID_STEP, 6) for k in range(GRID_POINTS)]


def check_leaves(name: str, leaves: Mapping[str, float]) -> None:
    """ValueError naming the first of `leaves` that example `name` does not have."""
    unknown = sorted(set(leaves) - set(EXAMPLES[name].defaults))
    if unknown:
        raise ValueError(f"{name} has no leaf {unknown[0]!r}; its leaves are {', '.join(EXAMPLES[name].defaults)}")


def run(name: str, leaves: Mapping[str, float]) -> tuple[Value, Any]:
    """Build example `name` at `leaves` (missing leaves at their defaults) and run backward, or forward mode for an
    example with a moving leaf: the loss and the steps' log."""
    example = EXAMPLES[name]
    check_leaves(name, leaves)
    values = {**example.defaults, **leaves}
    if example.moving is None:
        root = example.build(scratch, values)
        return root, scratch.backward(root)
    root = example.build(glassgrad, values)
    moving = next(node for node in walk(root) if node.label == example.moving)
    return root, glassgrad.trace_jvp(root, {moving: 1.0})


def quantities(root: Value, steps: list[Any]) -> list[tuple[str, float]]:
    """Every number the explorer shows, named: each value's data and grad (forward mode: its tangent), each link's
    local, each step's five.

    Examples:
        >>> root, steps = run("linear", {"w": 2.5})
        >>> named = dict(quantities(root, steps))
        >>> named["L"], named["∂L/∂w"]
        (2.25, -9.0)
        >>> dict(quantities(*run("forward", {"x": 4.0})))["tangent of L"]
        -8.0
    """
    order = walk(root)
    shown = [node.label for node in order]
    tangents = getattr(steps, "tangents", None)  # forward mode's log holds every value's tangent
    numbers = [(shown[i], node.data) for i, node in enumerate(order)]
    if tangents is None:
        numbers += [(f"∂{root.label}/∂{shown[i]}", node.grad) for i, node in enumerate(order)]
    else:
        numbers += [(f"tangent of {shown[i]}", tangents[node]) for i, node in enumerate(order)]
    numbers += [(f"∂{node.label}/∂{link.value.label}", link.local_grad) for node in order for link in node.parents]
    fields = STEP_FIELDS if tangents is None else FORWARD_STEP_FIELDS
    numbers += [
        (f"step {n} {field}", float(getattr(step, field))) for n, step in enumerate(steps, 1) for field in fields
    ]
    return numbers


def compute(name: str, leaves: Mapping[str, float]) -> dict[str, Any]:
    """The frame of example `name` at `leaves` (``{"numbers": [...]}``), or ``{"error": ...}`` naming what broke.

    The page calls this in the browser for a setting the build did not precompute.

    Examples:
        >>> compute("linear", {"w": 2.5, "b": 0.0})["numbers"][7]
        '6.25'
        >>> compute("linear", {"w": 1e200})["error"]
        'too large: L overflows (inf)'
    """
    check_leaves(name, leaves)
    leaves = {leaf: float(value) for leaf, value in leaves.items()}  # the browser sends 3, not 3.0
    for leaf, value in leaves.items():
        if not math.isfinite(value):
            return {"error": f"{leaf} must be a finite number"}
    try:
        named = quantities(*run(name, leaves))
    except (ArithmeticError, ValueError) as error:  # e.g. math.exp out of range
        return {"error": f"undefined: {error}"}
    for label, number in named:
        if not math.isfinite(number):
            return {"error": f"too large: {label} overflows ({fmt(number)})"}
    return {"numbers": [fmt(number) for _, number in named]}


def frames(name: str) -> dict[str, list[list[str]]]:
    """Every precomputed frame of example `name`: per leaf, one frame per grid position (the others at defaults)."""
    result = {}
    for leaf, default in EXAMPLES[name].defaults.items():
        result[leaf] = [compute(name, {leaf: position})["numbers"] for position in grid(default)]
    return result


def _tag(html: str, pattern: str, ids: list[str]) -> str:
    """Wrap the number each match of `pattern` (group ``n``) holds in a ``<span>`` with the next id of `ids`."""
    queue = iter(ids)

    def wrap(match: re.Match[str]) -> str:
        start, end = match.start("n") - match.start(), match.end("n") - match.start()
        whole = match.group(0)
        return f'{whole[:start]}<span id="{next(queue)}">{match.group("n")}</span>{whole[end:]}'

    return re.sub(pattern, wrap, html, flags=re.S)


class Slots:
    """Which elements show number q of a frame (`quantities`' order), each with the template its text fills."""

    def __init__(self, root: Value, steps: list[Any], prefix: str, grad_word: str = "grad") -> None:
        self.prefix, self.order, self.grad_word = prefix, walk(root), grad_word
        self.links = [(i, k) for i, node in enumerate(self.order) for k in range(len(node.parents))]
        self.table: list[list[list[str]]] = [[] for _ in quantities(root, steps)]

    def data(self, i: int, element: str, template: str = "{}") -> None:
        """Element `element` shows the data of value i."""
        self.table[i].append([element, template])

    def grad(self, i: int, element: str, template: str = "{}") -> None:
        """Element `element` shows the grad of value i."""
        self.table[len(self.order) + i].append([element, template])

    def local(self, q: int, element: str, template: str = "{}") -> None:
        """Element `element` shows the local grad of link q (of `links`)."""
        self.table[2 * len(self.order) + q].append([element, template])

    def step(self, n: int, field: int, element: str) -> None:
        """Element `element` shows field `field` (of `STEP_FIELDS`) of step n (from 1)."""
        self.table[2 * len(self.order) + len(self.links) + 5 * (n - 1) + field].append([element, "{}"])


def _numbered_figure(svg: str, drawn: list[Value], slots: Slots) -> str:
    """The slots of the figure of `drawn` (``walk``'s order): its data, grad and edge-label texts, by their ids."""
    p, order = slots.prefix, drawn
    for i in range(len(order)):
        slots.data(i, f"{p}-node-{i}-data")
        slots.grad(i, f"{p}-node-{i}-grad", slots.grad_word + " {}")
    for q, (i, k) in enumerate(slots.links):
        label = re.search(rf'id="{p}-edge-{i}-{k}-local"[^>]*>([^<]*)<', svg)
        number = fmt(order[i].parents[k].local_grad)
        if label is None or number not in label.group(1):
            raise ValueError(f"the label of edge {i}-{k} does not show its local grad {number}")
        text = html.unescape(label.group(1))
        cut = text.rindex(number)
        slots.local(q, f"{p}-edge-{i}-{k}-local", text[:cut] + "{}" + text[cut + len(number) :])
    return svg


def widest_frame(precomputed: Mapping[str, list[list[str]]]) -> list[str]:
    """Per number, its widest text over every precomputed frame: the figure is drawn with these, so each box
    and label has room for every number the sliders show."""
    every = [frame for leaf_frames in precomputed.values() for frame in leaf_frames]
    return [max(texts, key=len) for texts in zip(*every, strict=True)]


def _widened(root: Value, numbers: list[str]) -> None:
    """Give the graph of `root` (built for drawing only) the numbers of `numbers` (`quantities`' order)."""
    order = walk(root)
    links = [link for node in order for link in node.parents]
    for i, node in enumerate(order):
        node.data, node.grad = float(numbers[i]), float(numbers[len(order) + i])
    for q, link in enumerate(links):
        link.local_grad = float(numbers[2 * len(order) + q])


def _keeping(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement for `re.sub`: the match's first and last groups around `text` (taken as it is)."""
    return lambda match: match.group(1) + text + match.group(2)


def _filled(svg: str, slots: Slots, numbers: list[str]) -> str:
    """The SVG with every numbered text showing `numbers`, as the page's script writes them."""
    for q, pairs in enumerate(slots.table):
        for element, template in pairs:
            text = escape(template.replace("{}", numbers[q]))
            svg = re.sub(rf'(<text [^>]*id="{element}"[^>]*>)[^<]*(</text>)', _keeping(text), svg)
    return svg


def _numbered_trace(trace: str, steps: list[Any], slots: Slots) -> str:
    """The trace with an id on each number of each card (upstream, local, contribution, before, after)."""
    p = slots.prefix
    for n in range(1, len(steps) + 1):
        ids = [f"{p}-step-{n}-{field}" for field in STEP_FIELDS]
        card = re.search(rf'<li [^>]*id="{p}-step-{n}".*?</li>', trace, flags=re.S)
        if card is None:
            raise ValueError(f"the trace has no card {n}")
        tagged = _tag(card.group(0), r"= (?P<n>[^<\s]+)</span>", ids[:3])
        tagged = _tag(tagged, r"</code>: (?P<n>[^<\s]+) → ", [ids[3]])
        tagged = _tag(tagged, r'<span class="gg-grad">(?P<n>[^<]+)</span></div>', [ids[4]])
        trace = trace.replace(card.group(0), tagged)
        for field, element in enumerate(ids):
            slots.step(n, field, element)
    return trace


def _numbered_state(state: str, slots: Slots) -> str:
    """The state card with an id on every .data, .grad and .local_grad."""
    p, count = slots.prefix, len(slots.order)
    state = _tag(state, r"<dt>\.data</dt><dd>(?P<n>[^<]+)</dd>", [f"{p}-state-{i}-data" for i in range(count)])
    grad = r'<dt>\.grad</dt><dd><span class="gg-grad">(?P<n>[^<]+)</span>'
    state = _tag(state, grad, [f"{p}-state-{i}-grad" for i in range(count)])
    local = r'<dt>\.local_grad</dt><dd><span class="gg-local">(?P<n>[^<]+)</span>'
    state = _tag(state, local, [f"{p}-state-{i}-{k}-local" for i, k in slots.links])
    for i in range(count):
        slots.data(i, f"{p}-state-{i}-data")
        slots.grad(i, f"{p}-state-{i}-grad")
    for q, (i, k) in enumerate(slots.links):
        slots.local(q, f"{p}-state-{i}-{k}-local")
    return state


def _sentence(example: Example, root: Value, slots: Slots, numbers: list[str]) -> str:
    """``At w = 2, x = 3, b = 1, y = 10: L = 9 and ∂L/∂w = -18.``, each number (of the frame `numbers`) with its id.
    ∂L/∂w is w's grad, or in forward mode (w moving at 1) the tangent of L."""
    p, index = slots.prefix, {node.label: i for i, node in enumerate(slots.order) if not node.parents}
    settings = []
    for leaf, default in example.defaults.items():
        settings.append(f'{escape(leaf)} = <span id="{p}-say-{leaf}">{escape(fmt(default))}</span>')
        slots.data(index[leaf], f"{p}-say-{leaf}")
    loss = slots.order.index(root)
    slope = loss if example.moving else index["w"]  # whose grad slot holds ∂L/∂w
    slots.data(loss, f"{p}-say-L")
    slots.grad(slope, f"{p}-say-dw")
    name = "the tangent of L, ∂L/∂w" if example.moving else "∂L/∂w"
    return (
        f'<p class="gg-explore-say" aria-live="polite">At {", ".join(settings)}: '
        f'<strong>L = <span id="{p}-say-L">{escape(numbers[loss])}</span></strong> and '
        f'<strong>{name} = <span id="{p}-say-dw">{escape(numbers[len(slots.order) + slope])}</span></strong>.</p>'
    )


def _forward_trace(root: Value, steps: Any, moving: str, prefix: str) -> str:
    """Forward mode's trace: the seed line, then one card per step (`glassgrad.viz.forward.forward_card`), card n with
    the id ``{prefix}-step-{n}``, as `show_backward_steps` numbers the backward cards."""
    from glassgrad.viz.forward import forward_card

    cards = "".join(
        f'<li class="gg-step" id="{prefix}-step-{n}" data-gg-step="{n}">'
        f"{forward_card(n, step, step.output.label, step.parent.label)}</li>"
        for n, step in enumerate(steps, 1)
    )
    return (
        f'<div class="gg gg-trace"><p class="gg-seed">Seed: {escape(moving)} moves at speed 1, '
        f"t<sub>{escape(moving)}</sub> = 1; the other inputs stay still, tangent 0.</p>"
        f'<ol class="gg-steps" aria-label="Forward steps, in processing order">{cards}</ol></div>'
    )


def _controls(example: Example, prefix: str) -> str:
    """A slider and a field per leaf (with a place for its message), Reset and the badge; hidden until the script runs."""
    fields = "".join(
        f'<div class="gg-explore-leaf"><label for="{prefix}-field-{leaf}">{escape(leaf)}</label>'
        f'<input type="range" id="{prefix}-range-{leaf}" data-gg-leaf="{escape(leaf)}" min="{grid(default)[0]:g}" '
        f'max="{grid(default)[-1]:g}" step="{GRID_STEP:g}" value="{default:g}" aria-label="{escape(leaf)}, slider">'
        f'<input type="text" inputmode="decimal" id="{prefix}-field-{leaf}" data-gg-leaf="{escape(leaf)}" '
        f'value="{default:g}" aria-describedby="{prefix}-msg-{leaf}" spellcheck="false" autocomplete="off">'
        f'<span class="gg-explore-msg" id="{prefix}-msg-{leaf}" role="status"></span></div>'
        for leaf, default in example.defaults.items()
    )
    return (
        f'<div class="gg-explore-controls" role="group" aria-label="The inputs of the example" hidden>{fields}'
        '<div class="gg-explore-row"><button type="button" class="gg-explore-reset">Reset</button>'
        '<span class="gg-explore-badge" data-gg-source="precomputed" aria-live="polite">precomputed</span></div></div>'
    )


def explorer(name: str, *, rankdir: str = "TB") -> str:
    """The explorer of example `name`: the sentence and the controls beside the graph, then (folded) the trace and the state.

    Every number carries an id; the page's script finds the slot table and the frames in a
    ``<script type="application/json" class="gg-explore-data">``. Without the script the section shows the
    example at its defaults (the controls stay hidden).
    """
    from glassgrad.viz import beside, collapsed, draw_graph, show_backward_steps, show_complete_state
    from glassgrad.viz.graph import GraphFigure, GraphIds

    example = EXAMPLES[name]
    root, steps = run(name, {})
    precomputed = frames(name)
    drawn = example.build(scratch, example.defaults)  # drawn only: its numbers are the widest of every frame
    _widened(drawn, widest_frame(precomputed))  # the layout has room for every precomputed number
    tangents = {node: node.grad for node in walk(drawn)} if example.moving else None
    figure = draw_graph(drawn, rankdir=rankdir, id_prefix=f"ggx-{name}", tangents=tangents)
    slots = Slots(root, steps, figure.prefix, "tangent" if example.moving else "grad")
    defaults = compute(name, {})["numbers"]
    svg = _filled(_numbered_figure(str(figure), walk(drawn), slots), slots, defaults)
    ids = GraphIds(root, figure.prefix)  # the same ids, on the graph the trace and the state card read
    numbered = GraphFigure(svg, ids, natural=figure.natural, widest=figure.widest, narrowest=figure.narrowest)
    sentence = _sentence(example, root, slots, defaults)
    if example.moving:
        trace = _numbered_trace(_forward_trace(root, steps, example.moving, figure.prefix), steps, slots)
        folded = collapsed("The forward steps, for the values set above", trace)
    else:
        trace = _numbered_trace(str(show_backward_steps(steps, graph=numbered)), steps, slots)
        state = _numbered_state(str(show_complete_state(root)), slots)
        folded = collapsed("The trace and every stored field, for the values set above", trace, state)
    data = {
        "example": name,
        "leaves": [{"name": leaf, "value": value, "grid": grid(value)} for leaf, value in example.defaults.items()],
        "slots": slots.table,
        "frames": precomputed,
    }
    return (
        f'<section class="gg gg-explore" id="{figure.prefix}-explore" data-gg-explore="{escape(name)}">'
        f"{beside(numbered, sentence, _controls(example, figure.prefix))}"
        f"{folded}"
        f'<script type="application/json" class="gg-explore-data">{frames_json(data)}</script></section>'
    )

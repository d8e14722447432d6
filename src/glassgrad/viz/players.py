"""Players: the frames a step-through player replays, and the player's markup around a figure.

Python computes every frame at build time from the engine's own traces and embeds them in
``<script type="application/json" class="gg-frames">``; ``glassgrad.js`` only applies them. A frame is
``{"label", "text", "marks", "texts", "focus"}``: the status line reads ``label. text``; ``marks`` maps
element ids to the classes they carry in this frame only; ``texts`` maps element ids to their HTML from
this frame on (folded from frame 0); ``focus`` is the element kept in view when the graph scrolls sideways.
`frame` builds one; `link_step_frames` builds the one-frame-per-link-step run that the backward player
(`glassgrad.viz.animate`) and the forward-mode player (`glassgrad.viz.forward`) share.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

from glassgrad.value import Value
from glassgrad.viz.graph import HIDDEN, GraphIds
from glassgrad.viz.html import _CONTROL, HtmlFragment, escape

SPEEDS = (0.5, 1.0, 2.0, 4.0)  # the speed menu (1 = one step every 1.2 s)

# Characters that could end the <script> element or break a JavaScript parser, as JSON escapes.
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def frames_json(data: Any) -> str:
    """`data` as JSON that is safe inside ``<script type="application/json">`` (``json.loads`` gives it back).

    Examples:
        >>> frames_json({"label": "</script><b>&"})
        '{"label": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))
    for character, escaped in _JSON_ESCAPES.items():
        text = text.replace(character, escaped)
    return text.translate(_CONTROL)  # lone surrogates and U+FFFE/U+FFFF as escape() shows them (JSON escaped the rest)


def frame(
    label: str, text: str, marks: dict[str, list[str]], texts: dict[str, str], focus: str | None = None
) -> dict[str, Any]:
    """One frame: `marks` maps an element id to its classes (joined here), `texts` an id to its new HTML."""
    return {
        "label": label,
        "text": text,
        "marks": {i: " ".join(c) for i, c in marks.items()},
        "texts": texts,
        "focus": focus,
    }


def start_frame(text: str, slots: Sequence[str], word: str) -> dict[str, Any]:
    """A pass's "Start" frame: each of `slots` (the element ids of a number per value) empty, ``word —``."""
    return frame("Start", text, {slot: ["gg-t-empty"] for slot in slots}, {slot: f"{word} {HIDDEN}" for slot in slots})


# What a player says about one step: its status text and its texts (element id to new HTML).
StepView = Callable[[int, Any], tuple[str, dict[str, str]]]


def link_step_frames(
    steps: Sequence[Any],
    ids: GraphIds,
    describe: StepView,
    *,
    current: str,
    rows: Callable[[int], dict[str, list[str]]] = lambda number: {},
) -> list[dict[str, Any]]:
    """One frame per step of a backward or forward-mode log, each on the edge of the link it crossed.

    A step has `output` and `parent`; an output's steps come in the order of its links, so its k-th step
    crossed ``output.parents[k]`` (`ids.edge_id(output, k)`). That edge and its operation are marked active,
    the step's `current` end (``"output"`` or ``"parent"``) current and the other appended, the card shown,
    then `rows(number)`; `describe(number, step)` gives the status text and the texts.

    Raises:
        ValueError: if a step does not cross the next stored link of its output (or its output is not drawn).
    """
    frames = []
    used: dict[Value, int] = defaultdict(int)
    for number, step in enumerate(steps, start=1):
        k = used[step.output]
        used[step.output] += 1
        output = step.output
        if output not in ids or k >= len(output.parents) or output.parents[k].value is not step.parent:
            raise ValueError(
                "the steps do not follow the stored links of their outputs (were they logged from this graph?)"
            )
        edge = ids.edge_id(output, k)
        now, done = (output, step.parent) if current == "output" else (step.parent, output)
        marks = {
            edge: ["gg-active"],
            ids.op_id(output): ["gg-active"],
            ids.node_id(now): ["gg-current"],
            ids.node_id(done): ["gg-appended"],
            f"{ids.prefix}-card": ["gg-shown"],
            **rows(number),
        }
        text, texts = describe(number, step)
        frames.append(frame(f"Step {number} of {len(steps)}", text, marks, texts, edge))
    return frames


class PlayerFragment(HtmlFragment):
    """A player's markup `html` (``str(player)``, for the site, which links script and stylesheet) plus its `data` (the frames).

    ``_repr_html_()`` inlines both for Jupyter (the script is guarded: several players define it once).
    """

    __slots__ = ("data",)

    def __init__(self, html: str, data: dict[str, Any]) -> None:
        super().__init__(html)
        self.data = data

    def _repr_html_(self) -> str:
        css = resources.files("glassgrad.viz").joinpath("animate.css").read_text(encoding="utf-8")
        return f"<style>\n{css}</style>{self.html}<script>\n{script_text()}</script>"


def script_text() -> str:
    """The player script (`glassgrad/viz/glassgrad.js`), safe to inline in a ``<script>``."""
    text = resources.files("glassgrad.viz").joinpath("glassgrad.js").read_text(encoding="utf-8")
    return text.replace("</", "<\\/")  # cannot end its own <script> element


def player(
    kind: str,
    prefix: str,
    title: str,
    body: str,
    frames: list[dict[str, Any]],
    rankdir: str = "LR",
    graph: str | None = None,
    status: str = "",
    graph_width: int | None = None,
) -> PlayerFragment:
    """The player markup: title, controls and status (hidden until the script runs), `body`, frames.

    A ``"TB"`` player puts its graph beside the controls where there is room, in a column as wide as the graph
    is shown at most (`graph_width`, CSS px) while the controls keep 18em; `graph` is the id of a figure
    elsewhere on the page that the player plays on (it then has no full-screen button: it holds no graph).
    """
    layout = f' data-gg-rankdir="{rankdir}"' if graph is None else f' data-gg-graph="{escape(graph)}"'
    if graph_width is not None:
        layout += f' style="--gg-player-graph: {graph_width}px"'
    fullscreen = (
        ""
        if graph
        else '<button type="button" data-gg-action="fullscreen" aria-pressed="false">Open full screen</button>'
    )
    speeds = "".join(f'<option value="{s:g}"{" selected" if s == 1 else ""}>{s:g}×</option>' for s in SPEEDS)
    data = {"kind": kind, "frames": frames}
    return PlayerFragment(
        f'<section class="gg gg-player" id="{prefix}-player" data-gg-player="{kind}"{layout} tabindex="0" '
        f'aria-label="{escape(title)} (step-through animation; arrow keys step, space plays)">'
        f'<p class="gg-player-title">{escape(title)}</p>'
        '<div class="gg-player-controls gg-js" role="toolbar" aria-label="Animation controls" hidden>'
        '<button type="button" data-gg-action="reset">Reset</button>'
        '<button type="button" data-gg-action="back" aria-label="Step back">◀ Back</button>'
        '<button type="button" data-gg-action="play" aria-pressed="false">Play</button>'
        '<button type="button" data-gg-action="forward" aria-label="Step forward">Forward ▶</button>'
        f'<label class="gg-player-speed-label">Speed <select class="gg-player-speed">{speeds}</select></label>'
        f"{fullscreen}</div>"
        f'<p class="gg-player-status gg-js" hidden>{escape(status)}</p>{body}'
        f'<script type="application/json" class="gg-frames">{frames_json(data)}</script></section>',
        data,
    )


def side_by_side(*players: PlayerFragment) -> PlayerFragment:
    """Players in columns on wide screens, stacked on phones; ``.data["players"]`` holds each one's data."""
    cells = "".join(f'<div class="gg-side-cell">{player}</div>' for player in players)
    return PlayerFragment(
        f'<div class="gg gg-side-by-side">{cells}</div>', {"kind": "group", "players": [p.data for p in players]}
    )

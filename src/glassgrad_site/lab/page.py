"""The functions the lab page calls in its long-lived Python, one at a time: plain data in, plain data out.

`start` with the settings, then `step` as often as the page likes, `inspect` and `gradcheck` on one
example, `script` for the run as a plain Python program.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from glassgrad import Value, backward
from glassgrad.nn import ACTIVATIONS, weighted_sum
from glassgrad_site.lab import export
from glassgrad_site.lab.data import view_of
from glassgrad_site.lab.graph import PREFIX, neuron_of, neuron_view, pre_activations, widest
from glassgrad_site.lab.model import Lab, example_loss, features_of, float_loss

_lab: Lab | None = None
_figures: dict[str, str] = {}  # the inspected graph's drawings, by shape of model and loss and view (`_shape`)


def _current() -> Lab:
    global _lab
    if _lab is None:
        _lab = Lab()
    return _lab


def start(settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new run from `settings` (at step 0): the data, the view, the layer sizes and the first state."""
    global _lab
    _lab = Lab(settings)
    lab = _lab
    view = view_of(lab.settings["data"])
    return {
        "settings": {**lab.settings, "added": [list(p) for p in lab.settings["added"]]},
        "points": [list(p) for p in lab.points],
        "labels": lab.labels,
        "origins": lab.origins,
        "test_points": [list(p) for p in lab.test_points],
        "test_labels": lab.test_labels,
        "messages": lab.notes,
        "sizes": [len(lab.settings["features"]), *lab.settings["layers"], lab.outputs],
        "features": lab.settings["features"],
        "activation": lab.settings["activation"],
        "task": lab.task,
        "names": [p.label for p in lab.parameters],
        "view": list(view),
        **lab.state(),
    }


View = bool | str
"""Inspect's view: ``True``, a node per neuron; a neuron's label (``L1.n3``), the same with that neuron's Values drawn;
``False``, every Value."""


def step(count: int = 1, inspected: int = -1, neurons: View = True) -> dict[str, Any]:
    """`count` training steps (one per call from the page); the new state, with the time the steps took.

    With `inspected` (a training example's index), also that example's graph's new numbers, by element id
    (in the view `neurons` says, as `inspect`).
    """
    lab = _current()
    started = time.perf_counter()
    losses = [lab.step() for _ in range(min(1000, max(1, int(count))))]
    seconds = time.perf_counter() - started
    out = {**lab.state(), "losses": losses, "seconds": seconds}
    view = _view(neurons)
    if 0 <= int(inspected) < len(lab.points) and _shape(lab, view) in _figures:
        root, _, pre = _shown(lab, int(inspected), view, record=False)
        out["numbers"] = _numbers(root, PREFIX, pre)
    return out


def scores(points: Sequence[Sequence[float]]) -> list[float]:
    """``model(x).data`` for each point, through the engine's own graph (the page checks its heat map on it)."""
    lab = _current()
    features = lab.settings["features"]
    return [lab.model(features_of(features, point[0], point[1])).data for point in points]  # type: ignore[union-attr]


def _view(neurons: object) -> View:
    """The `View` the page asked for (a neuron's label is checked: a clear error for anything else)."""
    if isinstance(neurons, str):
        if neuron_of(neurons) != neurons:
            raise ValueError(f"Inspect can expand a neuron such as L1.n3, not {neurons!r:.40}")
        return neurons
    return bool(neurons)


def _shape(lab: Lab, view: View) -> str:
    """What decides the shape of every example's graph: the layers, the loss, and the view (`View`)."""
    s = lab.settings
    shown = "values" if view is False else "neurons" if view is True else f"neurons+{view}"
    return f"{s['features']}|{s['layers']}|{s['activation']}|{s['loss']}|{shown}"


def _shown(lab: Lab, index: int, view: View, record: bool = True) -> tuple[Value, Any, dict[str, float]]:
    """Example `index`'s graph as drawn (`View`), after `backward` on it; its steps; each collapsed neuron's z."""
    root = lab.example(index)
    if view is False:
        return root, backward(root, record=record), {}
    pre = pre_activations(root)
    root = neuron_view(lab, root, "" if view is True else str(view))
    return root, backward(root, record=record), pre


def _numbers(root: Value, prefix: str, pre: dict[str, float] | None = None) -> dict[str, str]:
    """Every number the inspected figure shows, by element id: data, grad, local derivative; and a collapsed
    neuron's weighted sum z (`pre`, by label: ``{node id}-pre``), which the page shows when the node is pointed at."""
    from glassgrad.viz.graph import GraphIds
    from glassgrad.viz.html import fmt

    ids = GraphIds(root, prefix)
    texts: dict[str, str] = {}
    for node in ids.order:
        node_id = ids.node_id(node)
        texts[f"{node_id}-data"] = fmt(node.data)
        texts[f"{node_id}-grad"] = f"grad {fmt(node.grad)}"
        for k, link in enumerate(node.parents):
            texts[ids.edge_id(node, k)] = fmt(link.local_grad)
        if pre and node.label in pre and node.parents:
            texts[f"{node_id}-pre"] = fmt(pre[node.label])
    return texts


def _link_names(root: Value, prefix: str) -> dict[str, str]:
    """Each link's name as its label would write it (``∂L2.n3/∂L1.n0``), by element id: the page says it beside the
    link's number when a drawing has bare links."""
    from glassgrad.viz.graph import GraphIds
    from glassgrad.viz.html import caption

    ids = GraphIds(root, prefix)
    return {
        ids.edge_id(node, k): f"∂{caption(node, ids.index(node))}/∂{caption(link.value, ids.index(link.value))}"
        for node in ids.order
        for k, link in enumerate(node.parents)
    }


def worst() -> int:
    """The training example with the largest loss now (the one "Inspect a point" shows)."""
    lab = _current()
    losses = [
        float_loss(lab.settings["loss"], lab.model.evaluate(x), label) for x, label in zip(lab.inputs, lab.labels)
    ]
    return max(range(len(losses)), key=losses.__getitem__)


def _drawing(lab: Lab, root: Value, view: View) -> str:
    """The figure of an example's graph (any example: they share one shape), laid out once per shape and view.

    A neuron view's links are drawn without labels (its 93 labels made the drawing twice as wide and four times as
    tall): the page shows a link's local derivative when its node or the link is pointed at."""
    from glassgrad.viz import draw_graph
    from glassgrad_runtime import worker

    key = _shape(lab, view)
    if key not in _figures:
        with worker.rendering():  # the Graphviz the worker's `start` received (natively: `dot`)
            drawing = draw_graph(
                widest(root), id_prefix=PREFIX, max_values=2000, max_links=5000, edge_labels=view is False
            )
            _figures[key] = str(drawing)
    return _figures[key]


def prepare(neurons: View = True) -> dict[str, Any]:
    """Lay out the inspected graph now, while the reader looks (Graphviz takes a second or two); then Inspect is quick."""
    lab = _current()
    started = time.perf_counter()
    view = _view(neurons)
    _drawing(lab, _shown(lab, 0, view, record=False)[0], view)  # the layout reads no number
    return {"seconds": time.perf_counter() - started}


def inspect(index: int, draw: bool = False, neurons: View = True) -> dict[str, Any]:
    """Training example `index`'s loss graph (a negative index: the `worst` example), after its own backward pass.

    With `neurons` (the default), each neuron is one node (`neuron_view`); a neuron's label, the same but that
    neuron drawn as its Values; ``False``, every Value of the graph is drawn, the parameters too. The drawing (Graphviz's layout, the slow part) is made once per
    model shape and view and kept: every example's graph has the same shape, so its ``html`` is sent only
    when `draw` asks for it or it is new; ``numbers`` holds what this example's graph shows, by element id,
    and ``player`` a backward player that replays this example's pass on the drawn graph.
    """
    from glassgrad.viz import animate_backward
    from glassgrad.viz.graph import GraphFigure, GraphIds

    lab = _current()
    index = worst() if int(index) < 0 else int(index)
    if not 0 <= index < len(lab.points):
        raise IndexError(f"there is no training point {index} (the set has {len(lab.points)})")
    started = time.perf_counter()
    view = _view(neurons)
    root, steps, pre = _shown(lab, index, view)
    fresh = _shape(lab, view) not in _figures
    html = _drawing(lab, root, view) if draw or fresh else None
    player = animate_backward(
        root, steps, graph=GraphFigure("", GraphIds(root, PREFIX)), title="Replay this example's backward pass"
    )
    (a, b), label = lab.points[index], lab.labels[index]
    return {
        "index": index,
        "point": [a, b],
        "label": label,
        "loss": root.data,
        "neurons": view,
        "values": len(GraphIds(root, PREFIX).order),
        "links": len(steps),
        "html": html,
        "player": str(player),
        "numbers": _numbers(root, PREFIX, pre),
        "link_names": _link_names(root, PREFIX),
        "seconds": time.perf_counter() - started,
    }


def _example_from(lab: Lab, index: int) -> Callable[..., Value]:
    """The example's loss as a function of every parameter and its two inputs, for `gradcheck`."""
    sizes = [len(lab.settings["features"]), *lab.settings["layers"], lab.outputs]
    activation = ACTIVATIONS.get(lab.settings["activation"])
    label = lab.labels[index]

    def loss(*leaves: Value) -> Value:
        params, out = iter(leaves[: -sizes[0]]), list(leaves[-sizes[0] :])
        for layer, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
            outputs = []
            for _ in range(fan_out):
                weights = [next(params) for _ in range(fan_in)]
                z = weighted_sum(weights, out, next(params))
                hidden = layer < len(sizes) - 2 and activation is not None
                outputs.append(activation[0](z, "") if hidden and activation is not None else z)
            out = outputs
        return example_loss(lab.settings["loss"], out if len(out) > 1 else out[0], label)

    return loss


def gradcheck(index: int) -> dict[str, Any]:
    """Central differences against the engine's gradients of example `index`'s loss, for every parameter and input."""
    from glassgrad import gradcheck as check

    lab = _current()
    index = int(index)
    inputs = [p.data for p in lab.parameters] + list(lab.inputs[index])
    fn = _example_from(lab, index)
    assert fn(*[Value(x) for x in inputs]).data == lab.example(index).data  # the same loss, rebuilt
    error = check(fn, inputs)
    return {"index": index, "error": error, "checked": len(inputs), "passed": error < 1e-5}


def script(url: str = "") -> str:
    """This run as a Python program that replays every step so far (`export.script`)."""
    return export.script(_current(), url)


def plain_loop(count: int = 200_000) -> float:
    """Seconds for `count` turns of a loop of plain Python arithmetic and calls, no glassgrad: `make bench` runs it
    in the page and natively, and the ratio is how much slower the page's interpreter is by itself (the floor)."""

    def pair(a: float, b: float) -> tuple[float, float]:
        return a * b + 1.0, a - b

    started = time.perf_counter()
    total, items = 0.0, [0.5, -0.25, 1.5]
    for k in range(min(int(count), 10_000_000)):
        x, y = pair(items[k % 3], 0.75)
        total += x if x > y else y
    return time.perf_counter() - started


def download_bytes(assets: Path) -> dict[str, int]:
    """What the page's Python downloads from the site's `assets` folder (assets/playground), as python-worker.js
    loads it: ``counted``, the files it fetches (Python's WebAssembly, its standard library, glassgrad's zip), whose
    bytes the progress line counts, and ``modules``, the JavaScript it imports (Pyodide's loader, Graphviz)."""
    pyodide = assets / "pyodide"
    counted = [pyodide / "pyodide.asm.wasm", pyodide / "python_stdlib.zip", pyodide / "pyodide-lock.json"]
    modules = [pyodide / "pyodide.mjs", pyodide / "pyodide.asm.mjs", assets / "viz" / "viz.js"]
    size = {"counted": counted + [assets / "glassgrad.zip"], "modules": modules}
    return {part: sum(path.stat().st_size for path in files) for part, files in size.items()}


def page_data() -> str:
    """What the build writes into the lab page: the defaults and the default run at step 0, as JSON in a script tag
    (the page draws the points, the controls and the model at once, before its Python is ready)."""
    import json

    from glassgrad_site.lab.settings import DEFAULTS, SUGGESTED

    data = {"defaults": DEFAULTS, "suggested": SUGGESTED, "start": start({}), "file_name": export.FILE_NAME}
    text = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" data-lab="model">{text}</script>'

"""The training lab's Python: one `Lab` that the lab page drives, one call per training step.

The page (docs/javascripts/lab.js) keeps one long-lived Python and calls the module-level functions
below: `start` with the settings, then `step` as often as it likes, `inspect` and `gradcheck` on one
example, `script` for the run as a plain Python program. Every answer is plain data (dicts, lists,
floats, strings), so it crosses to JavaScript as is.

Everything that decides a number is written once, here, and the downloaded script repeats it
operation for operation: the same data points (written out as literals, so no maths library can
move a bit), the same model from the same seed, the same loss summed in the same order, the same
learning rate and update. That is why the script prints the page's losses bit for bit.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

from glassgrad import ParentLink, Value, backward, dependency_safe_order
from glassgrad.data import make_moons
from glassgrad.nn import MLP, weighted_sum

DATASETS = ("moons", "circles", "xor", "spiral")
LOSSES = ("hinge", "cross-entropy", "mse")
DEFAULTS: dict[str, Any] = {
    "data": "moons",
    "size": 100,
    "noise": 0.1,
    "seed": 0,
    "layers": [8, 8],
    "loss": "hinge",
    "l2": 1e-4,
    "rate": 0.5,
    "decay": 0.0,
    "batch": 100,
    "added": [],
    "removed": [],
}
LIMITS = {"size": (4, 400), "noise": (0.0, 0.5), "layer": (1, 32), "layers": (0, 4), "batch": (1, 800)}
VIEWS = {"moons": (-1.6, 2.6, -1.2, 1.7)}  # x from, x to, y from, y to: the plane the page draws
VIEW = (-1.6, 1.6, -1.6, 1.6)
PREFIX = "lab-graph"  # id prefix of the inspected graph's figure


# --- data sets: points in the plane, labels -1 and +1 ------------------------------------------------


def make_points(name: str, size: int, noise: float, seed: int) -> tuple[list[tuple[float, float]], list[int]]:
    """`size` points of the data set `name` with Gaussian `noise`, from a private generator seeded with `seed`."""
    if name == "moons":
        return make_moons(size, noise=noise, seed=seed)
    rng = random.Random(seed)
    samples: list[tuple[float, float, int]] = []
    half = size // 2
    for i in range(size):
        label = -1 if i < half else 1
        j, count = (i, half) if label == -1 else (i - half, size - half)
        if name == "circles":  # an outer ring of radius 1 around an inner one of radius 0.5
            t = 2.0 * math.pi * j / count
            radius = 1.0 if label == -1 else 0.5
            x1, x2 = radius * math.cos(t), radius * math.sin(t)
        elif name == "xor":  # the sign of x1 * x2: two opposite quadrants against the other two
            x1, x2 = rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0)
            if rng.random() < 0.5:
                x1, x2 = -x1, -x2
            if label == -1:
                x1 = -x1
        else:  # spiral: two arms, half a turn apart
            r = 0.05 + 0.95 * j / count
            t = 1.75 * 2.0 * math.pi * j / count + (0.0 if label == -1 else math.pi)
            x1, x2 = r * math.sin(t), r * math.cos(t)
        samples.append((x1 + rng.gauss(0.0, noise), x2 + rng.gauss(0.0, noise), label))
    rng.shuffle(samples)
    return [(x1, x2) for x1, x2, _ in samples], [label for _, _, label in samples]


# --- the recipe: the script repeats these lines exactly ---------------------------------------------


def example_loss(loss: str, score: Value, label: int) -> Value:
    """One example's loss: hinge, cross-entropy (the logistic loss) or squared error, for a label of -1 or +1."""
    if loss == "hinge":
        return (1 - label * score).relu()
    if loss == "cross-entropy":
        return -(label * score).sigmoid().log()
    error = score - label
    return error * error


def float_loss(loss: str, score: float, label: int) -> float:
    """`example_loss` on plain numbers, for the curves (no graph); the same formulas."""
    if loss == "hinge":
        return max(0.0, 1.0 - label * score)
    if loss == "cross-entropy":
        margin = label * score  # log(1 + exp(-margin)) without overflow
        return math.log1p(math.exp(-margin)) if margin > 0 else -margin + math.log1p(math.exp(margin))
    return (score - label) ** 2


def batch_of(step: int, batch: int, count: int) -> list[int]:
    """The examples of step `step` (from 0): the whole set, or `batch` of them in turn, wrapping around."""
    if batch >= count:
        return list(range(count))
    return [(step * batch + i) % count for i in range(batch)]


def learning_rate(step: int, rate: float, decay: float) -> float:
    """The step size of step `step` (from 0): `rate`, divided by ``1 + decay·step``."""
    return rate / (1.0 + decay * step)


# --- settings ----------------------------------------------------------------------------------------


def _number(value: object, low: float, high: float, default: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return min(high, max(low, number)) if math.isfinite(number) else default


def clean_settings(raw: dict[str, Any] | None) -> dict[str, Any]:
    """The settings the page sent, each checked and clamped (anything unreadable falls back to its default)."""
    raw = dict(raw or {})
    settings = dict(DEFAULTS)
    settings["data"] = raw.get("data") if raw.get("data") in DATASETS else DEFAULTS["data"]
    settings["loss"] = raw.get("loss") if raw.get("loss") in LOSSES else DEFAULTS["loss"]
    settings["size"] = int(_number(raw.get("size", DEFAULTS["size"]), *LIMITS["size"], DEFAULTS["size"]))
    settings["noise"] = _number(raw.get("noise", DEFAULTS["noise"]), *LIMITS["noise"], DEFAULTS["noise"])
    settings["seed"] = int(_number(raw.get("seed", 0), 0, 2**31 - 1, 0))
    layers = raw.get("layers", DEFAULTS["layers"])
    if not isinstance(layers, (list, tuple)):
        layers = DEFAULTS["layers"]
    settings["layers"] = [int(_number(width, *LIMITS["layer"], 8)) for width in layers][: int(LIMITS["layers"][1])]
    settings["l2"] = _number(raw.get("l2", DEFAULTS["l2"]), 0.0, 1.0, DEFAULTS["l2"])
    settings["rate"] = _number(raw.get("rate", DEFAULTS["rate"]), 1e-6, 10.0, DEFAULTS["rate"])
    settings["decay"] = _number(raw.get("decay", DEFAULTS["decay"]), 0.0, 1.0, DEFAULTS["decay"])
    settings["batch"] = int(_number(raw.get("batch", DEFAULTS["batch"]), *LIMITS["batch"], DEFAULTS["batch"]))
    added = []
    for point in raw.get("added") or []:
        if isinstance(point, (list, tuple)) and len(point) == 3 and point[2] in (-1, 1):
            x1, x2 = _number(point[0], -10, 10, math.nan), _number(point[1], -10, 10, math.nan)
            if math.isfinite(x1) and math.isfinite(x2):
                added.append((x1, x2, int(point[2])))
    settings["added"] = added[:400]
    removed = raw.get("removed") or []
    settings["removed"] = sorted({int(i) for i in removed if isinstance(i, (int, float)) and 0 <= i < 800})
    return settings


# --- the lab -----------------------------------------------------------------------------------------


class Lab:
    """One training run: the data, the model, the step count and every loss so far."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        self.settings = clean_settings(settings)
        s = self.settings
        points, labels = make_points(s["data"], s["size"], s["noise"], s["seed"])
        removed = set(s["removed"])
        kept = [i for i in range(len(points)) if i not in removed]
        self.points = [points[i] for i in kept] + [(x1, x2) for x1, x2, _ in s["added"]]
        # Where each point came from: its index among the generated points, or -1-k for the k-th added one.
        self.origins = kept + [-1 - k for k in range(len(s["added"]))]
        self.labels = [labels[i] for i in kept] + [label for _, _, label in s["added"]]
        self.test_points, self.test_labels = make_points(s["data"], s["size"], s["noise"], s["seed"] + 1)
        self.model = MLP(2, [*s["layers"], 1], rng=s["seed"])
        self.parameters = self.model.parameters()
        self.steps = 0
        self.losses: list[float] = []
        self.updates = [0.0] * len(self.parameters)

    # The step: build the batch's loss, backward, update (what the script repeats).
    def loss(self, step: int) -> Value:
        s = self.settings
        batch = batch_of(step, s["batch"], len(self.points))
        terms = [example_loss(s["loss"], self.model(self.points[i]), self.labels[i]) for i in batch]  # type: ignore[arg-type]
        total = sum(terms) / len(terms)
        if s["l2"]:
            total = total + s["l2"] * sum(p * p for p in self.parameters)
        return total  # type: ignore[return-value]

    def step(self) -> float:
        loss = self.loss(self.steps)
        backward(loss, record=False)
        rate = learning_rate(self.steps, self.settings["rate"], self.settings["decay"])
        for i, p in enumerate(self.parameters):
            update = -(rate * p.grad)
            p.data -= rate * p.grad
            self.updates[i] = update
        self.steps += 1
        self.losses.append(loss.data)
        return float(loss.data)

    def metrics(self) -> dict[str, float]:
        """Data loss (no L2) and accuracy on the training and the test points, at the current weights."""
        out = {}
        for name, points, labels in (("train", self.points, self.labels), ("test", self.test_points, self.test_labels)):
            scores = [self.model.evaluate(point) for point in points]
            losses = [float_loss(self.settings["loss"], s, y) for s, y in zip(scores, labels)]  # type: ignore[arg-type]
            out[f"{name}_loss"] = sum(losses) / len(losses) if losses else 0.0
            out[f"{name}_accuracy"] = (
                sum((s > 0) == (y > 0) for s, y in zip(scores, labels)) / len(labels) if labels else 0.0  # type: ignore[operator]
            )
        return out

    def weights(self) -> list[float]:
        """Every parameter's number, layer by layer, neuron by neuron: its weights, then its bias."""
        return [p.data for p in self.parameters]

    def state(self) -> dict[str, Any]:
        return {
            "step": self.steps,
            "loss": self.losses[-1] if self.losses else None,
            "weights": self.weights(),
            "grads": [p.grad for p in self.parameters],
            "updates": list(self.updates),
            **self.metrics(),
        }

    # One example's graph, for Inspect.
    def example(self, index: int) -> Value:
        """The loss of training example `index` alone, its inputs as leaves x1 and x2 (no L2, no averaging)."""
        (a, b), label = self.points[index], self.labels[index]
        score = self.model([Value(a, "x1"), Value(b, "x2")])
        loss = example_loss(self.settings["loss"], score, label)  # type: ignore[arg-type]
        _name_loss_nodes(loss, score)  # type: ignore[arg-type]
        loss.label = "loss"
        return loss


LOSS_NAMES = {"×": "y·s", "+": "1−y·s", "−": "1−y·s", "σ": "σ(y·s)", "log": "logσ(y·s)"}
"""Display names of the nodes `example_loss` makes after the score s (the label's leaf is y); names change no number."""


def _name_loss_nodes(loss: Value, score: Value) -> None:
    """Name the nodes between the score and the loss as the page's formulas do (y, y·s, 1−y·s, ...)."""
    stack, seen = [loss], set()
    while stack:
        node = stack.pop()
        if node is score or id(node) in seen:
            continue
        seen.add(id(node))
        links = node.parents
        if not links and not node.label:
            node.label = "y" if any(link.value is score for link in _users(loss, node)) else f"{node.data:g}"
        elif not node.label:
            node.label = "s−y" if node.op == "−" and links[0].value is score else LOSS_NAMES.get(node.op, "")
        stack.extend(link.value for link in links)


def _users(root: Value, leaf: Value) -> list[Any]:
    """The links of the nodes that use `leaf` next to another operand (for the label: y · s)."""
    found: list[Any] = []
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if any(link.value is leaf for link in node.parents):
            found.extend(node.parents)
        stack.extend(link.value for link in node.parents)
    return found


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
    view = VIEWS.get(lab.settings["data"], VIEW)
    return {
        "settings": {**lab.settings, "added": [list(p) for p in lab.settings["added"]]},
        "points": [list(p) for p in lab.points],
        "labels": lab.labels,
        "origins": lab.origins,
        "test_points": [list(p) for p in lab.test_points],
        "test_labels": lab.test_labels,
        "sizes": [2, *lab.settings["layers"], 1],
        "names": [p.label for p in lab.parameters],
        "view": list(view),
        **lab.state(),
    }


def step(count: int = 1, inspected: int = -1, neurons: bool = True) -> dict[str, Any]:
    """`count` training steps (one per call from the page); the new state, with the time the steps took.

    With `inspected` (a training example's index), also that example's graph's new numbers, by element id
    (in the view `neurons` says, as `inspect`).
    """
    lab = _current()
    started = time.perf_counter()
    losses = [lab.step() for _ in range(max(1, int(count)))]
    seconds = time.perf_counter() - started
    out = {**lab.state(), "losses": losses, "seconds": seconds}
    if 0 <= int(inspected) < len(lab.points) and _shape(lab, bool(neurons)) in _figures:
        out["numbers"] = _numbers(_shown(lab, int(inspected), bool(neurons), record=False)[0], PREFIX)
    return out


def scores(points: Sequence[Sequence[float]]) -> list[float]:
    """``model(x).data`` for each point, through the engine's own graph (the page checks its heat map on it)."""
    lab = _current()
    return [lab.model(list(point)).data for point in points]  # type: ignore[union-attr]


def _shape(lab: Lab, neurons: bool) -> str:
    """What decides the shape of every example's graph: the layers, the loss, and the view (neurons or every Value)."""
    return f"{lab.settings['layers']}|{lab.settings['loss']}|{'neurons' if neurons else 'values'}"


def collapse(root: Value, hidden: Collection[Value]) -> Value:
    """A copy of `root`'s graph without the `hidden` values: each is folded into the node that uses it.

    A kept node's links go to the kept values it reaches through hidden ones. Each link's local derivative
    is the sum, over the paths through hidden values, of the products of the local derivatives along the
    path (the chain rule, as forward mode sums paths); a path that ends at a hidden leaf (a weight, a bias)
    is dropped, as that leaf is. A neuron ``h = relu(z)``, ``z = w·x + b``, with `z`, the weights and
    the bias hidden, becomes one node whose link to each input ``x`` holds ``∂h/∂x = relu'(z)·w``. The
    copy is a graph of real `Value`s and `ParentLink`s: `backward` on it gives every kept value the
    gradient the whole graph gives it (up to rounding).
    """
    gone = {id(value) for value in hidden}
    made: dict[int, Value] = {}
    for node in dependency_safe_order(root):
        if id(node) in gone:
            continue
        sums: dict[int, list[Any]] = {}  # a kept parent's id -> [the parent, the sum over paths to it]
        stack = [(link.value, link.local_grad) for link in reversed(node.parents)]
        while stack:
            parent, product = stack.pop()
            if id(parent) not in gone:
                sums.setdefault(id(parent), [parent, 0.0])[1] += product
            else:
                stack.extend((link.value, product * link.local_grad) for link in reversed(parent.parents))
        links = [ParentLink(made[key], total) for key, (_, total) in sums.items()]
        made[id(node)] = Value(node.data, node.label, parents=links, op=node.op)
    return made[id(root)]


def neuron_view(lab: Lab, root: Value) -> Value:
    """`root` (an example's loss) with each neuron as one node: its weights, its bias and its weighted sum folded in.

    A hidden neuron keeps its ReLU's label without the ``.h`` (``L1.n3``) and shows the operation
    ``ReLU∘Σ``; the output neuron (the score s, no ReLU) keeps its label and ``Σ``.
    """
    hidden: list[Value] = list(lab.parameters)
    for node in dependency_safe_order(root):
        if node.op == "ReLU" and node.label.endswith(".h") and node.parents and node.parents[0].value.op == "Σ":
            hidden.append(node.parents[0].value)
    view = collapse(root, hidden)
    for node in dependency_safe_order(view):
        if node.op == "ReLU" and node.label.endswith(".h"):
            node.label, node.op = node.label.removesuffix(".h"), "ReLU∘Σ"
    return view


def _shown(lab: Lab, index: int, neurons: bool, record: bool = True) -> tuple[Value, Any]:
    """Example `index`'s graph as drawn (whole, or a node per neuron), after `backward` on it; and its steps."""
    root = lab.example(index)
    if neurons:
        root = neuron_view(lab, root)
    return root, backward(root, record=record)


def _numbers(root: Value, prefix: str) -> dict[str, str]:
    """Every number the inspected figure shows, by element id: data, grad, local derivative."""
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
    return texts


def worst() -> int:
    """The training example with the largest loss now (the one "Inspect a point" shows)."""
    lab = _current()
    losses = [
        float_loss(lab.settings["loss"], lab.model.evaluate(point), label)  # type: ignore[arg-type]
        for point, label in zip(lab.points, lab.labels)
    ]
    return max(range(len(losses)), key=losses.__getitem__)


def _drawing(lab: Lab, root: Value, neurons: bool) -> str:
    """The figure of an example's graph (any example: they share one shape), laid out once per shape and view."""
    from glassgrad.viz import draw_graph
    from glassgrad_runtime import worker

    key = _shape(lab, neurons)
    if key not in _figures:
        with worker.rendering():  # the Graphviz the worker's `start` received (natively: `dot`)
            _figures[key] = str(draw_graph(_widest(root), id_prefix=PREFIX, max_values=2000, max_links=5000))
    return _figures[key]


WIDEST = -0.888888
"""The number every box and edge label is laid out for: as wide as most numbers ``:g`` writes (9 characters)."""


def _widest(root: Value) -> Value:
    """A copy of `root`'s graph with `WIDEST` for every data, grad and local derivative, to lay the drawing out for
    the numbers later examples and steps write into it (a layout made for short numbers would let longer ones
    spill out of their boxes)."""
    made: dict[int, Value] = {}
    for node in dependency_safe_order(root):
        links = [ParentLink(made[id(link.value)], WIDEST) for link in node.parents]
        copy = made[id(node)] = Value(WIDEST, node.label, parents=links, op=node.op)
        copy.grad = WIDEST
    return made[id(root)]


def prepare(neurons: bool = True) -> dict[str, Any]:
    """Lay out the inspected graph now, while the reader looks (Graphviz takes a second or two); then Inspect is quick."""
    lab = _current()
    started = time.perf_counter()
    _drawing(lab, _shown(lab, 0, neurons, record=False)[0], neurons)  # the layout reads no number
    return {"seconds": time.perf_counter() - started}


def inspect(index: int, draw: bool = False, neurons: bool = True) -> dict[str, Any]:
    """Training example `index`'s loss graph (a negative index: the `worst` example), after its own backward pass.

    With `neurons` (the default), each neuron is one node (`neuron_view`); without, every Value of the
    graph is drawn, the parameters too. The drawing (Graphviz's layout, the slow part) is made once per
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
    neurons = bool(neurons)
    root, steps = _shown(lab, index, neurons)
    fresh = _shape(lab, neurons) not in _figures
    html = _drawing(lab, root, neurons) if draw or fresh else None
    player = animate_backward(
        root, steps, graph=GraphFigure("", GraphIds(root, PREFIX)), title="Replay this example's backward pass"
    )
    (a, b), label = lab.points[index], lab.labels[index]
    return {
        "index": index,
        "point": [a, b],
        "label": label,
        "loss": root.data,
        "neurons": neurons,
        "values": len(GraphIds(root, PREFIX).order),
        "links": len(steps),
        "html": html,
        "player": str(player),
        "numbers": _numbers(root, PREFIX),
        "seconds": time.perf_counter() - started,
    }


def _example_from(lab: Lab, index: int) -> Callable[..., Value]:
    """The example's loss as a function of every parameter and its two inputs, for `gradcheck`."""
    sizes = [2, *lab.settings["layers"], 1]
    label = lab.labels[index]

    def loss(*leaves: Value) -> Value:
        params, out = iter(leaves[:-2]), list(leaves[-2:])
        for layer, (fan_in, fan_out) in enumerate(zip(sizes, sizes[1:])):
            outputs = []
            for _ in range(fan_out):
                weights = [next(params) for _ in range(fan_in)]
                z = weighted_sum(weights, out, next(params))
                outputs.append(z.relu() if layer < len(sizes) - 2 else z)
            out = outputs
        return example_loss(lab.settings["loss"], out[0], label)

    return loss


def gradcheck(index: int) -> dict[str, Any]:
    """Central differences against the engine's gradients of example `index`'s loss, for every parameter and input."""
    from glassgrad import gradcheck as check

    lab = _current()
    index = int(index)
    inputs = [p.data for p in lab.parameters] + list(lab.points[index])
    fn = _example_from(lab, index)
    assert fn(*[Value(x) for x in inputs]).data == lab.example(index).data  # the same loss, rebuilt
    error = check(fn, inputs)
    return {"index": index, "error": error, "checked": len(inputs), "passed": error < 1e-5}


# --- the run as a plain Python program ---------------------------------------------------------------


def _source(function: Callable[..., Any]) -> str:
    import inspect as _inspect

    return _inspect.getsource(function)


def script(url: str = "") -> str:
    """This run as a Python program: it replays every step so far and prints ``step k loss X`` for each."""
    lab = _current()
    s = lab.settings
    points = ",\n    ".join(f"({a!r}, {b!r})" for a, b in lab.points)
    where = f" ({url})" if url else ""
    return f'''"""A run of glassgrad's training lab{where}, replayed step by step.

{len(lab.points)} training points ({s["data"]}, noise {s["noise"]:g}, seed {s["seed"]}{", with your edits" if s["added"] or s["removed"] else ""}),
MLP(2, {[*s["layers"], 1]}), {s["loss"]} loss + {s["l2"]:g}·L2, learning rate {s["rate"]:g} / (1 + {s["decay"]:g}·step),
batches of {min(s["batch"], len(lab.points))}. It prints the loss of every step, the numbers the page showed, to the last bit.
Run it with glassgrad installed (pip install glassgrad): python {"lab_run.py"}
"""

from glassgrad import Value, backward
from glassgrad.nn import MLP

STEPS = {lab.steps}
LOSS = {s["loss"]!r}
L2 = {s["l2"]!r}
RATE = {s["rate"]!r}
DECAY = {s["decay"]!r}
BATCH = {s["batch"]!r}

# The training points, written out exactly (x1, x2), and their labels.
POINTS = [
    {points},
]
LABELS = {lab.labels!r}


{_source(example_loss)}

{_source(batch_of)}

{_source(learning_rate)}

model = MLP(2, {[*s["layers"], 1]!r}, rng={s["seed"]!r})
parameters = model.parameters()
for step in range(STEPS):
    batch = batch_of(step, BATCH, len(POINTS))
    terms = [example_loss(LOSS, model(POINTS[i]), LABELS[i]) for i in batch]
    loss = sum(terms) / len(terms)
    if L2:
        loss = loss + L2 * sum(p * p for p in parameters)
    backward(loss, record=False)
    rate = learning_rate(step, RATE, DECAY)
    for p in parameters:
        p.data -= rate * p.grad
    print(f"step {{step + 1}} loss {{loss.data!r}}")
'''

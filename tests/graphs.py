"""Graphs and traces several test files check: the tutorial's first backward trace (the engine's and chapter 2's),
and the graphs the step-through players are replayed on (backward, order and forward mode).

A module of its own, not a test file: pytest imports test files under names of its own (``--import-mode=importlib``),
so a test file imported by another would be loaded twice."""

from __future__ import annotations

from glassgrad import Value
from glassgrad.examples import linear_loss, sigmoid_neuron

LINEAR_STEPS = [
    # output, parent, upstream, local, contribution, before, after
    ("L", "e", 1, -6, -6, 0, -6),
    ("e", "a", -6, 1, -6, 0, -6),
    ("e", "y", -6, -1, 6, 0, 6),
    ("a", "m", -6, 1, -6, 0, -6),
    ("a", "b", -6, 1, -6, 0, -6),
    ("m", "w", -6, 3, -18, 0, -18),
    ("m", "x", -6, 2, -12, 0, -12),
]
"""The tutorial's seven-row backward trace of the first graph."""


def rows(steps) -> list[tuple]:
    """Each step as (output label, parent label, upstream, local, contribution, before, after)."""
    return [(s.output.label, s.parent.label, s.upstream, s.local, s.contribution, s.before, s.after) for s in steps]


def shared_graph() -> Value:
    """A graph where one value feeds two operations and one operation uses a value twice (w * w)."""
    w, x = Value(2.0, "w"), Value(3.0, "x")
    r = w * w
    r.label = "r"
    a = r + x
    a.label = "a"
    L = a * r
    L.label = "L"
    return L


GRAPHS = {
    "linear": lambda: linear_loss()["L"],
    "fused": lambda: sigmoid_neuron(True)["L"],
    "atomic": lambda: sigmoid_neuron(False)["L"],
    "shared": shared_graph,
}


def replay(data: dict) -> list[tuple[dict[str, set[str]], dict[str, str]]]:
    """What the script shows at each frame: the classes it puts on each id, and the HTML of each id so far."""
    texts: dict[str, str] = {}
    states = []
    for frame in data["frames"]:
        texts = {**texts, **frame["texts"]}
        states.append(({i: set(classes.split()) for i, classes in frame["marks"].items()}, texts))
    return states

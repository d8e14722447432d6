"""The tutorial's two graphs, built from `Value`s, with the nodes named as in the text."""

from __future__ import annotations

from glassgrad.ops import add, multiply, negate, exponential, plus_one, reciprocal, sigmoid, square, subtract
from glassgrad.value import Value

LINEAR_INPUTS = {"w": 2.0, "x": 3.0, "b": 1.0, "y": 10.0}
"""Leaf values of the first graph: m = w·x, a = m + b, e = a - y, L = e²."""

SIGMOID_INPUTS = {"w": 0.5, "x": 2.0, "b": -1.0, "y": 1.0}
"""Leaf values of the neuron: m = w·x, z = m + b, s = σ(z), e = s - y, L = e²."""


def linear_loss(**inputs: float) -> dict[str, Value]:
    """Build m = w·x, a = m + b, e = a - y, L = e²; return ``{"w": ..., ..., "L": ...}``.

    Keyword arguments override `LINEAR_INPUTS` (for example ``linear_loss(w=4)``).

    >>> nodes = linear_loss()
    >>> nodes["L"].data
    9.0
    """
    leaves = {**LINEAR_INPUTS, **inputs}
    nodes = {name: Value(leaves[name], name) for name in ("w", "x", "b", "y")}
    nodes["m"] = multiply(nodes["w"], nodes["x"], "m")
    nodes["a"] = add(nodes["m"], nodes["b"], "a")
    nodes["e"] = subtract(nodes["a"], nodes["y"], "e")
    nodes["L"] = square(nodes["e"], "L")
    return {name: nodes[name] for name in ("w", "x", "m", "b", "a", "y", "e", "L")}


def sigmoid_neuron(fused: bool, **inputs: float) -> dict[str, Value]:
    """Build the neuron L = (σ(w·x + b) - y)² with a fused or an atomic sigmoid.

    Fused: one node ``s = sigmoid(z)``. Atomic: ``n = -z``, ``q = exp(n)``, ``d = 1 + q``,
    ``s = 1/d``. Keyword arguments override `SIGMOID_INPUTS`. Returns the named nodes in
    dependency-safe order.
    """
    leaves = {**SIGMOID_INPUTS, **inputs}
    nodes = {name: Value(leaves[name], name) for name in ("w", "x", "b", "y")}
    nodes["m"] = multiply(nodes["w"], nodes["x"], "m")
    nodes["z"] = add(nodes["m"], nodes["b"], "z")
    if fused:
        nodes["s"] = sigmoid(nodes["z"], "s")
        names = ("w", "x", "m", "b", "z", "s", "y", "e", "L")
    else:
        nodes["n"] = negate(nodes["z"], "n")
        nodes["q"] = exponential(nodes["n"], "q")
        nodes["d"] = plus_one(nodes["q"], "d")
        nodes["s"] = reciprocal(nodes["d"], "s")
        names = ("w", "x", "m", "b", "z", "n", "q", "d", "s", "y", "e", "L")
    nodes["e"] = subtract(nodes["s"], nodes["y"], "e")
    nodes["L"] = square(nodes["e"], "L")
    return {name: nodes[name] for name in names}

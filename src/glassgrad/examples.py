"""The tutorial's two graphs, built from `Value`s, with the nodes named as in the text.

Each builder takes the engine to build with: `glassgrad` (the default) or `glassgrad.scratch`,
chapter 2's engine. Both modules offer the same `Value` and operations.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

LINEAR_INPUTS = {"w": 2.0, "x": 3.0, "b": 1.0, "y": 10.0}
"""Leaf values of the first graph: m = w·x, a = m + b, e = a - y, L = e²."""

SIGMOID_INPUTS = {"w": 0.5, "x": 2.0, "b": -1.0, "y": 1.0}
"""Leaf values of the neuron: m = w·x, z = m + b, s = σ(z), e = s - y, L = e²."""


def _engine(engine: ModuleType | None) -> ModuleType:
    if engine is None:
        import glassgrad

        return glassgrad
    return engine


def linear_loss(engine: ModuleType | None = None, **inputs: float) -> dict[str, Any]:
    """Build m = w·x, a = m + b, e = a - y, L = e²; return ``{"w": ..., ..., "L": ...}``.

    `engine` is the module to build with (default `glassgrad`). Keyword arguments override
    `LINEAR_INPUTS` (for example ``linear_loss(w=4)``).

    Examples:
        >>> nodes = linear_loss()
        >>> nodes["L"].data
        9.0
    """
    g = _engine(engine)
    leaves = {**LINEAR_INPUTS, **inputs}
    nodes = {name: g.Value(leaves[name], name) for name in ("w", "x", "b", "y")}
    nodes["m"] = g.multiply(nodes["w"], nodes["x"], "m")
    nodes["a"] = g.add(nodes["m"], nodes["b"], "a")
    nodes["e"] = g.subtract(nodes["a"], nodes["y"], "e")
    nodes["L"] = g.square(nodes["e"], "L")
    return {name: nodes[name] for name in ("w", "x", "m", "b", "a", "y", "e", "L")}


def sigmoid_neuron(fused: bool, engine: ModuleType | None = None, **inputs: float) -> dict[str, Any]:
    """Build the neuron L = (σ(w·x + b) - y)² with a fused or an atomic sigmoid.

    Fused: one node ``s = sigmoid(z)``. Atomic: ``n = -z``, ``q = exp(n)``, ``d = 1 + q``,
    ``s = 1/d``. `engine` as for `linear_loss`. Keyword arguments override `SIGMOID_INPUTS`. Returns the named nodes in
    dependency-safe order.
    """
    g = _engine(engine)
    leaves = {**SIGMOID_INPUTS, **inputs}
    nodes = {name: g.Value(leaves[name], name) for name in ("w", "x", "b", "y")}
    nodes["m"] = g.multiply(nodes["w"], nodes["x"], "m")
    nodes["z"] = g.add(nodes["m"], nodes["b"], "z")
    if fused:
        nodes["s"] = g.sigmoid(nodes["z"], "s")
        names: tuple[str, ...] = ("w", "x", "m", "b", "z", "s", "y", "e", "L")
    else:
        nodes["n"] = g.negate(nodes["z"], "n")
        nodes["q"] = g.exponential(nodes["n"], "q")
        nodes["d"] = g.plus_one(nodes["q"], "d")
        nodes["s"] = g.reciprocal(nodes["d"], "s")
        names = ("w", "x", "m", "b", "z", "n", "q", "d", "s", "y", "e", "L")
    nodes["e"] = g.subtract(nodes["s"], nodes["y"], "e")
    nodes["L"] = g.square(nodes["e"], "L")
    return {name: nodes[name] for name in names}

"""The tutorial's graphs built in PyTorch (float64), and a node-by-node comparison with glassgrad.

This module imports torch; the engine core never does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import torch

from glassgrad.examples import LINEAR_INPUTS, SIGMOID_INPUTS
from glassgrad.value import Value

Reference = dict[str, tuple[float, float]]


class MismatchError(AssertionError):
    """Raised by `compare` with one line for every node whose value or grad disagrees."""


def _leaves(defaults: Mapping[str, float], overrides: Mapping[str, float]) -> dict[str, torch.Tensor]:
    values = {**defaults, **overrides}
    return {name: torch.tensor(float(values[name]), dtype=torch.float64, requires_grad=True) for name in defaults}


def _read(nodes: Mapping[str, torch.Tensor]) -> Reference:
    reference: Reference = {}
    for name, node in nodes.items():
        if node.grad is None:
            raise ValueError(f"{name!r} has no gradient: run backward on the loss first")
        reference[name] = (node.item(), node.grad.item())
    return reference


def linear_tensors(**inputs: float) -> dict[str, torch.Tensor]:
    """The tensors of m = w·x, a = m + b, e = a - y, L = e² (float64), by node name, each keeping its grad.

    Keyword arguments (`inputs`) override `LINEAR_INPUTS`, as in `glassgrad.examples.linear_loss`.
    """
    t = _leaves(LINEAR_INPUTS, inputs)
    m = t["w"] * t["x"]
    a = m + t["b"]
    e = a - t["y"]
    L = e**2
    for node in (m, a, e, L):
        node.retain_grad()
    return {"w": t["w"], "x": t["x"], "m": m, "b": t["b"], "a": a, "y": t["y"], "e": e, "L": L}


def linear_loss(**inputs: float) -> Reference:
    """PyTorch's values and grads for m = w·x, a = m + b, e = a - y, L = e², by node name.

    Keyword arguments (`inputs`) override `LINEAR_INPUTS`, as in `glassgrad.examples.linear_loss`.
    """
    nodes = linear_tensors(**inputs)
    nodes["L"].backward()
    return _read(nodes)


def neuron_tensors(fused: bool, **inputs: float) -> dict[str, torch.Tensor]:
    """The tensors of L = (σ(w·x + b) - y)² (float64), `fused` (`torch.sigmoid`) or atomic (-z, exp, 1 + q,
    reciprocal), by node name, each keeping its grad.

    Keyword arguments (`inputs`) override `SIGMOID_INPUTS`, as in `glassgrad.examples.sigmoid_neuron`.
    """
    t = _leaves(SIGMOID_INPUTS, inputs)
    m = t["w"] * t["x"]
    z = m + t["b"]
    named = {"w": t["w"], "x": t["x"], "m": m, "b": t["b"], "z": z}
    if fused:
        s = torch.sigmoid(z)
    else:
        n = -z
        q = torch.exp(n)
        d = 1 + q
        s = torch.reciprocal(d)
        named.update(n=n, q=q, d=d)
    e = s - t["y"]
    L = e**2
    named.update(s=s, y=t["y"], e=e, L=L)
    for node in named.values():
        if not node.is_leaf:
            node.retain_grad()
    return named


def sigmoid_neuron(fused: bool, **inputs: float) -> Reference:
    """PyTorch's values and grads for L = (σ(w·x + b) - y)², `fused` (`torch.sigmoid`) or atomic.

    Keyword arguments (`inputs`) override `SIGMOID_INPUTS`, as in `glassgrad.examples.sigmoid_neuron`.
    """
    nodes = neuron_tensors(fused, **inputs)
    nodes["L"].backward()
    return _read(nodes)


def compare(
    nodes: Mapping[str, Value], reference: Reference, *, rel_tol: float = 1e-12, abs_tol: float = 1e-12
) -> None:
    """Check every named glassgrad node against PyTorch's (value, grad); raise one error listing all mismatches.

    Args:
        nodes: glassgrad `Value`s by name, after backward.
        reference: ``{name: (value, grad)}`` from PyTorch (`linear_loss`, `sigmoid_neuron`).
        rel_tol: relative tolerance of `math.isclose`.
        abs_tol: absolute tolerance of `math.isclose` (for numbers near zero).

    Raises:
        MismatchError: naming each node whose value or grad differs (beyond the tolerances),
            or that is missing on either side.
    """
    problems = [f"{name}: missing in glassgrad" for name in reference if name not in nodes]
    problems += [f"{name}: missing in PyTorch" for name in nodes if name not in reference]
    for name, node in nodes.items():
        if name not in reference:
            continue
        for field, mine, theirs in (("value", node.data, reference[name][0]), ("grad", node.grad, reference[name][1])):
            same = math.isclose(mine, theirs, rel_tol=rel_tol, abs_tol=abs_tol) or (mine != mine and theirs != theirs)
            if not same:
                problems.append(f"{name}.{field}: glassgrad {mine!r} != PyTorch {theirs!r}")
    if problems:
        raise MismatchError("glassgrad and PyTorch disagree:\n  " + "\n  ".join(problems))

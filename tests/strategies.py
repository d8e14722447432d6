"""Shared test helpers: hypothesis strategies for random expression DAGs, and their PyTorch twins.

A `Program` is a recipe, not a graph: leaf numbers plus a list of `Step`s, each applying one
operation to earlier nodes (or plain numbers). `build_glassgrad` and `build_torch` turn the same
recipe into a glassgrad graph and a PyTorch float64 graph, so every node can be compared.
Operands are drawn from *all* earlier nodes, so shared sub-expressions, reused non-leaf nodes
and ``u op u`` appear naturally; every sink is summed into one scalar root so that every node
receives a gradient.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

import glassgrad as gg
from glassgrad import Value
from glassgrad.nn import weighted_sum

Operand = int | float
"""An index of an earlier node (`int`) or a plain-number constant (`float`)."""


@dataclass(frozen=True)
class Step:
    """One operation of a `Program`: `op` (a key of `BINARY` or `UNARY`) applied to `operands`.

    `exponent` is only used by the power ops.
    """

    op: str
    operands: tuple[Operand, ...]
    exponent: float | None = None


@dataclass(frozen=True)
class Program:
    """A random expression DAG as data: leaf numbers, then steps that each create one node."""

    leaves: tuple[float, ...]
    steps: tuple[Step, ...]

    def __repr__(self) -> str:  # readable in hypothesis' falsifying examples
        lines = [f"v{i} = leaf {x!r}" for i, x in enumerate(self.leaves)]
        for k, step in enumerate(self.steps, start=len(self.leaves)):
            args = ", ".join(f"v{a}" if isinstance(a, int) else repr(a) for a in step.operands)
            power = f" ** {step.exponent!r}" if step.exponent is not None else ""
            lines.append(f"v{k} = {step.op}({args}){power}")
        return "Program(\n  " + "\n  ".join(lines) + "\n)"


# Each op twice: the glassgrad spelling (function or operator) and the PyTorch spelling.
# A constant operand reaches both sides as a plain Python float.
BINARY: dict[str, tuple[Callable, Callable]] = {
    "add": (gg.add, operator.add),
    "subtract": (gg.subtract, operator.sub),
    "multiply": (gg.multiply, operator.mul),
    "divide": (gg.divide, operator.truediv),
    "+": (operator.add, operator.add),
    "-": (operator.sub, operator.sub),
    "*": (operator.mul, operator.mul),
    "/": (operator.truediv, operator.truediv),
}
"""Two-operand ops; either operand (not both) may be a plain number."""


def _torch_unary() -> dict[str, Callable]:
    """PyTorch twins of `UNARY` (torch is imported only when a torch graph is built)."""
    import torch

    return {
        "negate": operator.neg,
        "-u": operator.neg,
        "exponential": torch.exp,
        ".exp": torch.exp,
        "plus_one": lambda t: 1.0 + t,
        "reciprocal": torch.reciprocal,
        "sigmoid": torch.sigmoid,
        ".sigmoid": torch.sigmoid,
        "tanh": torch.tanh,
        ".tanh": torch.tanh,
        "relu": torch.relu,
        ".relu": torch.relu,
        "log": torch.log,
        ".log": torch.log,
        "square": torch.square,
    }


UNARY: dict[str, Callable[[Value], Value]] = {
    "negate": gg.negate,
    "-u": operator.neg,
    "exponential": gg.exponential,
    ".exp": Value.exp,
    "plus_one": gg.plus_one,
    "reciprocal": gg.reciprocal,
    "sigmoid": gg.sigmoid,
    ".sigmoid": Value.sigmoid,
    "tanh": gg.tanh,
    ".tanh": Value.tanh,
    "relu": gg.relu,
    ".relu": Value.relu,
    "log": gg.log,
    ".log": Value.log,
    "square": gg.square,
}
"""One-operand ops (function and method spellings), without the power ops."""

POWERS = ("power", "**")
"""`power(u, p)` and `u ** p`, with `p` from `EXPONENTS`."""

EXPONENTS = (0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, 1.5, -0.5, 2.5, 1.0 / 3.0)
"""Plain-number exponents: integers (any base) and fractions (positive bases only)."""

FUSED = "weighted_sum"
"""`glassgrad.nn.weighted_sum(weights, inputs, bias)`: one node with a link per weight, per node input and the bias;
its operands are the weights, then the inputs (nodes or constants), then the bias."""

ALL_OPS = tuple(BINARY) + tuple(UNARY) + POWERS + (FUSED,)

BOUND = 1e3
"""Largest |value| and |local derivative| a generated node may have: keeps the DAG well-conditioned."""

MARGIN = 0.25
"""Smallest |denominator|, log argument and fractional-power base: a step away from every pole."""


def apply_glassgrad(step: Step, nodes: Sequence[Value]) -> Value:
    """Apply `step` to glassgrad `nodes` (constants stay plain numbers, so the operators' reflected forms run)."""
    args = [nodes[a] if isinstance(a, int) else a for a in step.operands]
    if step.op == FUSED:
        k = len(args) // 2
        return weighted_sum(args[:k], args[k:-1], args[-1])
    if step.op == "power":
        return gg.power(args[0], step.exponent)
    if step.op == "**":
        return args[0] ** step.exponent
    if step.op in BINARY:
        return BINARY[step.op][0](*args)
    return UNARY[step.op](args[0])


def apply_torch(step: Step, nodes: Sequence, unary: dict[str, Callable]):
    """Apply `step` to PyTorch tensors `nodes` (the twin of `apply_glassgrad`)."""
    args = [nodes[a] if isinstance(a, int) else a for a in step.operands]
    if step.op == FUSED:  # the bias first, then each product: weighted_sum's order of additions
        k = len(args) // 2
        total = args[-1]
        for weight, x in zip(args[:k], args[k:-1]):
            total = total + weight * x
        return total
    if step.op in POWERS:
        return args[0] ** step.exponent
    if step.op in BINARY:
        return BINARY[step.op][1](*args)
    return unary[step.op](args[0])


def in_domain(step: Step, nodes: Sequence[Value], out: Value) -> bool:
    """Whether `out = step(nodes)` stays away from poles, overflow and kinks (see `BOUND`, `MARGIN`)."""
    values = [nodes[a].data if isinstance(a, int) else a for a in step.operands]
    if not all(math.isfinite(x) and abs(x) <= BOUND for x in [out.data] + [link.local_grad for link in out.parents]):
        return False
    op = step.op
    if op in ("divide", "/"):
        return abs(values[1]) >= MARGIN
    if op == "reciprocal":
        return abs(values[0]) >= MARGIN
    if op in ("log", ".log"):
        return values[0] >= MARGIN
    if op in ("exponential", ".exp"):
        return values[0] <= 6.0
    if op in ("tanh", ".tanh", "sigmoid", ".sigmoid"):
        return abs(values[0]) <= 6.0  # saturated: 1 - t² cancels, and a one-ulp change of t moves it a lot
    if op in ("relu", ".relu"):
        return (
            abs(values[0]) >= 1e-2
        )  # near the kink a rounding difference or a central-difference step flips the slope
    if op in POWERS:
        p = step.exponent
        if not p.is_integer():
            return values[0] >= MARGIN
        return p >= 0 or abs(values[0]) >= MARGIN
    return True


finite = st.floats(-3.0, 3.0, allow_nan=False, allow_subnormal=False)
"""Leaf numbers and constants."""


@st.composite
def programs(draw: st.DrawFn, max_leaves: int = 4, max_steps: int = 12, ops: Sequence[str] = ALL_OPS) -> Program:
    """Random expression DAGs over `ops`, every step kept inside its op's domain.

    A step that would leave the domain is replaced by ``negate`` of its first node operand
    (always defined), so no example is thrown away.
    """
    leaves = tuple(draw(st.lists(finite, min_size=1, max_size=max_leaves)))
    nodes = [Value(x) for x in leaves]
    steps: list[Step] = []
    for _ in range(draw(st.integers(1, max_steps))):
        op = draw(st.sampled_from(ops))
        node = st.integers(0, len(nodes) - 1)
        first = draw(node)
        exponent = None
        if op in BINARY:
            # 0: both operands are nodes; 1: a constant on the right; 2: a constant on the left.
            form = draw(st.integers(0, 2))
            if form == 0:
                operands: tuple[Operand, ...] = (first, draw(node))
            elif form == 1:
                operands = (first, draw(finite))
            else:
                operands = (draw(finite), first)
        elif op == FUSED:  # 1 to 3 weights, each input a node or a constant; nodes may repeat
            k = draw(st.integers(1, 3))
            weights = (first, *(draw(node) for _ in range(k - 1)))
            inputs = tuple(draw(st.one_of(node, finite)) for _ in range(k))
            operands = (*weights, *inputs, draw(node))
        else:
            operands = (first,)
            if op in POWERS:
                exponent = draw(st.sampled_from(EXPONENTS))
        step = Step(op, operands, exponent)
        out = apply_glassgrad(step, nodes)
        if not in_domain(step, nodes, out):
            step = Step("negate", (first,))
            out = apply_glassgrad(step, nodes)
        steps.append(step)
        nodes.append(out)
    return Program(leaves, tuple(steps))


def _sinks(program: Program) -> list[int]:
    """Indices of nodes no step uses: summing them gives a root that depends on every node."""
    used = {a for step in program.steps for a in step.operands if isinstance(a, int)}
    return [i for i in range(len(program.leaves) + len(program.steps)) if i not in used]


def _sum_of_sinks(program: Program, nodes: list):
    """The root: the sum of every node nothing else uses (Values or tensors alike), so all nodes get a gradient."""
    sinks = [nodes[i] for i in _sinks(program)]
    root = sinks[0]
    for sink in sinks[1:]:
        root = root + sink
    return root


def build_glassgrad(program: Program, leaves: Sequence[Value] | None = None) -> tuple[list[Value], Value]:
    """The glassgrad graph of `program`: its nodes (leaves first, labelled ``v0, v1, ...``) and the root."""
    nodes = list(leaves) if leaves is not None else [Value(x, f"v{i}") for i, x in enumerate(program.leaves)]
    for k, step in enumerate(program.steps, start=len(nodes)):
        out = apply_glassgrad(step, nodes)
        out.label = f"v{k}"
        nodes.append(out)
    return nodes, _sum_of_sinks(program, nodes)


def build_torch(program: Program) -> tuple[list, object]:
    """The PyTorch float64 twin of `build_glassgrad`: leaves require grad, intermediates retain it."""
    import torch

    unary = _torch_unary()
    nodes = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in program.leaves]
    for step in program.steps:
        out = apply_torch(step, nodes, unary)
        out.retain_grad()
        nodes.append(out)
    return nodes, _sum_of_sinks(program, nodes)


def torch_function(program: Program) -> Callable:
    """`program` as a PyTorch function of its leaves (float64 tensors) returning the root, for `torch.func`."""
    unary = _torch_unary()

    def root_of(*leaves):
        nodes = list(leaves)
        for step in program.steps:
            nodes.append(apply_torch(step, nodes, unary))
        return _sum_of_sinks(program, nodes)

    return root_of


def error_scales(nodes: Sequence[Value], root: Value) -> tuple[dict[int, float], dict[int, float]]:
    """Per node (keyed by ``id``), how much rounding each of its value and its gradient can carry.

    The forward scale is |value| plus the sum of |local derivative| × scale over its parents;
    the backward scale is the gradient of the same graph with every local derivative replaced
    by its absolute value. Two correct float64 engines can differ by a few ulps of these scales
    (different exp/tanh libraries, different summation order), but not by 1e-9 of them.
    """
    order = gg.dependency_safe_order(root)
    forward: dict[int, float] = {}
    for node in order:
        forward[id(node)] = abs(node.data) + sum(
            abs(link.local_grad) * forward[id(link.value)] for link in node.parents
        )
    backward: dict[int, float] = {id(node): 0.0 for node in order}
    backward[id(root)] = 1.0
    for node in reversed(order):
        for link in node.parents:
            backward[id(link.value)] += backward[id(node)] * abs(link.local_grad)
    return forward, backward

"""The engine chapter 2 writes: plain Python, one idea per function, top to bottom.

A `Value` keeps its number, its gradient and one `ParentLink` per operand. Each
operation computes its number and saves, for every operand, the local derivative
along that edge. `backward` finds a dependency-safe order, then multiplies and adds
along every saved link.

`glassgrad` itself is this same engine made fast; both give the same numbers,
orders and steps.

Examples:
    >>> w, x = Value(2.0, "w"), Value(3.0, "x")
    >>> m = multiply(w, x, "m")
    >>> steps = backward(m)
    >>> w.grad, x.grad
    (3.0, 2.0)
"""

# The `--8<--` comments mark the parts that chapters 2 and 3 list and run.

import math

# --8<-- [start:data]
from typing import NamedTuple


class ParentLink:
    """One saved edge from an output back to one of its operands."""

    def __init__(self, value, local_grad):
        self.value = value  # the operand (the parent Value)
        self.local_grad = float(local_grad)  # d(output)/d(operand)

    def __repr__(self):
        name, local = self.value.label, self.local_grad
        return f"ParentLink({name!r}, local_grad={local:g})"


class Value:
    """A number, its loss gradient, and links to the operands that made it."""

    def __init__(self, data, label="", parents=(), op=""):
        self.data = float(data)  # the forward number
        self.grad = 0.0  # dL/d(this value), filled in by backward
        self.label = label  # display only: a name such as "w"
        self.parents = tuple(parents)  # one ParentLink per direct operand
        self.op = op  # display only: a symbol such as "×"

    def __repr__(self):
        label, data, grad = self.label, self.data, self.grad
        return f"Value({label!r}, data={data:g}, grad={grad:g})"
# --8<-- [end:data]


# Chapter 2's operations: each one builds its ParentLinks in plain sight.
# --8<-- [start:ops]
def multiply(u, v, label=""):
    return Value(u.data * v.data, label,
                 parents=(ParentLink(u, v.data),    # d(uv)/du = v
                          ParentLink(v, u.data)),   # d(uv)/dv = u
                 op="×")


def add(u, v, label=""):
    return Value(u.data + v.data, label,
                 parents=(ParentLink(u, 1.0),
                          ParentLink(v, 1.0)),
                 op="+")


def subtract(u, v, label=""):
    return Value(u.data - v.data, label,
                 parents=(ParentLink(u, 1.0),
                          ParentLink(v, -1.0)),
                 op="−")


def square(u, label=""):
    return Value(u.data * u.data, label,
                 parents=(ParentLink(u, 2.0 * u.data),),   # d(u²)/du = 2u
                 op="²")
# --8<-- [end:ops]


# Chapter 3's operations: the four atomic steps of a sigmoid, and the fused one.
# --8<-- [start:sigmoid_ops]
def negate(u, label=""):
    return Value(-u.data, label,
                 parents=(ParentLink(u, -1.0),), op="−")


def exponential(u, label=""):
    out = math.exp(u.data)
    return Value(out, label,
                 parents=(ParentLink(u, out),), op="exp")   # d(e^u)/du = e^u


def plus_one(u, label=""):
    return Value(1.0 + u.data, label,
                 parents=(ParentLink(u, 1.0),), op="+1")


def reciprocal(u, label=""):
    out = 1.0 / u.data
    return Value(out, label,
                 parents=(ParentLink(u, -(out * out)),), op="1/x")   # -1/u²


def sigmoid(u, label=""):
    # Two forms of the same formula, so that exp never overflows.
    if u.data >= 0:
        s = 1.0 / (1.0 + math.exp(-u.data))
    else:
        exp_u = math.exp(u.data)
        s = exp_u / (1.0 + exp_u)
    return Value(s, label,
                 parents=(ParentLink(u, s * (1.0 - s)),), op="σ")   # s(1 - s)
# --8<-- [end:sigmoid_ops]


# Backward: first a dependency-safe order, then one chain-rule step per link.

# --8<-- [start:order]
def dependency_safe_order(root):
    """Every Value reachable from `root`, each one after all of its parents."""
    safe_order = []
    seen = set()

    def append_after_parents(node):
        if id(node) in seen:  # reached again by another path: already placed
            return
        seen.add(id(node))
        for link in node.parents:
            append_after_parents(link.value)
        safe_order.append(node)  # all of node's parents are in the list by now

    append_after_parents(root)
    return safe_order
# --8<-- [end:order]


# --8<-- [start:backward]
class BackwardStep(NamedTuple):
    """One chain-rule update along one saved link, for display."""

    output: Value
    parent: Value
    upstream: float  # output.grad
    local: float  # link.local_grad
    contribution: float  # upstream × local, added to parent.grad
    before: float  # parent.grad before the update
    after: float  # parent.grad after it


def backward(root):
    """Fill in .grad of every Value `root` depends on; one step per link."""
    safe_order = dependency_safe_order(root)

    for node in safe_order:  # clear old gradients,
        node.grad = 0.0
    root.grad = 1.0  # then seed: dL/dL = 1

    steps = []
    for output in reversed(safe_order):  # output.grad is complete now
        for link in output.parents:
            parent = link.value
            upstream = output.grad
            local = link.local_grad
            contribution = upstream * local
            before = parent.grad
            parent.grad += contribution
            steps.append(BackwardStep(output, parent, upstream, local,
                                      contribution, before, parent.grad))
    return steps
# --8<-- [end:backward]

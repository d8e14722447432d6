import math
import random

import glassgrad
import glassgrad.scratch as scratch

UNARY = ["square", "negate", "exponential", "plus_one", "reciprocal", "sigmoid"]
BINARY = ["multiply", "add", "subtract"]


def random_recipe(rng):
    """A random graph as data: leaf numbers, then steps that each apply one op to earlier nodes."""
    leaves = [round(rng.uniform(-2, 2), 3) for _ in range(rng.randint(1, 4))]
    steps = []
    for _ in range(rng.randint(1, 12)):
        known = len(leaves) + len(steps)
        if rng.random() < 0.5:
            steps.append((rng.choice(UNARY), rng.randrange(known)))
        else:  # operands drawn from every earlier node, so values get reused (and u op u happens)
            steps.append((rng.choice(BINARY), rng.randrange(known), rng.randrange(known)))
    return leaves, steps


def build(engine, recipe):
    """The recipe's graph in one engine; every node that nothing uses is summed into the root."""
    leaves, steps = recipe
    nodes = [engine.Value(x, f"v{i}") for i, x in enumerate(leaves)]
    for op, *operands in steps:
        label = f"v{len(nodes)}"
        nodes.append(getattr(engine, op)(*(nodes[i] for i in operands), label))
    used = {id(link.value) for node in nodes for link in node.parents}
    sinks = [node for node in nodes if id(node) not in used]
    root = sinks[0]
    for k, sink in enumerate(sinks[1:]):
        root = engine.add(root, sink, f"sum{k}")
    return root


def same(a, b):
    """Equal as floats, with nan equal to nan."""
    return a == b or (math.isnan(a) and math.isnan(b))


def differences(recipe):
    """Every way the two engines disagree on one recipe's graph (an empty list: identical).

    None if chapter 2's engine stopped with an error (math.exp overflowing, or 1/0).
    """
    try:
        plain_root = build(scratch, recipe)
    except ArithmeticError:
        return None
    fast_root = build(glassgrad, recipe)
    fast_steps, plain_steps = glassgrad.backward(fast_root), scratch.backward(plain_root)
    fast_order = glassgrad.dependency_safe_order(fast_root)
    plain_order = scratch.dependency_safe_order(plain_root)
    found = []
    if [n.label for n in fast_order] != [n.label for n in plain_order]:
        found.append("order")
    for fast, plain in zip(fast_order, plain_order):
        if not (same(fast.data, plain.data) and same(fast.grad, plain.grad)):
            found.append(f"{fast.label}: data or grad")
    if len(fast_steps) != len(plain_steps):
        found.append("number of steps")
    for fast, plain in zip(fast_steps, plain_steps):
        names = (fast.output.label, fast.parent.label) == (plain.output.label, plain.parent.label)
        numbers = all(same(a, b) for a, b in zip(fast[2:], plain[2:]))
        if not (names and numbers):
            found.append(f"step {fast.output.label} → {fast.parent.label}")
    return found

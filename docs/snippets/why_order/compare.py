# Run every algorithm on a fresh copy of each graph and compare with glassgrad and PyTorch.
import math

from glassgrad import backward, dependency_safe_order
from glassgrad.viz.html import escape, fmt

ALGORITHMS = {  # names looked up at call time: (c) is defined further down the page
    "(a) every path": lambda root: backward_every_path(root),
    "(b) leaves first": lambda root: backward_in_order(root, forward_order(root)),
    "(b) breadth-first": lambda root: backward_in_order(root, breadth_first_order(root)),
    "(c) = instead of +=": lambda root: backward_assign(root),
}

SHORT_NAMES = {"(a) every path": "(a)", "(b) leaves first": "(b) leaves", "(b) breadth-first": "(b) breadth",
               "(c) = instead of +=": "(c) ="}
"""Column headings for the gradients table, short enough for a phone."""


def same(x, y):
    return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12)


def grads(root):
    """{label: grad} of every node, in dependency-safe order."""
    return {node.label: node.grad for node in dependency_safe_order(root)}


def right_grads(graph_name):
    root = GRAPHS[graph_name]()
    backward(root)
    return grads(root)


def run(graph_name, algorithm_name):
    """(root, steps, {label: grad}) of one algorithm on a fresh graph."""
    root = GRAPHS[graph_name]()
    steps = ALGORITHMS[algorithm_name](root)
    return root, steps, grads(root)


def wrong_labels(found, right):
    return [label for label in right if not same(found[label], right[label])]


def first_wrong_step(steps, right):
    """Index of the first step that sends an incomplete gradient or loses a sum, else None."""
    for index, step in enumerate(steps):
        early = not same(step.upstream, right[step.output.label])
        lost = not same(step.after, step.before + step.contribution)
        if early or lost:
            return index
    return None


def cell(found, right):
    return escape(fmt(found)) if same(found, right) else f"**{escape(fmt(found))}** ✗"


def grads_table(graph_name):
    """Markdown: every node's gradient from PyTorch, glassgrad and each algorithm."""
    right = right_grads(graph_name)
    theirs = torch_grads(graph_name)
    assert all(same(theirs[label], right[label]) for label in right), (theirs, right)
    runs = {name: run(graph_name, name)[2] for name in ALGORITHMS}
    header = ["node", "PyTorch = glassgrad", *(SHORT_NAMES[name] for name in ALGORITHMS)]
    rows = ["| " + " | ".join(escape(h) for h in header) + " |", "|" + " ---: |" * len(header)]
    for label in right:
        cells = [f"`{escape(label)}`", escape(fmt(right[label]))]
        cells += [cell(runs[name][label], right[label]) for name in ALGORITHMS]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def trace_table(steps, right, marked):
    """Markdown: the steps of one run, the first wrong one in bold and flagged."""
    rows = ["| # | output → parent | upstream × local = contribution | parent.grad |",
            "| ---: | --- | ---: | --- |"]
    for index, step in enumerate(steps):
        cells = [f"`{escape(step.output.label)}` → `{escape(step.parent.label)}`",
                 escape(f"{fmt(step.upstream)} × {fmt(step.local)} = {fmt(step.contribution)}"),
                 f"{escape(fmt(step.before))} → {escape(fmt(step.after))}"]
        number = str(index + 1)
        if index == marked:
            number = f"⚠ **{number}**"
            cells = [f"**{text}**" for text in cells]
        rows.append(f"| {number} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


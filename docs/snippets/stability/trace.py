from glassgrad import Value, backward, dependency_safe_order
from glassgrad.viz.html import escape


def atomic_trace(z):
    """The atomic σ at one z: forward values and backward log, as Markdown tables."""
    leaf = Value(z, "z")
    s = atomic_sigmoid(leaf)
    steps = backward(s)
    forward_rows = ["| node | operation | value |", "| --- | --- | ---: |"]
    for node in dependency_safe_order(s):
        operation = escape(node.op or "leaf")
        forward_rows.append(f"| `{escape(node.label)}` | {operation} | {node.data:g} |")
    backward_rows = [
        "| edge | upstream × local = contribution | parent.grad after |",
        "| --- | ---: | ---: |",
    ]
    for step in steps:
        edge = f"`{escape(step.output.label)}` → `{escape(step.parent.label)}`"
        product = f"{step.upstream:g} × {step.local:g} = {step.contribution:g}"
        backward_rows.append(f"| {edge} | {product} | {step.after:g} |")
    return "\n".join(forward_rows), "\n".join(backward_rows), steps

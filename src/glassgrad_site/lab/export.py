"""The run as a plain Python program: it replays every step so far and prints the page's losses bit for bit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from glassgrad_site.lab.model import Lab, batch_of, example_loss, learning_rate


def _source(function: Callable[..., Any]) -> str:
    import inspect as _inspect

    return _inspect.getsource(function)


def script(lab: Lab, url: str = "") -> str:
    """Run `lab` as a Python program: it replays every step so far and prints ``step k loss X`` for each."""
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

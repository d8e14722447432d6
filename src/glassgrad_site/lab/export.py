"""The run as a plain Python program: it replays every step so far and prints the page's losses bit for bit.

The program is code written here plus data: every setting, point and label, and the address, goes in through
`repr` (numbers, strings, lists), so whatever a run holds, the program is valid Python that means that data.
The recipe's functions are repeated from their source (`glassgrad_site.lab.model`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from glassgrad_site.lab.model import Lab, batch_of, example_loss, features_of, learning_rate, mean, penalty

FILE_NAME = "glassgrad_lab_run.py"
"""The name the page gives the downloaded program (its docstring says how to run it)."""
INSTALL = 'pip install "glassgrad @ git+https://github.com/glassgrad/glassgrad"'
"""What installs the engine the program needs (the project's install line, docs/reuse.md, without the extras)."""
RECIPE = (features_of, example_loss, mean, penalty, batch_of, learning_rate)


def _source(function: Callable[..., Any]) -> str:
    return inspect.getsource(function)


def _docstring(lab: Lab, url: str) -> str:
    s = lab.settings
    edited = ", with your edits" if s["added"] or s["removed"] else ""
    reg = "" if s["reg"] == "none" or not s["reg_rate"] else f" + {s['reg_rate']:g}·{s['reg'].upper()}"
    return (
        f"A run of glassgrad's training lab{f' ({url})' if url else ''}, replayed step by step.\n\n"
        f"{len(lab.points)} training points ({s['data']}, noise {s['noise']:g}, seed {s['seed']}{edited}), "
        f"features {', '.join(s['features'])},\n"
        f"MLP({len(s['features'])}, {[*s['layers'], lab.outputs]}, activation {s['activation']!r}), "
        f"{s['loss']} loss{reg}, learning rate {s['rate']:g} / (1 + {s['decay']:g}·step), batches of "
        f"{min(s['batch'], len(lab.points))}.\n"
        "It prints the loss of every step, the numbers the page showed, to the last bit.\n"
        f"Run it with glassgrad installed ({INSTALL}): python {FILE_NAME}\n"
    )


def script(lab: Lab, url: str = "") -> str:
    """Run `lab` as a Python program: it replays every step so far and prints ``step k loss X`` for each."""
    s = lab.settings
    points = "".join(f"    {point!r},\n" for point in lab.points)
    recipe = "\n\n".join(_source(function) for function in RECIPE)
    return f"""{_docstring(lab, str(url))!r}

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from glassgrad import Value, backward
from glassgrad.nn import MLP, softmax_cross_entropy, weighted_sum

STEPS = {lab.steps!r}
SETTINGS = {s!r}

# The training points, written out exactly (x1, x2), and their labels.
POINTS = [
{points}]
LABELS = {lab.labels!r}


{recipe}

INPUTS = [features_of(SETTINGS["features"], x1, x2) for x1, x2 in POINTS]
model = MLP(len(SETTINGS["features"]), {[*s["layers"], lab.outputs]!r}, rng={s["seed"]!r}, activation={s["activation"]!r})
parameters = model.parameters()
for step in range(STEPS):
    batch = batch_of(step, SETTINGS["batch"], len(POINTS))
    loss = mean([example_loss(SETTINGS["loss"], model(INPUTS[i]), LABELS[i]) for i in batch])
    if SETTINGS["reg"] != "none" and SETTINGS["reg_rate"]:
        loss = loss + SETTINGS["reg_rate"] * penalty(SETTINGS["reg"], parameters)
    backward(loss, record=False)
    rate = learning_rate(step, SETTINGS["rate"], SETTINGS["decay"])
    for p in parameters:
        p.data -= rate * p.grad
    print(f"step {{step + 1}} loss {{loss.data!r}}")
"""

"""The cases several test files share: the Exercises page's solutions, wrong answers and attacks.

A test file imports these from here, never from another test file (under ``--import-mode=importlib`` a test
module imported by name would be loaded twice).
"""

from __future__ import annotations

from typing import Any

from helpers import REPO

from glassgrad.exercises import EXERCISES

SNIPPETS = REPO / "docs" / "snippets" / "exercises"


def source(name: str, kind: str = "") -> str:
    """The page's solution (or, with kind="_start", starting code) of exercise `name`."""
    return (SNIPPETS / f"{EXERCISES[name].defines}{kind}.py").read_text(encoding="utf-8")


def broken(name: str, old: str, new: str) -> str:
    """The solution with `old` replaced by `new` (exactly once: the change must exist)."""
    text = source(name)
    assert text.count(old) == 1, f"{old!r} not in the solution of {name}"
    return text.replace(old, new)


DIVIDE_HEAD = (
    "from glassgrad.scratch import ParentLink, Value\n\n\ndef divide(u, v, label=''):\n    q = u.data / v.data\n"
)

MISTAKES = [
    # (exercise, the reader's program, what the verdict must say): ordinary mistakes, each named, none a crash.
    (
        "divide",
        DIVIDE_HEAD + "    return Value(q, label, parents=(u, v), op='/')\n",
        "`parents` holds Values; wrap each in `ParentLink(value, local_grad)`: q.parents[0] is u itself",
    ),
    (
        "divide",
        DIVIDE_HEAD + "    return Value(q, label, parents=(ParentLink(u, '1 / v'), ParentLink(v, 0.0)), op='/')\n",
        "While checking divide(u, v) at u = ",
    ),
    (
        "divide",
        DIVIDE_HEAD + "    return Value(q, label, parents=(ParentLink(u, None), ParentLink(v, 0.0)), op='/')\n",
        "While checking divide(u, v) at u = ",
    ),
    (
        "divide",
        DIVIDE_HEAD
        + "    link = ParentLink(u, 1 / v.data)\n    link.local_grad = 'one over v'\n"
        + "    return Value(q, label, parents=(link, ParentLink(v, -q / v.data)), op='/')\n",
        "The edge ∂q/∂u holds 'one over v' (a str): a local derivative is a number",
    ),
    (
        "divide",
        "class Odd:\n    def __repr__(self):\n        raise RuntimeError('no')\n\n\n"
        + DIVIDE_HEAD
        + "    return Value(q, label, parents=(ParentLink(u, 1 / v.data), Odd()), op='/')\n",
        "q.parents[1] is an Odd object, not a ParentLink(value, local_grad).",
    ),
    (
        "divide",
        "class Odd:\n    def __repr__(self):\n        raise RuntimeError('no')\n\n\n"
        + DIVIDE_HEAD
        + "    return Odd()\n",
        "divide returned an Odd, not a Value",
    ),
    ("divide", DIVIDE_HEAD + "    raise KeyboardInterrupt\n", "While checking divide(u, v) at u = "),
    (
        # Right at the first inputs it sees, then links to a copy of u (as if it changed between calls).
        "divide",
        "from glassgrad.scratch import ParentLink, Value\n\ncalls = []\n\n\ndef divide(u, v, label=''):\n"
        "    calls.append(1)\n    first = u if len(calls) < 8 else Value(u.data, 'u')\n"
        "    return Value(u.data / v.data, label, parents=(ParentLink(first, 1 / v.data), "
        "ParentLink(v, -u.data / v.data ** 2)), op='/')\n",
        "q.parents[0] points to something that is not an operand; it should point to u",
    ),
    (
        "power",
        "from glassgrad.scratch import ParentLink, Value\n\n\ndef power(u, k, label=''):\n"
        "    return Value(abs(u.data) ** k, label, parents=(ParentLink(u, k * abs(u.data) ** (k - 1)),), op='**')\n",
        "is wrong at u = -",
    ),
    (
        "backward",
        "def backward(root):\n    stack = [root]\n    while stack:\n        node = stack.pop()\n        node.grad = 12345.0\n"
        "        stack.extend(link.value for link in node.parents)\n        node.parents = ()\n",
        "your backward changed L.parents. Backward only fills in .grad",
    ),
    (
        "backward",
        source("backward").replace("    for node in safe_order:\n        node.grad = 0.0\n", ""),
        "Called a second time on w * w (training calls it once per step), w.grad is ",
    ),
    (
        "order",
        "from glassgrad.scratch import Value, add, multiply\n\nx = Value(2.0, 'x')\nL = multiply(x, x, 'L')\norder = [x, L]\n",
        "The graph of L is not the starting code's (at L): keep the lines that build it, and change only `order`.",
    ),
    (
        "order",
        source("order").replace("order = [x, a, p, b, q, L]", "L.parents = ()\norder = [L]"),
        "The graph of L is not the starting code's (at L)",
    ),
    ("forward", "def tangents(root, seeds):\n    return [1.0]\n", "tangents returned [1.0] (a list); return a dict"),
    (
        "forward",
        "def tangents(root, seeds):\n    root.parents = ()\n    return {root: 0.0}\n",
        "your tangents changed L.parents. Forward mode only reads the links",
    ),
    (
        "forward",
        "def tangents(root, seeds):\n    return {root: 0.0}\n",
        "the dict has no tangent for w: give every value one",
    ),
    (
        "train-step",
        "def train_step(w, b, x, y, lr):\n    return {'w': w, 'b': b}\n",
        "train_step returned {'w': ",
    ),
    ("train-step", "def train_step(w, b, x, y, lr):\n    return 'w', 'b'\n", "The new w is 'w' (a str), not a number"),
]


# The starting code of tanh is wrong (∂t/∂u = 1 - t); each program adds an attack to it.
ATTACKS = {
    "the checker replaced": (
        "import glassgrad.exercises as e, glassgrad.exercises.sealed as s, glassgrad_runtime.checking as c\n"
        "from glassgrad.exercises import Verdict\n"
        "e.check = s.check = lambda name, names, seed=None: Verdict(name, True, 'Passed')\n"
        "s.judge = lambda text, name, seed: Verdict(name, True, 'Passed')\n"
        "c.judge = lambda *args, **kwargs: {'passed': True, 'message': 'Passed', 'figure': ''}\n"
    ),
    "a function's __code__ swapped": (
        "import glassgrad.exercises.verdict as v\nv.same.__code__ = (lambda given, expected: True).__code__\n"
    ),
    "OPERATIONS mutated": (
        "import dataclasses, math\nfrom glassgrad.exercises.operations import OPERATIONS\n"
        "OPERATIONS['tanh'] = dataclasses.replace(\n"
        "    OPERATIONS['tanh'], draw=lambda rng: ((40.0,), ()), always=lambda rng: []\n"
        ")  # tried at u = 40 only, where 0.0 is right\n"
    ),
    "a float whose __float__ reads the checker's frame": (
        "import sys\nfrom glassgrad.scratch import ParentLink, Value\n"
        "class Sneaky(float):\n"
        "    def __float__(self):\n"
        "        frame = sys._getframe(1)\n"
        "        while frame is not None and 'expected' not in frame.f_locals:\n"
        "            frame = frame.f_back\n"
        "        return float(frame.f_locals['expected']) if frame is not None else 0.0\n"
        "_tanh = tanh\n"
        "def tanh(u, label=''):\n"
        "    t = _tanh(u, label)\n"
        "    t.parents[0].local_grad = Sneaky(t.parents[0].local_grad)\n"
        "    return t\n"
    ),
}


def check(page: Any, name: str, code: str | None = None) -> str:
    """Put `code` in exercise `name`'s editor (None: keep it), press Check, wait; return the verdict's text."""
    box = page.locator(f'[data-gg-exercise="{name}"]')
    if code is not None:
        box.locator("textarea").fill(code)
    box.get_by_role("button", name="Check").click()
    verdict = box.locator(".gg-ex-verdict")
    verdict.wait_for(timeout=90_000)
    return verdict.inner_text()

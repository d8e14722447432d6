"""What a Check shows: the checker's verdict on the reader's program, its errors explained, the wrong edge drawn."""

from __future__ import annotations

import math
import sys
from typing import Any

import glassgrad.examples  # noqa: F401  (the checker's reference graphs: imported before any program runs)
from glassgrad.exercises import Verdict, check
from glassgrad_runtime.program import Program

TRUSTED = (
    "builtins",
    "math",
    "random",
    "glassgrad",
    "glassgrad.autograd",
    "glassgrad.examples",
    "glassgrad.exercises",
    "glassgrad.ops",
    "glassgrad.scratch",
    "glassgrad.value",
    "glassgrad_runtime.checking",
    "glassgrad_runtime.program",
)
"""The modules the checker relies on: a program checked must leave them (and their classes) as they are."""

Snapshot = dict[str, object]


def snapshot(
    _vars: Any = vars, _isinstance: Any = isinstance, _type: Any = type, _list: Any = list, _getattr: Any = getattr
) -> Snapshot:
    """Every attribute of the `TRUSTED` modules and of the classes they define, by ``module.name``.

    (The builtins it calls are bound when this module is imported: a program may have replaced them.)
    """
    found: Snapshot = {}
    for name in TRUSTED:
        module = sys.modules.get(name)
        if module is None:
            continue
        for key, value in _list(_vars(module).items()):
            found[f"{name}.{key}"] = value
            if _isinstance(value, _type) and _getattr(value, "__module__", None) == name:
                for attr, member in _list(_vars(value).items()):
                    found[f"{name}.{key}.{attr}"] = member
    return found


def changed(before: Snapshot) -> str | None:
    """The first attribute a program replaced, added or removed since `before` (None when it changed none)."""
    after = snapshot()
    for key in {**before, **after}:
        if before.get(key, before) is not after.get(key, after):
            return key
    return None


def _number(x: object) -> float | None:
    """`x` as a JSON number (None for anything else, or for inf and nan)."""
    if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x):
        return float(x)
    return None


def marked_figure(verdict: Verdict, prefix: str | None) -> str:
    """The graph of `verdict` with its wrong edge marked, as HTML (empty when there is nothing to draw)."""
    from glassgrad.viz import draw_graph

    if verdict.graph is None:
        return ""
    try:
        figure = draw_graph(
            verdict.graph, show_grad=verdict.show_grad, id_prefix=prefix, wrong_edges=verdict.marked, rankdir="TB"
        )  # top to bottom: a phone shows it whole
    except Exception:  # a graph the reader built too big or malformed to draw: the message says enough
        return ""
    return str(figure)


def check_result(exercise: str, program: Program, prefix: str | None, reveal: bool, seed: int | None) -> dict[str, Any]:
    """``{"passed", "message", "figure"}`` and the verdict's numbers, for the program's answer to `exercise`.

    The message names what is wrong; the formula of the right answer is added only when `reveal` is true.
    """
    verdict = check(exercise, program.namespace, seed=seed)
    message = verdict.message
    if verdict.error is not None:
        message = f"While {verdict.doing}:\n{program.explain(verdict.error)}"
    if reveal and verdict.answer:
        message += f"\n{verdict.answer}"
    inputs = {name: _number(x) for name, x in (verdict.inputs or {}).items()}
    return {
        "passed": verdict.passed,
        "message": message,
        "figure": marked_figure(verdict, prefix),
        "answer": verdict.answer if reveal else "",
        "has_answer": bool(verdict.answer),
        "edge": verdict.edge or "",
        "inputs": inputs,
        "expected": _number(verdict.expected),
        "given": _number(verdict.given),
    }

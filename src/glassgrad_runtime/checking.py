"""A Check's verdict as the page shows it: the judge's `Verdict` (`glassgrad.exercises.sealed`) as a `Result`.

A Check is recorded in the program's Python (`glassgrad_runtime.run.record_program`) and judged here, in
another Python that never runs a reader's program (`glassgrad_runtime.worker`), so that no program reaches
the checker.
"""

from __future__ import annotations

import math

from glassgrad.exercises import Verdict, sealed
from glassgrad_runtime.result import Result


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


def judge(text: str, exercise: str, seed: int, prefix: str | None = None, reveal: bool = False) -> Result:
    """The verdict on the record `text` (`glassgrad.exercises.sealed.judge`), as the page shows it.

    The message names what is wrong; the formula of the right answer is added only when `reveal` is true.
    Never raises: a record that is not one (or that does not match this checker's calls) fails the check.
    """
    verdict = sealed.judge(text, exercise, seed)
    message = verdict.message + (f"\n{verdict.answer}" if reveal and verdict.answer else "")
    return {
        "passed": verdict.passed,
        "message": message,
        "figure": marked_figure(verdict, prefix),
        "answer": verdict.answer if reveal else "",
        "has_answer": bool(verdict.answer),
        "edge": verdict.edge or "",
        "inputs": {name: _number(x) for name, x in (verdict.inputs or {}).items()},
        "expected": _number(verdict.expected),
        "given": _number(verdict.given),
    }

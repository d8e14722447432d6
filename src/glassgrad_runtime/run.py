"""`execute`: run a reader's program, or check it as the answer to an exercise, and say what happened as data."""

from __future__ import annotations

from typing import Any

from glassgrad_runtime.checking import changed, check_result, snapshot
from glassgrad_runtime.playground import run_result
from glassgrad_runtime.program import Program


def execute(
    source: str,
    prefix: str | None = None,
    *,
    exercise: str | None = None,
    reveal: bool = False,
    seed: int | None = None,
    namespace: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Run the reader's program `source` once; return what the page shows, as JSON-able data.

    For a Run (no `exercise`): ``{"error": message}``, ``{"note": message}`` (no ``L`` to draw), or ``{"summary", "figure", "order", "cards"}``, the
    HTML of the graph of the program's ``L`` (ids start with `prefix`). For a Check: ``{"passed", "message",
    "figure", ...}`` (see `glassgrad_runtime.checking.check_result`); `reveal` adds the right formula to a
    wrong answer's message, `seed` fixes the checker's random inputs (default: new ones every time).
    `namespace` receives the program's globals (default: a new dict).
    Nothing the program does escapes as an exception: every error becomes a message naming its line.
    """
    program = Program(source, {} if namespace is None else namespace)
    if exercise is None:
        error = program.run()
        return {"error": error} if error is not None else run_result(program.namespace, prefix)
    before = snapshot()
    error = program.run()
    if error is not None:
        return {"passed": False, "message": error, "figure": ""}
    replaced = changed(before)
    if replaced is not None:
        message = (
            f"The program changed {replaced}, which the checker relies on: "
            "leave glassgrad and Python's own modules as they are, and define only your answer."
        )
        return {"passed": False, "message": message, "figure": ""}
    return check_result(exercise, program, prefix, reveal, seed)

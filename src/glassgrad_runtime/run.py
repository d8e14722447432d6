"""`execute`: run a reader's program, or check it as the answer to an exercise, and say what happened as data."""

from __future__ import annotations

import json
import random
from typing import Any

from glassgrad.exercises.sealed import record
from glassgrad_runtime.checking import judge
from glassgrad_runtime.playground import run_result
from glassgrad_runtime.program import Program
from glassgrad_runtime.result import Result


def record_program(source: str, exercise: str, seed: int, namespace: dict[str, Any] | None = None) -> str:
    """Run the reader's program `source` once and record checking it for `exercise` (`glassgrad.exercises.sealed`)."""
    program = Program(source, {} if namespace is None else namespace)
    error = program.run()
    if error is not None:
        return json.dumps({"error": error})
    return record(exercise, program.namespace, program.explain, seed)


def execute(
    source: str,
    prefix: str | None = None,
    *,
    exercise: str | None = None,
    reveal: bool = False,
    seed: int | None = None,
    namespace: dict[str, Any] | None = None,
) -> Result:
    """Run the reader's program `source` once; return what the page shows, as JSON-able data (a `Result`).

    For a Run (no `exercise`): ``{"error": message}``, ``{"note": message}`` (no ``L`` to draw), or ``{"summary", "figure", "order", "cards"}``, the
    HTML of the graph of its ``L`` (ids start with `prefix`). For a Check: ``{"passed", "message",
    "figure", ...}`` (see `glassgrad_runtime.checking.judge`); `reveal` adds the right formula to a
    wrong answer's message, `seed` fixes the checker's random inputs (default: new ones every time).
    `namespace` receives the program's globals (default: a new dict).
    Nothing the program does escapes as an exception: every error becomes a message naming its line.

    Here both halves of a Check run in this one Python (for the build and for tests); the browser records in
    the program's Python and judges in another (`glassgrad_runtime.worker`), where the program cannot reach.
    """
    if exercise is not None:
        seed = random.randrange(2**32) if seed is None else seed
        return judge(record_program(source, exercise, seed, namespace), exercise, seed, prefix, reveal)
    program = Program(source, {} if namespace is None else namespace)
    error = program.run()
    return {"error": error} if error is not None else run_result(program.namespace, prefix)

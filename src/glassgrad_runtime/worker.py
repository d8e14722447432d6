"""The browser's side of a run: the calls the Web Workers make, on a Python that no earlier program touched.

The worker (docs/javascripts/) unpacks the site's bundle into a brand-new Pyodide, calls `start` once with
Graphviz compiled to WebAssembly, then `execute` for one program, and is thrown away after it: each Run
and each Check gets a fresh interpreter, so nothing a program changes reaches the next one. A Check's
`execute` returns only the record of the program's answer (plain data, no verdict); the page hands it to
`judge`, in the page's one judge worker, a Python that never runs a reader's program
(`glassgrad.exercises.sealed`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from glassgrad.viz.graph import dot_svg, rendering_with
from glassgrad_runtime import checking, run
from glassgrad_runtime.output import Emit, Output, captured
from glassgrad_runtime.result import Result

_renderer: Callable[[str], str] = dot_svg
_kept: list[Any] = []

WARM_UP = (
    "from glassgrad.scratch import Value, backward, square\nL = square(Value(1.0, 'w'), 'L')\nsteps = backward(L)\n"
)


def start(render_svg: Callable[[str], str]) -> None:
    """Draw every figure with `render_svg` (DOT source -> SVG text, the browser's Graphviz), then draw one small
    graph, so the modules a run needs are imported and Graphviz is warm before the reader presses Run."""
    global _renderer
    _renderer = render_svg
    with rendering_with(_renderer):
        run.execute(WARM_UP, "ggwarm")


@contextmanager
def rendering() -> Iterator[None]:
    """Draw figures inside the block with the renderer `start` received (before `start`: the `dot` program)."""
    with rendering_with(_renderer):
        yield


def execute(source: str, prefix: str, emit: Emit, exercise: str | None = None, seed: int = 0) -> Result:
    """Run `source` (a Run), or record checking it for `exercise` with the inputs of `seed` (a Check),
    streaming its output through `emit`.

    A Run returns `glassgrad_runtime.execute`'s answer; a Check only ``{"record": text}``
    (`glassgrad_runtime.run.record_program`), for `judge`. What the program printed goes to ``emit(chunks,
    dropped_lines, dropped_characters)`` in batches (see `glassgrad_runtime.output`). The objects the program
    built are kept, not freed: the worker is thrown away next, and freeing a long chain one object inside
    another would overflow the browser's stack.
    """
    output = Output(emit)
    namespace: dict[str, Any] = {}
    _kept.append(namespace)
    result: Result
    with rendering_with(_renderer), captured(output):
        try:
            if exercise is None:
                result = run.execute(source, prefix, namespace=namespace)
            else:
                result = {"record": run.record_program(source, exercise, seed, namespace)}
        except BaseException as error:  # last line: the program broke the runtime itself; named without a traceback
            text = f"The program stopped the runtime: {type(error).__name__}."
            result = {"error": text} if exercise is None else {"record": json.dumps({"error": text})}
    return result


def judge(record: str, exercise: str, seed: int, prefix: str, reveal: bool = False) -> Result:
    """The verdict on a Check's `record` (`glassgrad_runtime.checking.judge`), its figure drawn with the renderer
    `start` received. Called in the judge worker, which runs no reader's program."""
    with rendering_with(_renderer):
        return checking.judge(str(record), str(exercise), int(seed), str(prefix), bool(reveal))

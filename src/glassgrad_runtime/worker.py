"""The browser's side of a run: the calls the Web Worker makes on a Python that no earlier program touched.

The worker (docs/javascripts/) unpacks the site's bundle into a brand-new Pyodide, calls `start` once with
Graphviz compiled to WebAssembly, then `execute` for one program, and is thrown away after it: each Run
and each Check gets a fresh interpreter, so nothing a program changes reaches the next one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from glassgrad.viz.graph import dot_svg, rendering_with
from glassgrad_runtime import run
from glassgrad_runtime.output import Emit, Output, captured

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


def execute(source: str, prefix: str, emit: Emit, exercise: str | None = None, reveal: bool = False) -> dict[str, Any]:
    """Run `source` (or check it as the answer to `exercise`), streaming its output through `emit`.

    Returns `glassgrad_runtime.execute`'s dict. What the program printed goes to ``emit(chunks,
    dropped_lines, dropped_characters)`` in batches (see `glassgrad_runtime.output`). The objects
    the program built are kept, not freed: the worker is thrown away next, and freeing a long chain
    one object inside another would overflow the browser's stack.
    """
    output = Output(emit)
    namespace: dict[str, Any] = {}
    _kept.append(namespace)
    result: dict[str, Any]
    with rendering_with(_renderer), captured(output):
        try:
            result = run.execute(source, prefix, exercise=exercise, reveal=reveal, namespace=namespace)
        except BaseException as error:  # last line: a failure of the runtime itself, named without a traceback
            text = f"The runtime could not finish: {type(error).__name__}."
            result = {"error": text} if exercise is None else {"passed": False, "message": text, "figure": ""}
    return result

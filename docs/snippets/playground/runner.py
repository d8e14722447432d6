"""The playground's runner: run a reader's program, then draw the graph it built with glassgrad.viz.

The page runs this file in the reader's browser (Pyodide) and at build time (the figures shown
without JavaScript), so both show the same pictures from the same code.
"""

from __future__ import annotations

import math
import sys
import traceback
from typing import Any

from glassgrad.viz import animate_backward, animate_order, draw_graph, fmt, show_complete_state
from glassgrad.viz.graph import walk
from glassgrad.viz.html import caption, escape

MAX_NODES = 40
"""The largest graph the playground draws (bigger drawings are unreadable and slow to lay out)."""

FILENAME = "<playground>"


def _line(error: BaseException) -> int | None:
    """The line of the reader's program where `error` was raised (None if it was raised elsewhere)."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == FILENAME]
    return frames[-1].lineno if frames else None


def explain(error: BaseException, namespace: dict[str, Any] | None = None) -> str:
    """A one-line message naming the problem and the line of the reader's program it came from."""
    line = _line(error)
    where = f" on line {line}" if line else ""
    if isinstance(error, NameError):
        return f"Unknown name {getattr(error, 'name', None) or str(error)!r}{where}: is it spelled as where it is defined, or imported?"
    if isinstance(error, TypeError):
        return f"Type error{where}: {error}. Is every Value's data a number?"
    if isinstance(error, ValueError) and "convert" in str(error):
        return f"Not a number{where}: {error}. A Value holds a number, such as 2.0."
    if isinstance(error, RecursionError):
        cycle = _cycle(namespace or {})
        if cycle:
            return f"Recursion too deep{where}: {cycle}: a node cannot be its own ancestor."
        return (
            f"Recursion too deep{where}: more than {sys.getrecursionlimit()} calls inside one another. A recursive walk, "
            "such as glassgrad.scratch's backward (one call per value along the longest path), cannot go this deep; "
            "glassgrad's backward keeps its own stack and walks a graph of any depth."
        )
    if isinstance(error, MemoryError):
        return f"Out of memory{where}: the program asked for more memory than this page can give it."
    if isinstance(error, EOFError):
        return f"input(){where} has nothing to read: a program here gets no typed input. Write the value in the program instead."
    if isinstance(error, SystemExit):
        return f"The program called exit(){where}: here a program runs to its end, and the page then draws L."
    return f"{type(error).__name__}{where}: {error}"


def _cycle(namespace: dict[str, Any]) -> str | None:
    """The cycle message of the first graph in `namespace` that has one (None when none has)."""
    for value in list(namespace.values()):
        if hasattr(value, "parents") and hasattr(value, "data"):
            try:
                walk(value)
            except ValueError as error:
                return str(error)
            except Exception:  # not a graph walk can follow: not a cycle either
                continue
    return None


def _no_input(prompt: object = "") -> str:
    """The program's `input`: a page has no keyboard to read from, so it ends the program with a message."""
    raise EOFError("input() has nothing to read")


def _is_number(data: Any) -> bool:
    return isinstance(data, (int, float)) and not isinstance(data, bool)


def run(source: str, prefix: str | None = None, namespace: dict[str, Any] | None = None) -> dict[str, str]:
    """Run `source`; return ``{"error": message}`` or the HTML of its figures and a one-line summary.

    The program must name its output ``L``; if it also keeps the list ``backward`` returned as
    ``steps``, the page replays that backward pass step by step. `prefix` is the figure's id
    prefix (each run on a page needs its own). `namespace` receives the program's globals (the
    browser takes the program's objects apart from it afterwards, see sandbox.py).
    """
    lines = source.splitlines()

    def quoted(line: int | None) -> str:
        """The reader's line, under the message."""
        return f"\n    {line} | {lines[line - 1].strip()}" if line and 0 < line <= len(lines) else ""

    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as error:
        return {"error": f"Syntax error on line {error.lineno}: {error.msg}.{quoted(error.lineno)}"}
    namespace = {} if namespace is None else namespace
    namespace.update({"__name__": "__playground__", "input": _no_input})
    try:
        exec(code, namespace)
    except (Exception, SystemExit) as error:  # the reader's program: any error is reported, none escapes
        return {"error": explain(error, namespace) + quoted(_line(error))}
    root = namespace.get("L")
    if root is None:
        return {"error": "The program defines no L: name the output to draw L (for example L = square(e, 'L'))."}
    if not all(hasattr(root, field) for field in ("data", "grad", "parents")):
        return {"error": f"L is a {type(root).__name__}, not a Value: the playground draws the graph of a Value."}
    try:
        order = walk(root)
    except ValueError as error:
        message = str(error)
        return {"error": f"{message[:1].upper()}{message[1:]}: a node cannot be its own ancestor."}
    if len(order) > MAX_NODES:
        return {"error": f"The graph of L has {len(order)} values; the playground draws at most {MAX_NODES}."}
    for index, node in enumerate(order):
        for field in ("data", "grad"):
            number = getattr(node, field)
            if not _is_number(number) or not math.isfinite(number):
                kind = type(number).__name__
                return {"error": f"{caption(node, index)}.{field} is {number!r} (a {kind}), not a finite number."}
    steps = namespace.get("steps")
    if isinstance(steps, (list, tuple)) or hasattr(steps, "__len__") and steps and hasattr(steps[0], "contribution"):
        steps = list(steps)
        if steps and steps[0].output is not root:
            steps = None
    else:
        steps = None
    leaves = [node for node in order if not node.parents]
    summary = f"{caption(root, order.index(root))} = {fmt(root.data)}; " + ", ".join(
        f"{caption(node, order.index(node))}.grad = {fmt(node.grad)}" for node in leaves
    )
    try:
        if steps:
            figure = str(animate_backward(root, steps, id_prefix=prefix))
        else:
            figure = str(draw_graph(root, id_prefix=prefix))
        order_player = animate_order(root, id_prefix=f"{prefix}-order" if prefix else None)
    except Exception as error:  # the graph was built by the reader's code: say what could not be drawn
        return {"error": f"The graph of L could not be drawn: {type(error).__name__}: {error}"}
    return {
        "summary": escape(summary),
        "figure": figure,
        "order": f"<details><summary>How backward chose its order: the walk, step by step</summary>{order_player}</details>",
        "cards": str(show_complete_state(root)),
    }

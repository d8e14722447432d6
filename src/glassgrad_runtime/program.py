"""The one place a reader's program is compiled and run, and its errors turned into one-line messages."""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass, field
from typing import Any

from glassgrad.autograd import CycleError, walk_parents
from glassgrad.protocol import is_value

FILENAME = "<program>"
"""The file name a reader's program is compiled under: messages find the reader's lines by it."""


def safe_str(error: BaseException) -> str:
    """``str(error)``, or nothing when the reader's exception cannot say what it is."""
    try:
        text = str(error)
    except BaseException:  # an exception class of the reader's, with a broken __str__
        return ""
    return text if isinstance(text, str) else ""


def error_line(error: BaseException, filename: str = FILENAME) -> int | None:
    """The line of the reader's program where `error` was raised (None if it was raised elsewhere)."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
    return frames[-1].lineno if frames else None


def _no_input(prompt: object = "") -> str:
    """The program's `input`: a page has no keyboard to read from, so it ends the program with a message."""
    raise EOFError("input() has nothing to read")


def _cycle(namespace: dict[str, Any]) -> str | None:
    """The cycle message of the first graph in `namespace` that has one (None when none has)."""
    for value in list(namespace.values()):
        try:
            if not is_value(value):
                continue
            walk_parents(value)
        except CycleError as error:
            return str(error)
        except Exception:  # not a graph the walk can follow: not a cycle either
            continue
    return None


@dataclass
class Program:
    """A reader's program: its `source`, and after `run` the `namespace` it filled (its globals)."""

    source: str
    namespace: dict[str, Any] = field(default_factory=dict)

    def quoted(self, line: int | None) -> str:
        """The reader's `line`, under a message (nothing when there is no such line)."""
        lines = self.source.splitlines()
        return f"\n    {line} | {lines[line - 1].strip()}" if line and 0 < line <= len(lines) else ""

    def run(self) -> str | None:
        """Compile and run the program; return None, or the message for its syntax error or the error it raised."""
        try:
            code = compile(self.source, FILENAME, "exec")
        except SyntaxError as error:
            return f"Syntax error on line {error.lineno}: {error.msg}.{self.quoted(error.lineno)}"
        except ValueError as error:  # source code with a null byte
            return f"The program cannot be read: {safe_str(error)}."
        self.namespace.update({"__name__": "__main__", "input": _no_input})
        try:
            exec(code, self.namespace)
        except BaseException as error:  # the reader's program: any error, exit() or interrupt is reported, none escapes
            return self.explain(error)
        return None

    def explain(self, error: BaseException) -> str:
        """A message naming the problem and the line of the reader's program it came from, that line quoted under it."""
        line = error_line(error)
        return self._describe(error, f" on line {line}" if line else "") + self.quoted(line)

    def _describe(self, error: BaseException, where: str) -> str:
        text = safe_str(error)
        if isinstance(error, NameError):
            name = getattr(error, "name", None) or text
            return f"Unknown name {name!r}{where}: is it spelled as where it is defined, or imported?"
        if isinstance(error, RecursionError):
            cycle = _cycle(self.namespace)
            if cycle:
                return f"Recursion too deep{where}: {cycle}: a node cannot be its own ancestor."
            return (
                f"Recursion too deep{where}: more than {sys.getrecursionlimit()} calls inside one another. "
                "A recursive walk, such as glassgrad.scratch's backward (one call per value along the longest "
                "path), cannot go this deep; glassgrad's backward keeps its own stack and walks a graph of any depth."
            )
        if isinstance(error, TypeError):
            return f"Type error{where}: {text}. Is every Value's data a number?"
        if isinstance(error, ValueError) and "convert" in text:
            return f"Not a number{where}: {text}. A Value holds a number, such as 2.0."
        if isinstance(error, MemoryError):
            return f"Out of memory{where}: the program asked for more memory than this page can give it."
        if isinstance(error, EOFError):
            return (
                f"input(){where} has nothing to read: a program here gets no typed input. "
                "Write the value in the program instead."
            )
        if isinstance(error, SystemExit):
            return (
                f"The program called exit(){where}: here a program runs to its end, and then the page shows its result."
            )
        if isinstance(error, KeyboardInterrupt):
            return f"The program raised KeyboardInterrupt{where}: nothing here interrupts a program but Stop."
        return f"{type(error).__name__}{where}{': ' + text if text else ''}"

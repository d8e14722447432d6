"""The browser's side of a run: each program starts clean, its output is collected, its objects are freed.

The playground's Web Worker imports this module once, after Python has loaded, and calls `run` for
each program. Three things keep one program from breaking the next:

- `run` starts from the state `prepare` recorded: the modules imported since are dropped, glassgrad,
  graphviz and the runner are imported anew, `builtins` and every other module get back the
  attributes they had, and `sys` its path, streams and recursion limit. A program that replaces
  `glassgrad.scratch.multiply` changes that one run only.
- stdout and stderr go, in order, to `emit` (a function of the worker) in batches: one call per
  tenth of a second at most, and never more than `MAX_BUFFERED` characters held.
- `dismantle` frees what the program built one object at a time. Freeing a chain of 100,000 values
  the usual way recurses once per value in C, and in the browser that overflows the JavaScript stack
  (CPython 3.14 decides when to stop recursing from the WebAssembly memory's stack, which does not
  see it) and kills Python.
"""

from __future__ import annotations

import builtins
import gc
import importlib
import io
import sys
import time
from typing import Any, Callable

FRESH = ("glassgrad", "graphviz", "playground_runner")
"""Packages imported anew for every run (their classes too: a program may have changed them)."""

KEEP = ("sys", "builtins", "js", "pyodide", "_pyodide", "pyodide_js", "playground_js", "playground_sandbox")
"""Modules whose attributes are left alone (the interpreter's own, and this one)."""

MAX_BUFFERED = 1 << 20
"""Characters of output held between two batches; past it the oldest are dropped (and counted)."""

BATCH_SECONDS = 0.1

_baseline: dict[str, dict[str, Any]] = {}
_sys_state: dict[str, Any] = {}
_render_svg: Callable[[str], str] | None = None


def _fresh(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in FRESH)


def _kept(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in KEEP)


def prepare(render_svg: Callable[[str], str]) -> None:
    """Record the state every run starts from; `render_svg` is the worker's Graphviz (DOT -> SVG)."""
    global _render_svg
    _render_svg = render_svg
    importlib.import_module("playground_runner")  # and everything it imports, into the baseline
    _baseline.clear()
    for name, module in list(sys.modules.items()):
        if not _fresh(name) and not _kept(name) and module is not None and hasattr(module, "__dict__"):
            _baseline[name] = dict(vars(module))
    _baseline["builtins"] = dict(vars(builtins))
    _sys_state.update(path=list(sys.path), limit=sys.getrecursionlimit(), streams=(sys.stdout, sys.stderr, sys.stdin))


def _reset() -> None:
    """Put the interpreter back in the recorded state: modules, builtins, sys's path, streams and limit."""
    for name in [name for name in sys.modules if _fresh(name) or (name not in _baseline and not _kept(name))]:
        del sys.modules[name]
    for name, attributes in _baseline.items():
        module = builtins if name == "builtins" else sys.modules.get(name)
        if module is None:
            continue
        current = vars(module)
        for key in [key for key in current if key not in attributes]:
            del current[key]
        current.update(attributes)
    sys.path[:] = _sys_state["path"]
    sys.setrecursionlimit(_sys_state["limit"])
    sys.stdout, sys.stderr, sys.stdin = _sys_state["streams"]


def _fresh_runner() -> Any:
    """The recorded state, with the runner, glassgrad and graphviz imported anew."""
    _reset()
    runner = importlib.import_module("playground_runner")
    graph = importlib.import_module("glassgrad.viz.graph")
    graph.render_svg = _render_svg  # the one swap: glassgrad.viz draws with the worker's Graphviz
    return runner


class _Output:
    """stdout and stderr together, in order, sent to `emit` in batches of ``[[stream, text], ...]``."""

    def __init__(self, emit: Callable[[list[list[str]], int], None]) -> None:
        self.emit = emit
        self.chunks: list[list[str]] = []
        self.size = 0
        self.dropped = 0  # lines dropped since the last batch (the page counts them)
        self.sent = time.monotonic()

    def write(self, stream: str, text: str) -> None:
        if self.chunks and self.chunks[-1][0] == stream:
            self.chunks[-1][1] += text
        else:
            self.chunks.append([stream, text])
        self.size += len(text)
        while self.size > MAX_BUFFERED and len(self.chunks) > 1:
            _, old = self.chunks.pop(0)
            self.size -= len(old)
            self.dropped += old.count("\n")
        if time.monotonic() - self.sent > BATCH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.chunks or self.dropped:
            chunks, dropped = self.chunks, self.dropped
            self.chunks, self.size, self.dropped = [], 0, 0
            self.emit(chunks, dropped)
        self.sent = time.monotonic()


class _Stream(io.TextIOBase):
    def __init__(self, output: _Output, name: str) -> None:
        self.output, self.name = output, name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.output.write(self.name, text)
        return len(text)


_runner: Any = None


def begin() -> None:
    """Get ready for the next program: the recorded state, with the runner and glassgrad imported anew."""
    global _runner
    _runner = _fresh_runner()


def run(source: str, prefix: str, emit: Callable[[list[list[str]], int], None]) -> tuple[dict[str, str], list[Any]]:
    """Run one program (after `begin`); return its result and what it built (for `dismantle`)."""
    global _runner
    runner, _runner = _runner or _fresh_runner(), None
    existing = gc.get_objects()  # held until `dismantle`: no new object can take one of their ids
    output = _Output(emit)
    sys.stdout, sys.stderr, sys.stdin = _Stream(output, "stdout"), _Stream(output, "stderr"), io.StringIO()
    namespace: dict[str, Any] = {}
    try:
        result = runner.run(source, prefix, namespace=namespace)
    finally:
        _reset()  # before anything else runs here: the program may have replaced a builtin this module uses
        output.flush()
    return result, [namespace, existing]


def dismantle(built: list[Any]) -> None:
    """Free what a program built without recursing: empty each of its objects, then let them go.

    `built` is what `run` returned: the program's globals and the objects that existed before it.
    Only objects made during the run are emptied (the interpreter's own are left as they were).
    """
    namespace, existing = built
    built.clear()
    found = {id(thing): None for thing in existing}  # old objects: never emptied, never walked through
    stack = list(namespace.values())
    namespace.clear()
    referents, tracked = gc.get_referents, gc.is_tracked
    while stack:
        thing = stack.pop()
        if id(thing) not in found and tracked(thing):
            found[id(thing)] = thing  # keeps it alive until every object has been emptied
            stack.extend(referents(thing))
    held = [thing for thing in found.values() if thing is not None]
    del found, stack, existing
    for thing in held:
        (_EMPTY.get(type(thing)) or _emptier(type(thing)))(thing)
    held.clear()  # each object now holds nothing that could free the next one


def _clear(thing: Any) -> None:
    thing.clear()


def _nothing(thing: Any) -> None:
    pass


_EMPTY: dict[type, Callable[[Any], None]] = {list: _clear, dict: _clear, set: _clear}
"""How to empty an object of each type seen so far (found once per type by `_emptier`)."""


def _emptier(klass: type) -> Callable[[Any], None]:
    """The function that drops the references an instance of `klass` holds (its fields or its items)."""
    slots: list[str] = []
    for base in klass.__mro__:
        names = vars(base).get("__slots__", ())
        slots += [names] if isinstance(names, str) else [name for name in names if name not in ("__dict__", "__weakref__")]
    if issubclass(klass, (type, type(sys), type(_emptier), tuple, frozenset)) or klass.__module__ == "builtins" and not slots:
        empty = _nothing  # classes, modules, functions, immutable containers: left as they are
    elif issubclass(klass, (list, dict, set)):
        empty = _clear
    else:

        def empty(thing: Any) -> None:
            fields = getattr(thing, "__dict__", None)
            if type(fields) is dict:
                fields.clear()
            for slot in slots:
                try:
                    delattr(thing, slot)
                except (AttributeError, TypeError):
                    pass

    _EMPTY[klass] = empty
    return empty

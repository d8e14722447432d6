"""The browser's side of a run: each program starts clean, its output is collected, its objects are freed.

The playground's Web Worker imports this module once, after Python has loaded, calls `prepare`, then
for each program `begin`, `run` and (after sending the result) `dismantle`. Three things keep one
program from breaking the next:

- `begin` goes back to the state `prepare` recorded: the modules imported since are dropped, glassgrad,
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
import operator
import sys
import time
from collections import deque
from itertools import compress, repeat
from collections.abc import Callable
from typing import Any

FRESH = ("glassgrad", "glassgrad_runtime", "graphviz", "playground_runner")
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
    runner = importlib.import_module("playground_runner")  # and everything it imports, into the baseline
    graph = importlib.import_module("glassgrad.viz.graph")
    graph.render_svg = render_svg
    # One small drawing now, while the reader is still reading: the first Run then waits less.
    runner.run("from glassgrad.scratch import Value, backward, square\nL = square(Value(1.0, 'w'), 'L')\nsteps = backward(L)\n", "ggwarm")
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


_next: list[Any] = []  # [runner, the classes that existed before it was imported], from `begin`


def _classes() -> dict[int, type]:
    """Every class the interpreter has, by id (the subclasses of `object`, all the way down)."""
    found: dict[int, type] = {}
    stack: list[type] = [object]
    while stack:
        klass = stack.pop()
        if id(klass) not in found:
            found[id(klass)] = klass
            stack.extend(type.__subclasses__(klass))
    return found


def begin() -> None:
    """Get ready for the next program: the recorded state, then the runner and glassgrad imported anew."""
    _reset()
    classes = _classes()  # held until `dismantle`: no new class can take one of their ids
    runner = importlib.import_module("playground_runner")
    graph = importlib.import_module("glassgrad.viz.graph")
    graph.render_svg = _render_svg  # the one swap: glassgrad.viz draws with the worker's Graphviz
    _next[:] = [runner, classes]


def run(
    source: str, prefix: str, emit: Callable[[list[list[str]], int], None], exercise: str | None = None,
) -> tuple[dict[str, Any], list[Any]]:
    """Run one program (after `begin`), or check it as the answer to `exercise`; return its result and what
    it built (for `dismantle`)."""
    if not _next:
        begin()
    runner, classes = _next
    _next.clear()
    output = _Output(emit)
    sys.stdout, sys.stderr, sys.stdin = _Stream(output, "stdout"), _Stream(output, "stderr"), io.StringIO()
    namespace: dict[str, Any] = {}
    try:
        if exercise is None:
            result = runner.run(source, prefix, namespace=namespace)
        else:
            result = runner.check(exercise, source, prefix, namespace=namespace)
    finally:
        _reset()  # before anything else runs here: the program may have replaced a builtin this module uses
        output.flush()
    return result, [namespace, classes]


def dismantle(built: list[Any]) -> None:
    """Free the objects a program built without recursing: empty each one, then let them all go.

    `built` is what `run` returned: the program's globals and the classes that existed before the
    runner was imported. Emptied are the instances of the classes made since (glassgrad's, imported
    anew, and the program's own): their fields are what links a graph. Nothing else is touched. The
    loops run in C (map, compress): a graph of 100,000 values is taken apart in a fraction of a second.
    """
    namespace, before = built
    built.clear()
    new = {key: klass for key, klass in _classes().items() if key not in before}
    del before
    instances = gc.get_referrers(*new.values()) if new else []  # an instance refers to its class
    group: list[Any] = []
    for key in set(map(id, map(type, instances))) & new.keys():
        klass = new[key]
        group = list(compress(instances, map(operator.is_, map(type, instances), repeat(klass))))
        try:
            _empty(klass, group)
        except Exception:  # a class of the program's may refuse: its objects are freed as usual
            pass
    namespace.clear()
    del instances, group  # each object now holds nothing that could free the next one


def _empty(klass: type, group: list[Any]) -> None:
    """Set every field of every instance in `group` (all of class `klass`) to None: slots and attributes.

    The attribute names are read from the first and last instances (reading every instance's __dict__
    would build a dict for each); the instances of one class share their names, as glassgrad's do.
    """
    names: set[str] = set()
    if klass.__dictoffset__:
        for thing in group[:64] + group[-64:]:
            names.update(vars(thing))
    for base in klass.__mro__:
        slots = vars(base).get("__slots__", ())
        names.update(name for name in ([slots] if isinstance(slots, str) else slots) if name not in ("__dict__", "__weakref__"))
    for name in names:
        deque(map(setattr, group, repeat(name), repeat(None)), maxlen=0)

"""The Graphviz backend: DOT source in, SVG text out.

The default is the `graphviz` package (Graphviz's ``dot`` binary), imported only when a figure is drawn. A drawing
function takes another as its ``render`` argument; `rendering_with` sets the default for every figure drawn inside
a block (the browser's Python passes Graphviz compiled to WebAssembly: anything with the same output works).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar

Render = Callable[[str], str]
"""A Graphviz backend: DOT source -> SVG text."""


def dot_svg(dot_source: str) -> str:
    """Graphviz's SVG for `dot_source`, from the `dot` binary (the default backend)."""
    import graphviz

    return graphviz.pipe_string("dot", "svg", dot_source, encoding="utf-8")


RENDERER: ContextVar[Render] = ContextVar("glassgrad_viz_renderer", default=dot_svg)
"""The backend a figure drawn without a ``render`` argument uses (`dot_svg` unless `rendering_with` set another)."""


@contextlib.contextmanager
def rendering_with(render: Render) -> Iterator[None]:
    """Draw every figure inside the block with `render` (DOT source -> SVG text) unless it is given its own."""
    token = RENDERER.set(render)
    try:
        yield
    finally:
        RENDERER.reset(token)


def render_svg(dot_source: str, render: Render | None = None) -> str:
    """Graphviz's SVG for `dot_source`, by `render`, else by the block's backend (`rendering_with`), else `dot_svg`."""
    return (render or RENDERER.get())(dot_source)

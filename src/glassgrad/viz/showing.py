"""`show`: put figures where the reader can see them, in Jupyter and in plain Python alike.

In a Jupyter kernel a figure is displayed under the cell (with the package stylesheet, once). Anywhere
else (``python script.py``, a terminal) there is no screen for HTML, so `show` writes every figure of the
run, in order, to one HTML page, ``glassgrad-figures.html`` in the current folder, with the stylesheets and
the players' script inlined, and prints where it is: open it in a browser. A site that runs the same
calls at build time hands `show_with` the function that writes into its page.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from glassgrad.viz.html import stylesheet, stylesheet_text
from glassgrad.viz.players import script_text

FIGURES_FILE = "glassgrad-figures.html"
"""The page `show` writes outside Jupyter, in the current folder."""

_writer: Callable[[object], object] | None = None
_shown: list[str] = []  # the figures written to FIGURES_FILE by this process, as HTML
_styled = False  # whether this Jupyter kernel has received the stylesheet


def show_with(writer: Callable[[object], object] | None) -> None:
    """From now on, outside Jupyter, `show` hands each figure to `writer` instead of writing a file.

    For a site that runs a page's code at build time: ``show_with(lambda figure: print(figure))`` in a
    markdown-exec block puts the figures into the page. ``show_with(None)`` goes back to writing the file.
    """
    global _writer
    _writer = writer


def _kernel() -> object | None:
    """The running Jupyter (IPython kernel) shell, if any; never imports IPython itself."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell if getattr(shell, "kernel", None) is not None else None


def show(*figures: object) -> None:
    """Show `figures` (what `glassgrad.viz` returns): under the cell in Jupyter, else in ``glassgrad-figures.html``.

    Outside Jupyter every call adds its figures to that one page (the first call of a run starts it
    afresh) and prints one line saying which figure it wrote and where.
    """
    global _styled
    if _kernel() is not None:
        from IPython.display import HTML, display

        if not _styled:
            display(stylesheet())
            _styled = True
        for figure in figures:
            markup = str(figure)
            if "data-gg-player" in markup and "<script>" not in markup:  # a layout holding players: their script
                figure = HTML(_page_assets(markup))
            display(figure)
        return
    if _writer is not None:
        for figure in figures:
            _writer(figure)
        return
    _shown.extend(str(figure) for figure in figures)
    path = Path(FIGURES_FILE)
    path.write_text(_page(_shown), encoding="utf-8")
    print(f"figure {len(_shown)} written to {path.resolve()} (open it in a browser)")


def _page_assets(markup: str) -> str:
    """`markup` with the players' stylesheet and script (guarded: several copies define it once)."""
    animate_css = resources.files("glassgrad.viz").joinpath("animate.css").read_text(encoding="utf-8")
    return f"<style>\n{animate_css}</style>{markup}<script>\n{script_text()}</script>"


def _page(parts: list[str]) -> str:
    """A standalone HTML page holding `parts`, one after another, with every style and script they need."""
    animate_css = resources.files("glassgrad.viz").joinpath("animate.css").read_text(encoding="utf-8")
    body = "\n<hr>\n".join(parts)
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>glassgrad figures</title>\n'
        f"<style>\nbody {{ font-family: system-ui, sans-serif; max-width: 75rem; margin: 1rem auto; padding: 0 1rem; }}\n"
        f"{stylesheet_text()}\n{animate_css}</style></head>\n<body>\n{body}\n"
        f"<script>\n{script_text()}</script>\n</body></html>\n"
    )

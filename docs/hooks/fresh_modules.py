"""MkDocs hook: every build imports glassgrad afresh and starts every page with empty exec sessions.

`mkdocs serve` keeps one Python process alive across rebuilds. Without this hook, an edit to
`src/glassgrad/` would be ignored (the old modules stay in `sys.modules`) and markdown-exec
sessions would keep objects built by the previous build's engine.
"""

from __future__ import annotations

import sys
from typing import Any


def _drop_glassgrad_modules() -> None:
    """Forget every imported `glassgrad` module so the next `import glassgrad` reads the source again."""
    for name in [name for name in sys.modules if name == "glassgrad" or name.startswith("glassgrad.")]:
        del sys.modules[name]


def _clear_exec_sessions() -> None:
    """Empty markdown-exec's session globals and block counters (private state, hence the guard)."""
    try:
        from markdown_exec._internal.formatters import python as exec_python
    except ImportError:  # a markdown-exec without this layout: nothing cached to clear
        return
    for state in ("_sessions_globals", "_sessions_counter", "_code_blocks"):
        cache = getattr(exec_python, state, None)
        if cache is not None:
            cache.clear()


def on_pre_build(config: Any) -> None:
    """Before each (re)build: reload the engine from disk."""
    _drop_glassgrad_modules()
    _clear_exec_sessions()


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Before each page: start from empty sessions, so a page never sees another page's variables."""
    _clear_exec_sessions()
    return markdown

"""MkDocs hook: every build imports glassgrad afresh and starts every page with empty exec sessions.

`mkdocs serve` keeps one Python process alive across rebuilds. Without this hook, an edit to
`src/glassgrad/` would be ignored (the old modules stay in `sys.modules`) and markdown-exec
sessions would keep objects built by the previous build's engine.

`mkdocs serve --dirty` (`make serve`) rebuilds only the pages whose file changed; this hook also
rebuilds a page when a file it includes (``--8<--``) or the engine changed since it was built.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Any

INCLUDE = re.compile(r"""^\s*-+8<-+\s+["']?([^"':\s]+)""", re.MULTILINE)

_dirty = False


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


def on_startup(command: str, dirty: bool) -> None:
    """Remember whether builds are dirty (`mkdocs serve --dirty`)."""
    global _dirty
    _dirty = dirty


def _newest_input(path: Path, root: Path, seen: set[Path]) -> float:
    """The latest modification time of `path` and of the files it includes, recursively (paths from `root`)."""
    seen.add(path)
    newest = path.stat().st_mtime
    for name in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
        included = root / name
        if included.is_file() and included not in seen:
            newest = max(newest, _newest_input(included, root, seen))
    return newest


def on_files(files: Any, config: Any) -> Any:
    """In a dirty build, forget the built page of every page whose includes or engine changed, so it is built again."""
    if not _dirty:
        return files
    spec = importlib.util.find_spec("glassgrad")
    package = Path(next(iter(spec.submodule_search_locations))) if spec and spec.submodule_search_locations else None
    engine = max((path.stat().st_mtime for path in package.rglob("*.py")), default=0.0) if package else 0.0
    root = Path(config.config_file_path).parent
    for file in files.documentation_pages():
        if file.abs_src_path is None or not os.path.isfile(file.abs_dest_path):
            continue
        built = os.path.getmtime(file.abs_dest_path)
        if built < engine or built < _newest_input(Path(file.abs_src_path), root, set()):
            os.remove(file.abs_dest_path)
    return files

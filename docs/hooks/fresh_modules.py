"""MkDocs hook: every build imports glassgrad afresh.

`mkdocs serve` keeps one Python process alive across rebuilds. Without this hook, an edit to
`src/glassgrad/` would be ignored (the old modules stay in `sys.modules`). Each page's markdown-exec
sessions are new in each build (docs/hooks/exec_errors.py names them per page and build).

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


def on_pre_build(config: Any) -> None:
    """Before each (re)build: import the engine from disk again."""
    _drop_glassgrad_modules()


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

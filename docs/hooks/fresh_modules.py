"""MkDocs hook: every build imports glassgrad afresh, and `mkdocs serve --dirty` rebuilds what an edit touched.

`mkdocs serve` keeps one Python process across rebuilds, so without this hook an edit to `src/glassgrad/`
would be ignored (the old modules stay in `sys.modules`). A dirty build rebuilds only the pages whose file
changed; this hook adds the pages whose included files (``--8<--``) or engine changed since they were built.
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


def on_startup(command: str, dirty: bool) -> None:
    global _dirty
    _dirty = dirty


# The formulas' Markdown extension (mkdocs.yml) is imported when the config is loaded, before this hook runs:
# kept loaded, so that a broken engine shows on the pages that use it instead of stopping every rebuild.
KEEP = {"glassgrad_site.mathml"}


def on_pre_build(config: Any) -> None:
    for name in [name for name in sys.modules if name == "glassgrad" or name.startswith("glassgrad.")]:
        if name not in KEEP:
            del sys.modules[name]


def _newest_input(path: Path, root: Path, seen: set[Path]) -> float:
    """The latest modification time of `path` and of the files it includes, recursively (paths from `root`)."""
    seen.add(path)
    newest = path.stat().st_mtime
    for name in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
        if (root / name).is_file() and root / name not in seen:
            newest = max(newest, _newest_input(root / name, root, seen))
    return newest


def on_files(files: Any, config: Any) -> Any:
    """In a dirty build, delete the built page of every page whose includes or engine changed, so it is built again."""
    if not _dirty:
        return files
    spec = importlib.util.find_spec("glassgrad")
    package = Path(next(iter(spec.submodule_search_locations))) if spec and spec.submodule_search_locations else None
    engine = max((path.stat().st_mtime for path in package.rglob("*.py")), default=0.0) if package else 0.0
    root = Path(config.config_file_path).parent
    for file in files.documentation_pages():
        if file.abs_src_path and os.path.isfile(file.abs_dest_path):
            built = os.path.getmtime(file.abs_dest_path)
            if built < engine or built < _newest_input(Path(file.abs_src_path), root, set()):
                os.remove(file.abs_dest_path)
    return files

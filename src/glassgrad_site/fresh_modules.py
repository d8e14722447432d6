"""Every build imports the project's packages afresh, and `serve --dirty` rebuilds what an edit touched (the hook:
docs/hooks/fresh_modules.py, first in mkdocs.yml).

`mkdocs serve` keeps one Python process across rebuilds, so without this hook an edit under `src/` (`make serve`
watches it whole) would be ignored (the old modules stay in `sys.modules`). Every package the pages import is
dropped before each build: glassgrad, glassgrad_runtime (which runs the playground's programs) and glassgrad_site.
While serving, the playground's bundle (docs/assets/playground/glassgrad.zip, what the browser's Python imports) is
rebuilt by scripts/site_assets.py, so the served page runs the edited engine and runtime without a restart.
A dirty build rebuilds only the pages whose file changed; this hook adds the pages whose included files
(``--8<--``) or packages changed since they were built.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

INCLUDE = re.compile(r"""^\s*-+8<-+\s+["']?([^"':\s]+)""", re.MULTILINE)

PACKAGES = ("glassgrad", "glassgrad_runtime", "glassgrad_site")
"""The project's packages under src/ that the pages import (at build time or, bundled, in the browser)."""

_dirty = False
_serving = False


def on_startup(command: str, dirty: bool) -> None:
    global _dirty, _serving
    _dirty = dirty
    _serving = command == "serve"


# The formulas' Markdown extension (mkdocs.yml) is imported when the config is loaded, before this hook runs:
# kept loaded, so that a broken engine shows on the pages that use it instead of stopping every rebuild. The failed
# blocks' watch (glassgrad_site.exec_errors) and this module are kept too: they hold their state across builds.
KEEP = {"glassgrad_site.mathml", "glassgrad_site.exec_errors", "glassgrad_site.fresh_modules"}


def on_pre_build(config: Any) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] in PACKAGES]:
        if name not in KEEP:
            del sys.modules[name]
    if _serving:
        _rebuild_playground_bundle(Path(config.config_file_path).parent)


def _rebuild_playground_bundle(root: Path) -> None:
    """scripts/site_assets.py's bundle, written only when its bytes change (so an unrelated edit rebuilds nothing).

    Raises:
        PluginError: the script is missing, or cannot make the bundle (its own message says why).
    """
    script = root / "scripts" / "site_assets.py"
    if not script.is_file():
        raise PluginError(
            f"serving rebuilds the playground's bundle with scripts/site_assets.py, which {root.resolve()} does not hold: "
            "serve from a checkout of the project (the script needs pyproject.toml too)"
        )
    spec = importlib.util.spec_from_file_location("_glassgrad_site_assets", script)
    assert spec is not None and spec.loader is not None  # a .py file that exists always has a loader
    site_assets = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(site_assets)
        site_assets.write_if_changed(site_assets.BUNDLE, site_assets.playground_bundle())
    except (OSError, SystemExit) as error:  # a file it reads is missing, or it names what is (sys.exit)
        raise PluginError(f"scripts/site_assets.py could not rebuild the playground's bundle: {error}") from error


def _newest_package_files() -> dict[str, float]:
    """The latest modification time of each project package's files, by package name."""
    newest = dict.fromkeys(PACKAGES, 0.0)
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            newest[name] = max(
                [newest[name], *(path.stat().st_mtime for path in Path(folder).rglob("*") if path.is_file())]
            )
    return newest


def _inputs(path: Path, root: Path, seen: set[Path]) -> set[Path]:
    """`path` and the files it includes, recursively (paths from `root`)."""
    seen.add(path)
    for name in INCLUDE.findall(path.read_text(encoding="utf-8", errors="replace")):
        if (root / name).is_file() and root / name not in seen:
            _inputs(root / name, root, seen)
    return seen


def on_files(files: Any, config: Any) -> Any:
    """In a dirty build, delete the built page of every page whose includes or packages changed, so it is built again.

    Every page uses glassgrad; the other packages count for the pages whose text (includes too) names them, so an
    edit to the runtime rebuilds the playground's pages and the bundle, not the whole site (seconds, not half a minute).
    """
    if not _dirty:
        return files
    packages = _newest_package_files()
    root = Path(config.config_file_path).parent
    for file in files.documentation_pages():
        if file.abs_src_path and os.path.isfile(file.abs_dest_path):
            built = os.path.getmtime(file.abs_dest_path)
            inputs = _inputs(Path(file.abs_src_path), root, set())
            text = "".join(path.read_text(encoding="utf-8", errors="replace") for path in inputs)
            used = [name for name in PACKAGES if name == "glassgrad" or name in text]
            if built < max(path.stat().st_mtime for path in inputs) or any(built < packages[name] for name in used):
                os.remove(file.abs_dest_path)
    return files

"""MkDocs hook: publish the files the site needs from packages, never copied into `docs/`.

- The CSS and JS that ship inside `glassgrad.viz`, linked from every page, under `assets/glassgrad/`
  (the package's files stay the single source of truth; Jupyter uses the same ones).
- The playground's runtime under `assets/playground/`: Pyodide, Graphviz compiled to WebAssembly
  (`@viz-js/viz`) and the DOMPurify sanitizer, from the npm packages `make setup` unpacks into `.cache/npm/`, and one zip of
  what the reader's browser runs: glassgrad's source, the pure-Python `graphviz` package, the
  playground's runner (`docs/snippets/playground/runner.py`) and its per-run sandbox
  (`docs/snippets/playground/sandbox.py`).
"""

from __future__ import annotations

import importlib.util
import io
import logging
import zipfile
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File

SITE_FOLDER = "assets/glassgrad"
PLAYGROUND_FOLDER = "assets/playground"
PLAYGROUND_SCRIPT = "javascripts/playground.js"
PLAYGROUND_PAGE = "playground.md"
NPM_CACHE = ".cache/npm"  # where scripts/setup.sh unpacks each npm package (a folder holding `package/`)
NPM_FILES = {  # the files the playground loads; the rest of each package is never published
    "pyodide": ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"],
    "viz": ["dist/viz.js"],
    "dompurify": ["dist/purify.es.mjs"],  # the page passes every HTML/SVG fragment from the worker through it
}
BUNDLED = {  # module name in the browser's Python -> its source in this repository
    "playground_runner.py": "docs/snippets/playground/runner.py",
    "playground_sandbox.py": "docs/snippets/playground/sandbox.py",
}

log = logging.getLogger("mkdocs.hooks.package_assets")


def _package_folder(name: str) -> Path | None:
    """Folder of an importable package (found without importing it)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _package_assets() -> list[Path]:
    """The stylesheets and scripts of the `glassgrad.viz` the build imports, sorted for a stable link order."""
    package = _package_folder("glassgrad")
    return sorted([*package.glob("viz/*.css"), *package.glob("viz/*.js")]) if package else []


def _playground_bundle(config_dir: Path) -> bytes:
    """One zip, unpacked into the browser's Python path: glassgrad, graphviz and the runner (same bytes every build)."""
    members: list[tuple[str, Path]] = []
    for name in ("glassgrad", "graphviz"):
        folder = _package_folder(name)
        if folder is None:
            raise RuntimeError(f"the playground needs the {name!r} package importable at build time")
        members += [
            (f"{name}/{path.relative_to(folder).as_posix()}", path)
            for path in folder.rglob("*")
            if path.is_file() and path.suffix in {".py", ".css", ".js", ".typed"}
        ]
    members += [(arcname, config_dir / source) for arcname, source in BUNDLED.items()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for arcname, path in sorted(members):
            bundle.writestr(zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0)), path.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def on_config(config: Any) -> Any:
    """Link each package stylesheet (before the site's own) and script from every page, and the playground's script."""
    assets = _package_assets()
    stylesheets = [f"{SITE_FOLDER}/{path.name}" for path in assets if path.suffix == ".css"]
    scripts = [f"{SITE_FOLDER}/{path.name}" for path in assets if path.suffix == ".js"]
    config.extra_css[:0] = [uri for uri in stylesheets if uri not in config.extra_css]
    config.extra_javascript.extend(uri for uri in scripts if uri not in config.extra_javascript)
    if PLAYGROUND_SCRIPT not in config.extra_javascript:
        config.extra_javascript.append(PLAYGROUND_SCRIPT)  # does nothing on pages without a playground
    return config


def on_files(files: Any, config: Any) -> Any:
    """Add the package's files and the playground's runtime to the build, read from where they are installed."""
    for path in _package_assets():
        uri = f"{SITE_FOLDER}/{path.name}"
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    if files.get_file_from_path(PLAYGROUND_PAGE) is None:
        return files  # a site without the playground (a trimmed test build) needs no runtime
    config_dir = Path(config.config_file_path).parent
    for package, names in NPM_FILES.items():
        for name in names:
            path = config_dir / NPM_CACHE / package / "package" / name
            if not path.is_file():
                log.warning("the playground needs %s: run `make setup` (it unpacks the npm packages into %s)", path, NPM_CACHE)
                continue
            files.append(File.generated(config, f"{PLAYGROUND_FOLDER}/{package}/{Path(name).name}", abs_src_path=str(path)))
    files.append(File.generated(config, f"{PLAYGROUND_FOLDER}/glassgrad.zip", content=_playground_bundle(config_dir)))
    return files

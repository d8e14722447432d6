"""MkDocs hook: publish the CSS and JS that ship inside `glassgrad.viz` and link them from every page.

The package's files stay the single source of truth (Jupyter uses the same ones): they are added to
the build as generated files under `assets/glassgrad/`, never copied into `docs/`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File

SITE_FOLDER = "assets/glassgrad"


def _viz_folder() -> Path | None:
    """Folder of the `glassgrad.viz` package that the build imports (found without importing it)."""
    spec = importlib.util.find_spec("glassgrad")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "viz"
    return folder if folder.is_dir() else None


def _package_assets() -> list[Path]:
    """The package's stylesheets and scripts, sorted so the page's link order is stable."""
    folder = _viz_folder()
    if folder is None:
        return []
    return sorted([*folder.glob("*.css"), *folder.glob("*.js")])


def on_config(config: Any) -> Any:
    """Link each package stylesheet (before the site's own) and script from every page."""
    assets = _package_assets()
    stylesheets = [f"{SITE_FOLDER}/{path.name}" for path in assets if path.suffix == ".css"]
    scripts = [f"{SITE_FOLDER}/{path.name}" for path in assets if path.suffix == ".js"]
    config.extra_css[:0] = [uri for uri in stylesheets if uri not in config.extra_css]
    config.extra_javascript.extend(uri for uri in scripts if uri not in config.extra_javascript)
    return config


def on_files(files: Any, config: Any) -> Any:
    """Add the package's files to the build, read from the package folder itself."""
    for path in _package_assets():
        uri = f"{SITE_FOLDER}/{path.name}"
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files

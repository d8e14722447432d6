"""Shared pytest fixtures: the documentation site is built once per test session.

Use the `built_site` fixture (a `pathlib.Path` to the built site) and `page_html(site, "chapters/1-pytorch/")`
to read one page. Tests that build the site carry the `site` marker (`pytest -m "not site"` skips them).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
"""The repository root (holds mkdocs.yml, docs/ and src/)."""


def build_site(
    root: Path, destination: Path, *, pythonpath: Path | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` on the tree at `root` into `destination`, in a fresh process.

    Args:
        root: folder holding ``mkdocs.yml`` (the build runs there, so relative paths resolve in that tree).
        destination: output folder for the site.
        pythonpath: a ``src`` folder to import glassgrad from instead of the installed one.
        check: raise `AssertionError` with the build's log when it fails.

    Returns:
        The finished process, with ``stdout``/``stderr`` captured as text.
    """
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if pythonpath is not None:
        # PYTHONPATH comes before the editable install, so the copy's engine is the one imported.
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "mkdocs.yml", "-d", str(destination)]
    finished = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    if check and finished.returncode != 0:
        log = finished.stdout + finished.stderr
        # One line per problem first (the hooks put the page and block in it), then the whole log.
        headlines = [line for line in log.splitlines() if line.startswith(("WARNING", "ERROR"))]
        raise AssertionError(f"mkdocs build failed in {root}:\n" + "\n".join(headlines) + f"\n\n{log}")
    return finished


def page_html(site: Path, page: str) -> str:
    """The HTML of one built page, by its URL inside the site (``""`` for Home, ``"chapters/1-pytorch/"``)."""
    path = site / page / "index.html" if not page.endswith(".html") else site / page
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole site, built once per test session from this checkout with ``--strict``."""
    destination = tmp_path_factory.mktemp("site") / "site"
    build_site(REPO, destination)
    return destination

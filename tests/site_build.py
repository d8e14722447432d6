"""Builds of the documentation site, in a process of their own: of this checkout (conftest.py's `built_site`) or
of a copy trimmed to a few pages (`copy_tree`, `keep_only_pages`), for the tests that build a site of their own."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from helpers import REPO, load_module

_server = load_module("scripts/site_server.py")
published_path = _server.published_path
serving = _server.serving

BUILD_TIMEOUT = 600
"""Seconds one ``mkdocs build`` may take before the test fails (a build takes about a minute here)."""


@dataclass
class SiteBuild:
    """A ``mkdocs build --strict`` running in its own process (see `start_build`); `finish` waits for it."""

    root: Path
    destination: Path
    process: subprocess.Popen[str]
    log: IO[str]  # output goes to a file: a full pipe would stall the build

    def finish(self, *, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Wait for the build; return it like `subprocess.run` would (``stdout`` holds the whole log).

        Raises `AssertionError` with one line per problem, then the whole log, when `check` and it failed.
        """
        try:
            returncode = self.process.wait(timeout=BUILD_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise
        finally:
            self.log.seek(0)
            output = self.log.read()
            self.log.close()
        finished = subprocess.CompletedProcess(self.process.args, returncode, output, "")
        if check and returncode != 0:
            # One line per problem first (the hooks put the page and block in it), then the whole log.
            headlines = [line for line in output.splitlines() if line.startswith(("WARNING", "ERROR"))]
            raise AssertionError(f"mkdocs build failed in {self.root}:\n" + "\n".join(headlines) + f"\n\n{output}")
        return finished


def start_build(root: Path, destination: Path, *, pythonpath: Path | None = None, notebook: bool = True) -> SiteBuild:
    """Start ``mkdocs build --strict`` on the tree at `root` into `destination`, in a fresh process.

    Args:
        root: folder holding ``mkdocs.yml`` (the build runs there, so relative paths resolve in that tree).
        destination: output folder for the site.
        pythonpath: a ``src`` folder to import glassgrad from instead of the installed one.
        notebook: execute the notebook page (``False``: the page shows its code only).

    Returns:
        The running build; call its ``finish()`` to wait for it.
    """
    # Its own notebook cache: two builds at once must not evict each other's entries.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NOTEBOOK_CACHE_DIR": str(destination) + "-notebook-cache"}
    if not notebook:
        env["NOTEBOOK_EXECUTE"] = "false"
    if pythonpath is not None:
        # PYTHONPATH comes before the editable install, so the copy's engine is the one imported.
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "properdocs", "build", "--strict", "-f", "mkdocs.yml", "-d", str(destination)]
    log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
    process = subprocess.Popen(
        command, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, text=True
    )
    return SiteBuild(root, destination, process, log)


def build_site(
    root: Path, destination: Path, *, pythonpath: Path | None = None, check: bool = True, notebook: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` on the tree at `root` into `destination`, in a fresh process, and wait.

    Args:
        root: folder holding ``mkdocs.yml`` (the build runs there, so relative paths resolve in that tree).
        destination: output folder for the site.
        pythonpath: a ``src`` folder to import glassgrad from instead of the installed one.
        check: raise `AssertionError` with the build's log when it fails.
        notebook: execute the notebook page (``False``: the page shows its code only).

    Returns:
        The finished process; ``stdout`` holds its whole log (stderr merged in), ``stderr`` is empty.
    """
    return start_build(root, destination, pythonpath=pythonpath, notebook=notebook).finish(check=check)


def copy_tree(destination: Path) -> Path:
    """Copy what the build reads (mkdocs.yml, docs/ with the files `make setup` put there, src/) into `destination`."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".ipynb_checkpoints")
    destination.mkdir(parents=True, exist_ok=True)
    shutil.copy2(REPO / "mkdocs.yml", destination / "mkdocs.yml")
    for folder in ("docs", "src"):
        shutil.copytree(REPO / folder, destination / folder, ignore=ignore)
    return destination


def keep_only_pages(tree: Path, pages: list[str]) -> None:
    """Trim the copied `tree` to `pages` (paths under docs/): a quicker build, whose pages are as in the full site.

    Every other page keeps only its front matter and title, so the nav, the sidebar and every link stay the same
    while the build runs no code of theirs.
    """
    for page in (tree / "docs").rglob("*.md"):
        relative = page.relative_to(tree / "docs").as_posix()
        if relative in pages or relative.startswith(("hooks/", "snippets/")):
            continue
        text = page.read_text(encoding="utf-8")
        front_matter = re.match(r"---\n.*?\n---\n", text, re.DOTALL)
        title = re.search(r"^# .*$", text, re.MULTILINE)
        page.write_text(
            (front_matter[0] if front_matter else "") + (title[0] if title else "") + "\n", encoding="utf-8"
        )

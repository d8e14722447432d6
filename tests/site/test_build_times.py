"""scripts/build_times.py on a machine that never ran the set-up: its copy still gets the playground's npm packages."""

from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def load_build_times():
    spec = importlib.util.spec_from_file_location("build_times", REPO / "scripts" / "build_times.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_copy_gets_the_npm_packages_setup_fetches_on_a_new_machine(tmp_path) -> None:
    repo, copy = tmp_path / "repo", tmp_path / "copy"
    (repo / "scripts").mkdir(parents=True)
    (repo / "mkdocs.yml").write_text("site_name: x\n")
    # What scripts/setup.sh does for the npm packages, without the network: install into node_modules.
    (repo / "scripts" / "setup.sh").write_text(
        "mkdir -p node_modules/pyodide && echo pyodide@1 > node_modules/pyodide/.version\n"
    )
    (repo / ".gitignore").write_text("node_modules/\n")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    assert not (repo / "node_modules").exists()  # a fresh clone: no npm packages yet
    copy.mkdir()
    load_build_times().copy_project(copy, repo)
    assert (copy / "mkdocs.yml").read_text() == "site_name: x\n"
    assert (copy / "node_modules" / "pyodide" / ".version").read_text() == "pyodide@1\n"

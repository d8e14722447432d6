"""The playground's bundle (scripts/site_assets.py), unpacked onto a bare Python's path as Pyodide unpacks it."""

from __future__ import annotations

import io
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from helpers import REPO, load_module

site_assets = load_module("scripts/site_assets.py")


def test_glassgrad_version_works_from_the_bundle_alone(tmp_path: Path) -> None:
    """`glassgrad.__version__` reads the bundle's metadata: no site-packages (-S), no environment (-I), only the zip."""
    with zipfile.ZipFile(io.BytesIO(site_assets.playground_bundle())) as bundle:
        bundle.extractall(tmp_path)
    probe = (
        "import sys; sys.path.insert(0, '.'); import glassgrad; print(glassgrad.__file__); print(glassgrad.__version__)"
    )
    finished = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert finished.returncode == 0, finished.stderr
    where, version = finished.stdout.split()
    assert Path(where) == tmp_path / "glassgrad" / "__init__.py"
    assert version == tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]

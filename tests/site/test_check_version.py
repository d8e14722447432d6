"""scripts/check_version.py: the version written in pyproject.toml is the one CITATION.cff, the release's tag
and CHANGELOG.md name, and the one `glassgrad.__version__` reports."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from helpers import REPO

import glassgrad

SCRIPT = REPO / "scripts" / "check_version.py"


def pyproject_version() -> str:
    with (REPO / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)["project"]["version"]


def check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, timeout=60)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the files the check reads, to edit."""
    for name in ("pyproject.toml", "CITATION.cff", "CHANGELOG.md"):
        shutil.copy2(REPO / name, tmp_path / name)
    return tmp_path


def test_this_checkout_agrees_and_the_package_reports_that_version() -> None:
    finished = check()
    assert finished.returncode == 0, finished.stderr
    assert glassgrad.__version__ == pyproject_version()


def test_a_citation_left_behind_fails_naming_both_versions(project: Path) -> None:
    citation = project / "CITATION.cff"
    version = pyproject_version()
    citation.write_text(citation.read_text().replace(f"version: {version}", "version: 0.0.9"))
    finished = check("--root", str(project))
    assert finished.returncode == 1
    assert f"CITATION.cff says version 0.0.9, pyproject.toml says {version}" in finished.stderr


def test_a_release_needs_its_tag_and_a_changelog_section(project: Path) -> None:
    version = pyproject_version()
    changelog = project / "CHANGELOG.md"
    changelog.write_text(
        changelog.read_text().replace("## [Unreleased]", f"## [Unreleased]\n\n## [{version}] - 2026-12-04")
    )
    assert check("--root", str(project), f"v{version}").returncode == 0
    wrong_tag = check("--root", str(project), "v9.9.9")
    assert wrong_tag.returncode == 1 and f"the tag v9.9.9 is not v{version}" in wrong_tag.stderr
    changelog.write_text(changelog.read_text().replace(f"## [{version}]", "## [0.0.1]"))
    no_section = check("--root", str(project), f"v{version}")
    assert no_section.returncode == 1 and f"CHANGELOG.md has no section '## [{version}]'" in no_section.stderr


def test_an_unknown_attribute_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'version'"):
        glassgrad.version  # noqa: B018 - the attribute access is the test

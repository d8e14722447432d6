"""The version is written once, in pyproject.toml; check that the files that repeat it agree.

- CITATION.cff's ``version:`` (GitHub's "Cite this repository" shows it) is the package's version;
- with a tag (release.yml passes the pushed one, ``v0.1.0``): the tag is ``v`` + that version, and
  CHANGELOG.md has a ``## [0.1.0]`` section.

``glassgrad.__version__`` needs no check: it reads the installed package's metadata, made from pyproject.toml.

Usage: python scripts/check_version.py [--root FOLDER] [TAG]   (exit 1, one line per disagreement)
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITATION_VERSION = re.compile(r"""^version:\s*["']?(?P<version>[^"'\s#]+)""", re.MULTILINE)


def disagreements(root: Path, tag: str | None = None) -> list[str]:
    """What disagrees with pyproject.toml's version under `root` (and with `tag`, when given)."""
    with (root / "pyproject.toml").open("rb") as file:
        version = tomllib.load(file)["project"]["version"]
    found = []
    citation = CITATION_VERSION.search((root / "CITATION.cff").read_text(encoding="utf-8"))
    if citation is None:
        found.append(f"CITATION.cff has no version: (pyproject.toml says {version})")
    elif citation["version"] != version:
        found.append(f"CITATION.cff says version {citation['version']}, pyproject.toml says {version}")
    if tag is not None:
        if tag != f"v{version}":
            found.append(f"the tag {tag} is not v{version}, the version in pyproject.toml")
        changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
        if not re.search(rf"^## \[{re.escape(version)}\]", changelog, re.MULTILINE):
            found.append(f"CHANGELOG.md has no section '## [{version}]'")
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tag", nargs="?", help="the release's tag, v + the version")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project's folder (default: this checkout)")
    arguments = parser.parse_args(argv)
    found = disagreements(arguments.root, arguments.tag)
    for line in found:
        print(f"check_version: {line}", file=sys.stderr)
    if not found:
        print(
            "check_version: pyproject.toml, CITATION.cff"
            + (", the tag and CHANGELOG.md" if arguments.tag else "")
            + " agree"
        )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

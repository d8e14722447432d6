"""Put into docs/ the files the site serves that git does not hold (all git-ignored); `make setup` runs it.

- The npm packages of package.json, exactly as package-lock.json locks them (versions and integrity hashes):
  `npm ci` installs them into node_modules/ (again only when the lock changed), and the files listed under
  "glassgrad" > "publish" are copied from there to their place under docs/ (the math font; Pyodide, Graphviz
  in WebAssembly and DOMPurify for the playground).
- docs/assets/playground/glassgrad.zip: what the playground's Python imports in the reader's browser:
  glassgrad's source, the pure-Python `graphviz` package, glassgrad_runtime, which runs the reader's
  programs (src/glassgrad_runtime/), and glassgrad_site (the lab's model, the explorers' frames; same bytes for
  the same sources), with glassgrad's distribution metadata
  (`glassgrad-VERSION.dist-info/METADATA`, the version from pyproject.toml), so `glassgrad.__version__`, which reads
  the installed metadata, works in the browser too.

Any builder (MkDocs, Zensical) then publishes them as ordinary files of docs/. A file is rewritten only
when its bytes change, so a running `make serve` rebuilds nothing for it.

Usage: python scripts/site_assets.py [--installed]   (--installed: exit 1 if the lock still needs `npm ci`)
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NODE_MODULES = ROOT / "node_modules"
NPM_STAMP = NODE_MODULES / ".glassgrad-lock.sha256"  # the hash of the package-lock.json `npm ci` installed
BUNDLE = DOCS / "assets" / "playground" / "glassgrad.zip"
BUNDLED_PACKAGES = ("glassgrad", "glassgrad_runtime", "glassgrad_site", "graphviz")
BUNDLED_SUFFIXES = {".py", ".css", ".js", ".typed"}


def npm_packages() -> list[tuple[str, str, dict[str, str]]]:
    """(name, version, {file in the package: path under docs/}) for each package of package.json."""
    manifest = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    publish = manifest["glassgrad"]["publish"]
    return [(name, version, publish.get(name, {})) for name, version in manifest["dependencies"].items()]


def lock_digest() -> str:
    return hashlib.sha256((ROOT / "package-lock.json").read_bytes()).hexdigest()


def npm_installed() -> bool:
    """Whether node_modules/ holds what package-lock.json locks (installed by `npm ci` from this very lock)."""
    return NPM_STAMP.is_file() and NPM_STAMP.read_text(encoding="utf-8").strip() == lock_digest()


def install_npm_packages() -> None:
    """`npm ci`: exactly the lock's versions, each checked against its integrity hash; no install scripts run."""
    if npm_installed():
        return
    if shutil.which("npm") is None:
        sys.exit("error: npm is needed to install the site's npm packages (install the Debian package 'npm')")
    print("==> installing the npm packages of package-lock.json (npm ci)")
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    NPM_STAMP.write_text(lock_digest() + "\n", encoding="utf-8")


def write_if_changed(path: Path, content: bytes) -> None:
    if path.is_file() and path.read_bytes() == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def publish_npm_packages() -> None:
    install_npm_packages()
    for name, version, files in npm_packages():
        installed = json.loads((NODE_MODULES / name / "package.json").read_text(encoding="utf-8"))["version"]
        if installed != version:
            sys.exit(f"error: node_modules has {name}@{installed}, package.json asks for {version}: run npm install")
        for member, destination in files.items():
            source = NODE_MODULES / name / member
            if not source.is_file():
                sys.exit(f"error: {name}@{version} has no file {member} (package.json, glassgrad > publish)")
            write_if_changed(DOCS / destination, source.read_bytes())


def package_folder(name: str) -> Path:
    """Folder of an importable package (found without importing it)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"error: the playground bundle needs the {name!r} package: run make setup")
    return Path(next(iter(spec.submodule_search_locations)))


def distribution_metadata() -> tuple[str, bytes]:
    """(path in the bundle, content) of glassgrad's METADATA: what importlib.metadata reads for the version."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    content = f"Metadata-Version: 2.4\nName: {project['name']}\nVersion: {project['version']}\n"
    return f"{project['name']}-{project['version']}.dist-info/METADATA", content.encode()


def playground_bundle() -> bytes:
    """One zip, unpacked into the browser's Python path: glassgrad (with its metadata), glassgrad_runtime, graphviz."""
    members: list[tuple[str, Path]] = []
    for name in BUNDLED_PACKAGES:
        folder = package_folder(name)
        where = name.replace(".", "/")
        for depth in range(1, name.count(".") + 1):  # a part of a package: its parents' __init__.py too
            parent = ".".join(name.split(".")[:depth])
            members.append((f"{parent.replace('.', '/')}/__init__.py", package_folder(parent) / "__init__.py"))
        members += [
            (f"{where}/{path.relative_to(folder).as_posix()}", path)
            for path in folder.rglob("*")
            if path.is_file() and path.suffix in BUNDLED_SUFFIXES
        ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for arcname, path in sorted(members):
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            bundle.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
        metadata_name, metadata = distribution_metadata()
        bundle.writestr(zipfile.ZipInfo(metadata_name, date_time=(1980, 1, 1, 0, 0, 0)), metadata, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    if "--installed" in argv:
        return 0 if npm_installed() else 1
    publish_npm_packages()
    write_if_changed(BUNDLE, playground_bundle())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

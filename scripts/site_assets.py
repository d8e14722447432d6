"""Put into docs/ the files the site serves that git does not hold (all git-ignored); `make setup` runs it.

- The npm packages of package.json, by exact version: each is `npm pack`ed once into .cache/npm/ and the
  files listed under "glassgrad" > "publish" are copied out of the tarball to their place under docs/
  (the math font; Pyodide, Graphviz in WebAssembly and DOMPurify for the playground).
- docs/assets/playground/glassgrad.zip: what the playground's Python imports in the reader's browser:
  glassgrad's source, the pure-Python `graphviz` package and the playground's runner and sandbox
  (docs/snippets/playground/; same bytes for the same sources).

Any builder (MkDocs, Zensical) then publishes them as ordinary files of docs/. A file is rewritten only
when its bytes change, so a running `make serve` rebuilds nothing for it.

Usage: python scripts/site_assets.py [--unpacked]   (--unpacked: exit 1 if a package still needs `npm pack`)
"""

from __future__ import annotations

import importlib.util
import io
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NPM_CACHE = ROOT / ".cache" / "npm"
BUNDLE = DOCS / "assets" / "playground" / "glassgrad.zip"
BUNDLED_FILES = {  # module name in the browser's Python -> its source in this repository
    "playground_runner.py": DOCS / "snippets" / "playground" / "runner.py",
    "playground_sandbox.py": DOCS / "snippets" / "playground" / "sandbox.py",
}
BUNDLED_PACKAGES = ("glassgrad", "glassgrad_runtime", "graphviz")
BUNDLED_SUFFIXES = {".py", ".css", ".js", ".typed"}


def npm_packages() -> list[tuple[str, str, dict[str, str]]]:
    """(name, version, {file in the package: path under docs/}) for each package of package.json."""
    manifest = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    publish = manifest["glassgrad"]["publish"]
    return [(name, version, publish.get(name, {})) for name, version in manifest["dependencies"].items()]


def tarball(name: str, version: str) -> Path:
    """Where `npm pack NAME@VERSION` leaves its tarball (npm's own file name)."""
    return NPM_CACHE / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def write_if_changed(path: Path, content: bytes) -> None:
    if path.is_file() and path.read_bytes() == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def publish_npm_packages() -> None:
    for name, version, files in npm_packages():
        packed = tarball(name, version)
        if not packed.is_file():
            if shutil.which("npm") is None:
                sys.exit(f"error: npm is needed to fetch {name}@{version} (install the Debian package 'npm')")
            print(f"==> fetching the npm package {name}@{version}")
            NPM_CACHE.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                ["npm", "pack", "--silent", f"{name}@{version}"], cwd=NPM_CACHE, check=True, stdout=subprocess.DEVNULL
            )
        with tarfile.open(packed) as archive:
            for member, destination in files.items():
                source = archive.extractfile(f"package/{member}")
                if source is None:
                    sys.exit(f"error: {name}@{version} has no file {member} (package.json, glassgrad > publish)")
                write_if_changed(DOCS / destination, source.read())


def package_folder(name: str) -> Path:
    """Folder of an importable package (found without importing it)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"error: the playground bundle needs the {name!r} package: run make setup")
    return Path(next(iter(spec.submodule_search_locations)))


def playground_bundle() -> bytes:
    """One zip, unpacked into the browser's Python path: glassgrad, graphviz and the runner."""
    members: list[tuple[str, Path]] = []
    for name in BUNDLED_PACKAGES:
        folder = package_folder(name)
        members += [
            (f"{name}/{path.relative_to(folder).as_posix()}", path)
            for path in folder.rglob("*")
            if path.is_file() and path.suffix in BUNDLED_SUFFIXES
        ]
    members += list(BUNDLED_FILES.items())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for arcname, path in sorted(members):
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            bundle.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    if "--unpacked" in argv:
        return 0 if all(tarball(name, version).is_file() for name, version, _ in npm_packages()) else 1
    publish_npm_packages()
    write_if_changed(BUNDLE, playground_bundle())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

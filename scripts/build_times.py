"""The author's loop, timed: a cold `make build`, and `make serve` from a saved file to the new page.

Works on a copy of the repository (its tracked and untracked files, without .venv or caches), so
nothing of yours is edited, and runs the very commands the Makefile runs (`make -n build`,
`make -n serve`, with this interpreter). Reports, in seconds:

- cold build: `mkdocs build --strict` with no mkdocs-jupyter cache (the notebook runs);
- page edit: the largest chapter page saved, until the served page shows the change (target: 5 s);
- engine edit: a docstring in src/glassgrad saved, until the API reference shows it.

Usage: ``python scripts/build_times.py [--edits N]``. A measurement, not a test: it prints the
times against the targets and exits non-zero only if the build fails or a change never appears.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ENGINE_FUNCTION = "\ndef backward("  # glassgrad.backward: its docstring is on the API reference page
REFERENCE_URL = "reference/"
COLD_BUILD_TARGET, PAGE_EDIT_TARGET = 20.0, 5.0
GIVE_UP = 180.0


def copy_project(destination: Path) -> None:
    """The repository's working files (tracked and untracked, not ignored) copied under `destination`."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file() and not source.is_symlink():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    if (REPO / ".cache" / "npm").is_dir():  # the playground's runtime, fetched by `make setup` (ignored by git)
        (destination / ".cache").mkdir(exist_ok=True)
        (destination / ".cache" / "npm").symlink_to(REPO / ".cache" / "npm")


def make_command(target: str, tree: Path, **variables: str) -> str:
    """The shell line that `make TARGET` runs for mkdocs (from `make -n`), with this interpreter."""
    assignments = [f"PY={shlex.quote(sys.executable)}", *(f"{name}={value}" for name, value in variables.items())]
    dry = subprocess.run(["make", "-n", "-s", target, *assignments], cwd=tree, check=True, capture_output=True, text=True).stdout
    (line,) = [line for line in dry.splitlines() if " mkdocs " in line]
    return line


def environment(tree: Path) -> dict[str, str]:
    """The build's environment: the copy's `src` first on the path (the shared venv points elsewhere)."""
    return {**os.environ, "PYTHONPATH": str(tree / "src"), "NO_MKDOCS_2_WARNING": "1"}


def cold_build(tree: Path) -> tuple[float, str]:
    """Seconds of `make build`'s mkdocs command in `tree`, with no cache, and its log's end if it failed ('' if not)."""
    shutil.rmtree(tree / ".cache" / "mkdocs-jupyter", ignore_errors=True)
    command = make_command("build", tree)
    start = time.perf_counter()
    finished = subprocess.run(command, shell=True, cwd=tree, env=environment(tree), capture_output=True, text=True)
    seconds = time.perf_counter() - start
    return seconds, "" if finished.returncode == 0 else (finished.stdout + finished.stderr)[-3000:]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8", errors="replace")
    except (urllib.error.URLError, OSError):
        return ""


def wait_for(url: str, text: str, since: float) -> float:
    """Seconds from `since` until the page at `url` contains `text`; raises after GIVE_UP seconds."""
    while time.perf_counter() - since < GIVE_UP:
        if text in fetch(url):
            return time.perf_counter() - since
        time.sleep(0.1)
    raise SystemExit(f"{url} never showed {text!r} within {GIVE_UP:g} s")


def save(path: Path, text: str) -> float:
    """Write `text` to `path` as an editor saves it; the moment of the save."""
    path.write_text(text, encoding="utf-8")
    return time.perf_counter()


def serve_times(tree: Path, edits: int) -> tuple[float, list[float], float]:
    """Under `make serve`: the first build's seconds, each page edit's seconds, and the engine edit's."""
    chapter = max((tree / "docs" / "chapters").glob("*.md"), key=lambda path: path.stat().st_size)
    engine = next(path for path in sorted((tree / "src" / "glassgrad").glob("*.py")) if path.name != "scratch.py" and ENGINE_FUNCTION in path.read_text(encoding="utf-8"))
    host = f"127.0.0.1:{free_port()}"
    page, reference = f"http://{host}/chapters/{chapter.stem}/", f"http://{host}/{REFERENCE_URL}"
    log = tree / "serve.log"
    with log.open("w", encoding="utf-8") as output:
        start = time.perf_counter()
        server = subprocess.Popen(
            make_command("serve", tree, HOST=host), shell=True, cwd=tree, env=environment(tree),
            stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )
        try:
            first = wait_for(page, "</html>", start)
            original = chapter.read_text(encoding="utf-8")
            page_edits = []
            for number in range(edits):
                time.sleep(1.0)  # a new mtime, and the server idle again
                marker = f"Edit number {number} of this page, saved by build_times."
                page_edits.append(wait_for(page, marker, save(chapter, original + f"\n{marker}\n")))
            marker = "Saved by build_times in the engine."
            head, function, body = engine.read_text(encoding="utf-8").partition(ENGINE_FUNCTION)
            time.sleep(1.0)
            engine_edit = wait_for(reference, marker, save(engine, head + function + body.replace('"""', f'"""{marker} ', 1)))
            return first, page_edits, engine_edit
        except SystemExit:
            print(log.read_text(encoding="utf-8")[-3000:])  # the server's log says why the change never appeared
            raise
        finally:
            os.killpg(server.pid, signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=3, help="how many times to save the chapter page (default 3)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="glassgrad-build-times-") as folder:
        tree = Path(folder)
        copy_project(tree)
        cold, failure = cold_build(tree)
        initial, page_edits, engine_edit = serve_times(tree, arguments.edits)
    worst = max(page_edits)
    verdict = "FAILED (see above)" if failure else "met" if cold <= COLD_BUILD_TARGET else "MISSED"
    if failure:
        print(f"The cold build failed:\n{failure}\n")
    print("Author's loop (seconds, this machine)")
    print(f"  cold `make build` (notebook run, no cache) {cold:6.1f}   target <= {COLD_BUILD_TARGET:g}: {verdict}")
    print(f"  `make serve`, first build                  {initial:6.1f}")
    print(
        f"  chapter page saved -> new page served      {statistics.median(page_edits):6.1f} median, {worst:.1f} worst of {len(page_edits)}"
        f"   target <= {PAGE_EDIT_TARGET:g}: {'met' if worst <= PAGE_EDIT_TARGET else 'MISSED'}"
    )
    print(f"  src/glassgrad saved -> API reference shows {engine_edit:6.1f}")
    if failure:
        sys.exit(1)


if __name__ == "__main__":
    main()

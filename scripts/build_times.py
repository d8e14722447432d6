"""The author's loop, timed: a cold `make build`, and `make serve` from a saved file to the new page.

Runs the Makefile's commands (`make -n build`, `make -n serve`) on a copy of the repository, so nothing
of yours is edited. Reports, in seconds: the cold build (the notebook runs); the largest chapter page
saved until the served page shows it (target 5 s); a docstring in src/glassgrad saved until the API
reference shows it. A measurement, not a test: it fails only if the build fails or a change never shows.
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
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ENGINE_FUNCTION = "\ndef backward("  # glassgrad.backward: its docstring is on the API reference page
COLD_BUILD_TARGET, PAGE_EDIT_TARGET, GIVE_UP = 20.0, 5.0, 180.0


def copy_project(destination: Path, repo: Path = REPO) -> None:
    """The repository's working files copied under `destination`, and a link to the playground's npm packages.

    The packages are set-up, not build: `scripts/setup.sh` installs them into the repository's `node_modules`
    first (it only checks on a machine that has them), so the copy's strict build finds them on a new machine.
    """
    subprocess.run(["bash", "scripts/setup.sh"], cwd=repo, check=True)
    listed = subprocess.run(
        ["git", "ls-files", "-coz", "--exclude-standard"], cwd=repo, check=True, capture_output=True
    )
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (repo / name).is_file() and not (repo / name).is_symlink():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(repo / name, destination / name)
    (destination / "node_modules").symlink_to((repo / "node_modules").resolve())


def run_make(target: str, tree: Path, variables: tuple[str, ...] = (), **popen: Any) -> subprocess.Popen[Any]:
    """Start the properdocs command `make TARGET` runs (from `make -n`) in `tree`, with this interpreter and the copy's `src`."""
    dry = subprocess.run(
        ["make", "-n", "-s", target, f"PY={shlex.quote(sys.executable)}", *variables],
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    (line,) = [line for line in dry.splitlines() if " properdocs " in line]
    environment = {**os.environ, "PYTHONPATH": str(tree / "src"), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.Popen(line, shell=True, cwd=tree, env=environment, **popen)


def wait_for(url: str, text: str, since: float) -> float:
    """Seconds from `since` until the page at `url` contains `text`."""
    while time.perf_counter() - since < GIVE_UP:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                if text in response.read().decode("utf-8", errors="replace"):
                    return time.perf_counter() - since
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{url} never showed {text!r} within {GIVE_UP:g} s")


def save(path: Path, text: str) -> float:
    """Write `text` to `path` as an editor saves it; return the moment of the save."""
    time.sleep(1.0)  # a new mtime, and the server idle again
    path.write_text(text, encoding="utf-8")
    return time.perf_counter()


def serve_times(tree: Path, edits: int) -> tuple[float, list[float], float]:
    """Under `make serve`: the first build's seconds, each page edit's seconds, and the engine edit's."""
    chapter = max((tree / "docs" / "chapters").glob("*.md"), key=lambda path: path.stat().st_size)
    engine = next(
        path
        for path in sorted((tree / "src" / "glassgrad").glob("*.py"))
        if path.name != "scratch.py" and ENGINE_FUNCTION in path.read_text(encoding="utf-8")
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        host = f"127.0.0.1:{probe.getsockname()[1]}"
    page, reference = f"http://{host}/chapters/{chapter.stem}/", f"http://{host}/reference/"
    log = tree / "serve.log"
    start = time.perf_counter()
    with log.open("w", encoding="utf-8") as output:
        server = run_make(
            "serve", tree, variables=(f"HOST={host}",), stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        first = wait_for(page, "</html>", start)
        original = chapter.read_text(encoding="utf-8")
        marks = [f"Edit number {number} of this page, saved by build_times." for number in range(edits)]
        page_edits = [wait_for(page, mark, save(chapter, f"{original}\n{mark}\n")) for mark in marks]
        mark = "Saved by build_times in the engine."
        head, function, body = engine.read_text(encoding="utf-8").partition(ENGINE_FUNCTION)
        engine_edit = wait_for(reference, mark, save(engine, head + function + body.replace('"""', f'"""{mark} ', 1)))
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
    edits = parser.parse_args().edits
    with tempfile.TemporaryDirectory(prefix="glassgrad-build-times-") as folder:
        tree = Path(folder)
        copy_project(tree)
        start = time.perf_counter()
        build = run_make("build", tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        build_log = build.communicate()[0]
        cold = time.perf_counter() - start
        initial, page_edits, engine_edit = serve_times(tree, edits)
    if build.returncode:
        print(f"The cold build failed:\n{build_log[-3000:]}\n")
    verdict = "FAILED (see above)" if build.returncode else "met" if cold <= COLD_BUILD_TARGET else "MISSED"
    print("Author's loop (seconds, this machine)")
    print(f"  cold `make build` (notebook run, no cache) {cold:6.1f}   target <= {COLD_BUILD_TARGET:g}: {verdict}")
    print(f"  `make serve`, first build                  {initial:6.1f}")
    print(
        f"  chapter page saved -> new page served      {statistics.median(page_edits):6.1f} median, "
        f"{max(page_edits):.1f} worst of {len(page_edits)}   target <= {PAGE_EDIT_TARGET:g}: "
        f"{'met' if max(page_edits) <= PAGE_EDIT_TARGET else 'MISSED'}"
    )
    print(f"  src/glassgrad saved -> API reference shows {engine_edit:6.1f}")
    sys.exit(1 if build.returncode else 0)


if __name__ == "__main__":
    main()

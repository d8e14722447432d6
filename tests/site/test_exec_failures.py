"""A block that raises: every `properdocs build` fails naming it; `properdocs serve` shows it on its page and keeps serving.

Each test works on a copy of the project whose pages are trimmed to their titles (a build of it takes seconds),
and whose chapter 1 ends with a block that raises.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from html import unescape
from pathlib import Path

import pytest
from helpers import REPO
from site_build import copy_tree, keep_only_pages

pytestmark = pytest.mark.site

CHAPTER = "docs/chapters/1-pytorch.md"
RAISING_BLOCK = (
    '```python exec="1" session="ch1"\nanswer = 42\nraise RuntimeError("deliberate failure for the test")\n```\n'
)
FIXED_BLOCK = '```python exec="1" session="ch1"\nanswer = 42\nprint(f"The answer is {answer}.")\n```\n'
BUILD_TIMEOUT = 120
SERVE_TIMEOUT = 60  # seconds for the first build of the trimmed copy to be served
REQUEST_TIMEOUT = 10  # a page that is served answers at once; a hung server fails the test


ENGINE_BLOCK = '```python exec="1" session="{session}"\nimport glassgrad\n```\n'


def raising_copy(tmp_path: Path) -> Path:
    """A copy trimmed to titles, whose Home and chapter 1 import the engine and chapter 1 then runs a block that
    raises; returns its root."""
    tree = copy_tree(tmp_path / "tree")
    keep_only_pages(tree, [])
    for page, session, tail in (("docs/index.md", "home", ""), (CHAPTER, "ch1", RAISING_BLOCK)):
        text = (tree / page).read_text(encoding="utf-8")
        (tree / page).write_text(text + "\n" + ENGINE_BLOCK.format(session=session) + "\n" + tail, encoding="utf-8")
    return tree


def environment(tree: Path) -> dict[str, str]:
    """The environment of a build of `tree`: its own engine, no notebook run, and no outer `make test`'s flags."""
    outer = {name: value for name, value in os.environ.items() if name not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    return {**outer, "NO_MKDOCS_2_WARNING": "1", "NOTEBOOK_EXECUTE": "false", "PYTHONPATH": str(tree / "src")}


def raising_fence_line(tree: Path) -> int:
    lines = (tree / CHAPTER).read_text(encoding="utf-8").splitlines()
    return len(lines) - RAISING_BLOCK.count("\n") + 1


PROPERDOCS = [sys.executable, "-m", "properdocs"]
FLAVOURS = {
    # Quiet as well as strict: the hook's own error names the block even when MkDocs prints no warning
    # (and it raises whatever the flags, so a build without --strict fails the same way).
    "properdocs build --strict -q": [*PROPERDOCS, "build", "-f", "mkdocs.yml", "--strict", "-q"],
    # The copy has no .venv: the Makefile's set-up is taken as done and its Python is this one.
    "make build": ["make", "--no-print-directory", "-o", "setup", "build", f"PY={shlex.quote(sys.executable)}"],
}


@pytest.mark.parametrize("flavour", list(FLAVOURS))
def test_every_build_fails_on_a_raising_block_naming_page_block_and_exception(tmp_path: Path, flavour: str) -> None:
    tree = raising_copy(tmp_path)
    if flavour == "make build":
        (tree / "Makefile").write_bytes((REPO / "Makefile").read_bytes())
    finished = subprocess.run(
        FLAVOURS[flavour], cwd=tree, env=environment(tree), capture_output=True, text=True, timeout=BUILD_TIMEOUT
    )
    log = finished.stdout + finished.stderr
    assert finished.returncode != 0, log[-3000:]
    blocks = re.findall(r'^```python exec="1"', (tree / CHAPTER).read_text(encoding="utf-8"), re.MULTILINE)
    headline = (
        rf"{re.escape(CHAPTER)}: executed block {len(blocks)} \(line {raising_fence_line(tree)}, python, session ch1,"
        r" at line 2 of the block\) raised RuntimeError: deliberate failure for the test"
    )
    assert re.search(headline, log), log[-3000:]
    assert 'raise RuntimeError("deliberate failure for the test")' in log  # the traceback, with the line that raised
    assert not (tree / "site/chapters/1-pytorch/index.html").exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str, timeout: float = REQUEST_TIMEOUT) -> tuple[int, str]:
    """Status and text of `url`; a server that does not answer within `timeout` seconds fails the test."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


SERVE_READS = ("Makefile", "pyproject.toml", "scripts/site_assets.py")
"""What `make serve` reads beyond the build's tree: its flags, and the script (and the version it writes) that
rebuilds the playground's bundle on every build (docs/hooks/fresh_modules.py)."""


def serve_command(host: str) -> list[str]:
    """`make serve` itself (its set-up taken as done), so the tests follow the Makefile's flags."""
    return ["make", "--no-print-directory", "-o", "setup", "serve", f"HOST={host}", f"PY={shlex.quote(sys.executable)}"]


def test_serve_without_the_bundle_script_stops_with_a_clear_message(tmp_path: Path) -> None:
    tree = raising_copy(tmp_path)
    (tree / "Makefile").write_bytes((REPO / "Makefile").read_bytes())
    finished = subprocess.run(
        serve_command(f"127.0.0.1:{free_port()}"),
        cwd=tree,
        env=environment(tree),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=SERVE_TIMEOUT,
    )
    log = finished.stdout + finished.stderr
    assert finished.returncode != 0, log[-3000:]
    assert "scripts/site_assets.py" in log and f"which {tree} does not hold" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]


def test_serve_shows_the_failure_on_its_page_keeps_serving_and_reloads_the_fix(tmp_path: Path) -> None:
    tree = raising_copy(tmp_path)
    for name in SERVE_READS:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes((REPO / name).read_bytes())
    host = f"127.0.0.1:{free_port()}"
    base = f"http://{host}/"
    log = (tmp_path / "serve.log").open("w+", encoding="utf-8")
    command = serve_command(host)
    server = subprocess.Popen(
        command,
        cwd=tree,
        env=environment(tree),
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + SERVE_TIMEOUT
        while True:
            assert server.poll() is None, "make serve exited:\n" + log_text(log)
            try:
                status, chapter = get(base + "chapters/1-pytorch/", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert time.monotonic() < deadline, "make serve did not answer:\n" + log_text(log)
                time.sleep(0.3)
        assert status == 200
        failure = re.search(r'<div class="admonition failure gg-exec-failure" role="alert">(.*?)</div>', chapter, re.S)
        assert failure, chapter[-3000:]
        text = unescape(re.sub(r"<[^>]+>", "", failure[1]))
        assert "RuntimeError: deliberate failure for the test" in text
        assert f"{CHAPTER}: executed block" in text and "Traceback" in text
        assert 'line 2, in <module>\n    raise RuntimeError("deliberate failure for the test")' in text

        status, home = get(base)
        assert status == 200 and "gg-exec-failure" not in home and "glassgrad" in home

        epoch = int(re.search(r"livereload\((\d+),", chapter)[1])
        chapter_file = tree / CHAPTER
        chapter_file.write_text(
            chapter_file.read_text(encoding="utf-8").replace(RAISING_BLOCK, FIXED_BLOCK), encoding="utf-8"
        )
        # The browser's reload signal: the live-reload poll answers with a newer build.
        status, newer = get(f"{base}livereload/{epoch}/1", timeout=SERVE_TIMEOUT)
        assert status == 200 and int(newer) > epoch
        status, chapter = get(base + "chapters/1-pytorch/")
        assert status == 200
        assert "gg-exec-failure" not in chapter and "The answer is 42." in chapter

        # A broken engine (`--watch src/glassgrad`): every page that imports it shows why, and answers.
        engine = tree / "src/glassgrad/__init__.py"
        working = engine.read_text(encoding="utf-8")
        epoch = int(re.search(r"livereload\((\d+),", chapter)[1])
        engine.write_text(working + '\nraise RuntimeError("engine broken for the test")\n', encoding="utf-8")
        status, newer = get(f"{base}livereload/{epoch}/2", timeout=SERVE_TIMEOUT)
        assert int(newer) > epoch
        for page in ("", "chapters/1-pytorch/"):
            status, html = get(base + page)
            assert status == 200 and "RuntimeError: engine broken for the test" in unescape(html), page or "Home"
        # The playground's Python imports the edited engine too: the served bundle holds the edit.
        with urllib.request.urlopen(base + "assets/playground/glassgrad.zip", timeout=REQUEST_TIMEOUT) as response:
            bundle = zipfile.ZipFile(io.BytesIO(response.read()))
        assert "engine broken for the test" in bundle.read("glassgrad/__init__.py").decode()
        engine.write_text(working, encoding="utf-8")
        status, fixed = get(f"{base}livereload/{newer}/3", timeout=SERVE_TIMEOUT)
        assert int(fixed) > int(newer)
        status, chapter = get(base + "chapters/1-pytorch/")
        assert "gg-exec-failure" not in chapter and "The answer is 42." in chapter
    finally:
        if server.poll() is None:  # an exited server was reported above
            os.killpg(server.pid, 15)  # make and the properdocs it started
            server.wait(timeout=10)
        log.close()


def log_text(log) -> str:
    log.flush()
    log.seek(0)
    return log.read()[-3000:]

"""The playground's first Run, measured in headless Chromium on a local server (`make bench`).

Builds the site into a temporary folder (the notebook page shows its code only: the playground does not
need it), serves it on 127.0.0.1 with Python's plain server (no compression), and opens the playground
in a fresh browser profile each time (an empty cache, as a first visit). Reports, median of
`--repeat` visits: the time from the click on Run to the linear preset's result when Run is the
reader's first act; the same when the reader clicked into the editor three seconds before (the page
starts fetching Python on that sign of intent); a second Run; the Run after a 100,000-value chain
(which the worker frees one object at a time); and the bytes the first Run transferred, as served and
as a gzip-compressing server would send them. A measurement, not a test: it fails only if the
playground gives no result.

Usage: `python scripts/bench_playground.py` (`--repeat N`, default 3).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
INTENT_SECONDS = 3.0
CHAIN = "from glassgrad.scratch import Value, multiply\nL = Value(1.0)\nfor _ in range(100_000):\n    L = multiply(L, Value(1.0001))\n"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


def run_and_wait(page: Any) -> float:
    """Click Run; return the seconds until Run is enabled again (the result is shown)."""
    started = time.perf_counter()
    page.click("[data-gg-do=run]")
    page.wait_for_function("!document.querySelector('[data-gg-do=run]').disabled", timeout=180_000, polling=20)
    return time.perf_counter() - started


def visit(browser: Any, url: str, site: Path, *, intent: bool) -> dict[str, float]:
    """One first visit in a fresh profile: the first Run's time and bytes, a second Run, the Run after a chain."""
    context = browser.new_context()
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("requestfinished", lambda request: sizes.__setitem__(request.url, request.sizes()["responseBodySize"]))
    page.goto(url)
    page.wait_for_load_state("load")
    before = set(sizes)
    linear = page.input_value("textarea")
    if intent:
        page.focus("textarea")
        page.wait_for_timeout(INTENT_SECONDS * 1000)
    first = run_and_wait(page)
    if not page.locator(".gg-pg-output .gg-pg-summary").count():
        raise SystemExit(f"the playground gave no result: {page.inner_text('[data-gg-status]')}")
    loaded = {name: size for name, size in sizes.items() if name not in before}
    served = sum(loaded.values())
    compressed = 0
    for name in loaded:
        path = site / name.split("/", 3)[3].split("?")[0]
        path = path / "index.html" if path.is_dir() else path
        compressed += len(gzip.compress(path.read_bytes(), 6)) if path.is_file() else loaded[name]
    second = run_and_wait(page)
    page.fill("textarea", CHAIN)
    run_and_wait(page)
    page.fill("textarea", linear)
    after_chain = run_and_wait(page)
    context.close()
    return {"first": first, "second": second, "after_chain": after_chain, "served": served, "gzip": compressed}


def build_site(folder: str, what: str) -> Path:
    """The site built into `folder` (the notebook page shows its code only: no measured page needs it)."""
    site = Path(folder) / "site"
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "NOTEBOOK_EXECUTE": "false",
        "NOTEBOOK_CACHE_DIR": folder + "/nb",
    }
    print(f"building the site for {what}…", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "properdocs", "build", "-q", "-d", str(site)], cwd=REPO, env=env, check=True)
    return site


@contextlib.contextmanager
def served(site: Path) -> Iterator[str]:
    """`site` on 127.0.0.1 (a free port) with Python's plain server, no compression; yields its address."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="glassgrad-bench-") as folder:
        site = build_site(folder, "the playground's measurement")
        with served(site) as address, sync_playwright() as playwright:
            url = address + "playground/"
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            cold = [visit(browser, url, site, intent=False) for _ in range(args.repeat)]
            warm = [visit(browser, url, site, intent=True) for _ in range(args.repeat)]
            browser.close()

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(run[key] for run in runs)

    print(
        f"\n## Playground: first Run (headless Chromium, local server, {os.cpu_count()} cores, median of {args.repeat})\n"
    )
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| first Run, Run as the reader's first act | {median(cold, 'first'):.1f} s |")
    print(f"| first Run, {INTENT_SECONDS:.0f} s after a click in the editor | {median(warm, 'first'):.1f} s |")
    print(f"| second Run | {median(cold + warm, 'second'):.2f} s |")
    print(f"| Run after a 100,000-value chain | {median(cold + warm, 'after_chain'):.2f} s |")
    print(f"| transferred by the first Run, as served | {median(cold, 'served') / 1e6:.1f} MB |")
    print(f"| the same from a gzip-compressing server | {median(cold, 'gzip') / 1e6:.1f} MB |")


if __name__ == "__main__":
    main()

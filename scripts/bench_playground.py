"""The playground's and the exercises' Runs and Checks, measured in headless Chromium on a local server (`make bench`).

Builds the site into a temporary folder (the notebook page shows its code only: the playground does not
need it), serves it on 127.0.0.1 with Python's plain server (no compression), and opens the playground
in a fresh browser profile each time (an empty cache, as a first visit). Every Run and every Check gets
a fresh Python (python-session.js), with a spare loading in the background. Reports, median of
`--repeat` visits: the time from the click on Run to the linear preset's result when Run is the reader's
first act; the same when the reader clicked into the editor three seconds before (the page starts
loading Python on that sign of intent); a later Run, started 5 s after the previous one finished (goal:
0.5 s at most); a Run right after Stop (Stop pressed 2 s into a program that never ends); the longest task
a 30-million-character printed line gives the page (goal: under 200 ms); a Check on the exercises page 5 s
after a click into its editor; and the bytes the first Run transferred, as served and
as a gzip-compressing server would send them. A measurement, not a test: it fails only if the playground
gives no result.

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
LATER_SECONDS = 5.0
STOP_AFTER_SECONDS = 2.0
FOREVER = "while True:\n    pass\n"
LONG_LINE = 'print("x" * 30_000_000)\n'


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a download cut short by a worker the page ended (a stopped Run, the next visit) is not news


def run_and_wait(page: Any) -> float:
    """Click Run; return the seconds until Run is enabled again (the result is shown)."""
    started = time.perf_counter()
    page.click("[data-gg-do=run]")
    page.wait_for_function("!document.querySelector('[data-gg-do=run]').disabled", timeout=180_000, polling=20)
    return time.perf_counter() - started


def visit(browser: Any, url: str, site: Path, *, intent: bool) -> dict[str, float]:
    """One first visit in a fresh profile: the first Run's time and bytes, a later Run, a Run after Stop, a Check."""
    context = browser.new_context()
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("requestfinished", lambda request: sizes.__setitem__(request.url, request.sizes()["responseBodySize"]))
    page.goto(url + "playground/")
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
    page.wait_for_timeout(LATER_SECONDS * 1000)
    later = run_and_wait(page)
    page.fill("textarea", FOREVER)
    page.wait_for_timeout(LATER_SECONDS * 1000)
    page.click("[data-gg-do=run]")
    page.wait_for_function("document.querySelector('[data-gg-status]').textContent.startsWith('Running')")
    page.wait_for_timeout(STOP_AFTER_SECONDS * 1000)
    page.click("[data-gg-do=stop]")
    page.fill("textarea", linear)
    after_stop = run_and_wait(page)
    # A 30-million-character line: the longest task it gives the page's main thread (longtask entries, >= 50 ms).
    page.evaluate(
        "() => { window.__ggLongest = 0; new PerformanceObserver(list => list.getEntries().forEach(entry =>"
        " window.__ggLongest = Math.max(window.__ggLongest, entry.duration))).observe({type: 'longtask'}); }"
    )
    page.fill("textarea", LONG_LINE)
    page.wait_for_timeout(LATER_SECONDS * 1000)
    run_and_wait(page)
    page.wait_for_timeout(500)
    longest = page.evaluate("window.__ggLongest")
    # The exercises page (the same profile: Python is in the browser's cache): a Check 5 s after a click in an editor.
    page.goto(url + "exercises/")
    box = page.locator('[data-gg-exercise="divide"]')
    box.locator("textarea").focus()
    page.wait_for_timeout(LATER_SECONDS * 1000)
    started = time.perf_counter()
    box.get_by_role("button", name="Check").click()
    box.locator(".gg-ex-verdict").wait_for(timeout=180_000)
    check = time.perf_counter() - started
    context.close()
    return {
        "first": first,
        "later": later,
        "after_stop": after_stop,
        "check": check,
        "longest": longest,
        "served": served,
        "gzip": compressed,
    }


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
    server = QuietServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
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
            url = address
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            cold = [visit(browser, url, site, intent=False) for _ in range(args.repeat)]
            warm = [visit(browser, url, site, intent=True) for _ in range(args.repeat)]
            browser.close()

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(run[key] for run in runs)

    print(
        f"\n## Playground and exercises: Runs and Checks (headless Chromium, local server, {os.cpu_count()} cores, "
        f"median of {args.repeat} visits; each Run and Check in a fresh Python)\n"
    )
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| first Run, Run as the reader's first act (cold cache) | {median(cold, 'first'):.1f} s |")
    print(f"| first Run, {INTENT_SECONDS:.0f} s after a click in the editor | {median(warm, 'first'):.1f} s |")
    print(
        f"| a later Run, {LATER_SECONDS:.0f} s after the previous one finished | {median(cold + warm, 'later'):.2f} s |"
    )
    print(
        f"| a Run right after Stop ({STOP_AFTER_SECONDS:.0f} s into a program) | {median(cold + warm, 'after_stop'):.2f} s |"
    )
    print(f"| a Check, {LATER_SECONDS:.0f} s after a click in its editor | {median(cold + warm, 'check'):.2f} s |")
    print(
        f"| longest main-thread task while a 30-million-character line is shown | {max(r['longest'] for r in cold + warm):.0f} ms |"
    )
    print(f"| transferred by the first Run, as served | {median(cold, 'served') / 1e6:.1f} MB |")
    print(f"| the same from a gzip-compressing server | {median(cold, 'gzip') / 1e6:.1f} MB |")


if __name__ == "__main__":
    main()

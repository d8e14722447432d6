"""The playground's and the exercises' Runs and Checks, measured in headless Chromium on a local server (`make bench`).

Builds the site into a temporary folder (or takes `--site DIR`, a site already built; the notebook page shows its
code only: the playground does not need it), serves it on 127.0.0.1 with Python's plain server (no compression),
and opens the playground in a fresh browser profile each time (an empty cache, as a first visit). Every Run and
every Check gets a fresh Python (python-session.js), taken from the spares kept loaded in the background. Reports,
median of `--repeat` visits:

- the first Run: when Run is the reader's first act (goal: 3 s at most), and 3 s after a click in the editor;
  and, as the page behaves on a machine of four cores or more (two spare Pythons load at once there: the page is
  told so), the first Run as the reader's first act and a Run the moment it finished;
- every later Run (goal: 1 s at most): pressed the moment the previous one finished, 5 s later, and right after
  Stop (Stop pressed 2 s into a program that never ends); a Check the moment the previous Check finished;
- floods (goals: no main-thread task over 200 ms, Stop ends the run within 1 s): printing in an endless loop then
  Stop, a 30-million-character line, a result of about 1 million characters of HTML (just under the cap); the
  longest task is the PerformanceObserver's longest "longtask" entry;
- the memory the page's Pythons hold once the spares are loaded (all of Chromium's processes, proportional set
  size, less the same page before any Python), and the bytes the first Run transferred, as served and as a
  gzip-compressing server would send them.

A measurement, not a test: it fails only if the playground gives no result.

Usage: `python scripts/bench_playground.py` (`--repeat N`, default 3; `--site DIR`).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from site_server import serving

REPO = Path(__file__).resolve().parent.parent
SYSTEM_CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
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
PRINT_FLOOD = 'while True:\n    print("x" * 100)\n'
LONG_LINE = 'print("x" * 30_000_000)\n'
BIG_RESULT = (  # labels of 70,000 characters: a result just under the 1-million-character cap
    "from glassgrad import Value\n"
    'a = Value(2.0, label="a" * 70_000)\n'
    'b = Value(3.0, label="b" * 70_000)\n'
    "L = a * b\n"
    "L.backward()\n"
)
RUN_ENABLED = "() => !document.querySelector('[data-gg-do=run]').disabled"
WATCH_TASKS = (
    "() => { window.__ggLongest = 0; new PerformanceObserver(list => list.getEntries().forEach(entry =>"
    " window.__ggLongest = Math.max(window.__ggLongest, entry.duration))).observe({type: 'longtask'}); }"
)


def find_chromium(playwright: Any) -> str:
    """The Chromium to drive, found as tests/conftest.py finds it: GLASSGRAD_CHROMIUM, Playwright's own, the system's."""
    if named := os.environ.get("GLASSGRAD_CHROMIUM"):
        return named
    own = playwright.chromium.executable_path
    if own and Path(own).is_file():
        return str(own)
    found = next((path for name in SYSTEM_CHROMIUMS if (path := shutil.which(name))), None)
    if found is None:
        raise SystemExit("no Chromium: set GLASSGRAD_CHROMIUM, or run `playwright install chromium` (make setup does)")
    return found


def launch(playwright: Any) -> Any:
    """A headless Chromium (see `find_chromium`)."""
    return playwright.chromium.launch(executable_path=find_chromium(playwright), args=CHROMIUM_ARGS)


def run_and_wait(page: Any, code: str | None = None) -> float:
    """Click Run (after putting `code` in the editor); return the seconds until Run is enabled again (the result is shown)."""
    if code is not None:
        page.fill("textarea", code)
    started = time.perf_counter()
    page.click("[data-gg-do=run]")
    page.wait_for_function(RUN_ENABLED, timeout=180_000, polling=20)
    return time.perf_counter() - started


def run_then_stop(page: Any, code: str) -> float:
    """Run `code`, press Stop 2 s after it began; return the seconds from Stop until Run is enabled again."""
    page.fill("textarea", code)
    page.click("[data-gg-do=run]")
    page.wait_for_function("() => document.querySelector('[data-gg-status]').textContent.startsWith('Running')")
    page.wait_for_timeout(STOP_AFTER_SECONDS * 1000)
    started = time.perf_counter()
    page.click("[data-gg-do=stop]")
    page.wait_for_function(RUN_ENABLED, timeout=60_000, polling=20)
    return time.perf_counter() - started


def longest_task(page: Any, act: Any) -> tuple[float, Any]:
    """The longest main-thread task (ms) while `act()` runs and half a second after, and what `act` returned."""
    page.evaluate(WATCH_TASKS)
    value = act()
    page.wait_for_timeout(500)
    return page.evaluate("() => window.__ggLongest"), value


def memory_mb(browser_pids: set[int]) -> float:
    """The proportional set size of every process of this Chromium, in MB."""
    import psutil

    total = 0
    for pid in browser_pids:
        with contextlib.suppress(psutil.Error):
            total += psutil.Process(pid).memory_full_info().pss
    return total / 1e6


def chromium_pids() -> set[int]:
    """Every process this script started (its Chromium's, once launched)."""
    import psutil

    return {child.pid for child in psutil.Process().children(recursive=True)}


def check_and_wait(box: Any) -> float:
    """Click the exercise's Check; return the seconds until its verdict is shown."""
    started = time.perf_counter()
    box.get_by_role("button", name="Check").click()
    box.locator(".gg-ex-verdict").wait_for(timeout=180_000)
    box.get_by_role("button", name="Check").wait_for(state="visible")
    box.page.wait_for_function(
        "box => !box.querySelector('.gg-ex-check').disabled", arg=box.element_handle(), polling=20, timeout=180_000
    )
    return time.perf_counter() - started


def visit(browser: Any, url: str, site: Path, *, intent: bool) -> dict[str, float]:
    """One first visit in a fresh profile: the first Run's time and bytes, later Runs, floods, Checks, memory."""
    context = browser.new_context()
    page = context.new_page()
    sizes: dict[str, int] = {}
    page.on("requestfinished", lambda request: sizes.__setitem__(request.url, request.sizes()["responseBodySize"]))
    page.goto(url + "playground/")
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    idle_memory = memory_mb(chromium_pids())
    before = set(sizes)
    linear = page.input_value("textarea")
    if intent:
        page.focus("textarea")
        page.wait_for_timeout(INTENT_SECONDS * 1000)
    first = run_and_wait(page)
    if not page.locator(".gg-pg-output .gg-pg-summary").count():
        raise SystemExit(f"the playground gave no result: {page.inner_text('[data-gg-status]')}")
    loaded = {name: size for name, size in sizes.items() if name not in before}
    right_after = run_and_wait(page)  # at once: the sizes are counted after it
    served = sum(loaded.values())
    compressed = 0
    for name in loaded:
        path = site / name.removeprefix(url).split("?")[0]  # what the site holds at that address
        path = path / "index.html" if path.is_dir() else path
        compressed += len(gzip.compress(path.read_bytes(), 6)) if path.is_file() else loaded[name]
    page.wait_for_timeout(LATER_SECONDS * 1000)
    spares_memory = memory_mb(chromium_pids()) - idle_memory
    later = run_and_wait(page)
    page.wait_for_timeout(LATER_SECONDS * 1000)
    stop = run_then_stop(page, FOREVER)
    after_stop = run_and_wait(page, linear)
    page.wait_for_timeout(LATER_SECONDS * 1000)
    flood_task, flood_stop = longest_task(page, lambda: run_then_stop(page, PRINT_FLOOD))
    page.wait_for_timeout(LATER_SECONDS * 1000)
    line_task, _ = longest_task(page, lambda: run_and_wait(page, LONG_LINE))
    page.wait_for_timeout(LATER_SECONDS * 1000)
    big_task, _ = longest_task(page, lambda: run_and_wait(page, BIG_RESULT))
    if not page.locator(".gg-pg-output svg").count():  # refused as too big: the figure would measure nothing
        raise SystemExit(f"the big result was not drawn: {page.inner_text('[data-gg-output]')[:300]}")
    # The exercises page (the same profile: Python is in the browser's cache): a Check 5 s after a click in an
    # editor, then another the moment it finished.
    page.goto(url + "exercises/")
    box = page.locator('[data-gg-exercise="divide"]')
    box.locator("textarea").focus()
    page.wait_for_timeout(LATER_SECONDS * 1000)
    check = check_and_wait(box)
    check_again = check_and_wait(box)
    context.close()
    return {
        "first": first,
        "right_after": right_after,
        "later": later,
        "stop": stop,
        "after_stop": after_stop,
        "check": check,
        "check_again": check_again,
        "flood_task": flood_task,
        "flood_stop": flood_stop,
        "line_task": line_task,
        "big_task": big_task,
        "memory": spares_memory,
        "served": served,
        "gzip": compressed,
    }


def two_at_once(browser: Any, url: str) -> dict[str, float]:
    """A first visit in a page told the machine has 4 cores (python-session.js then loads two spares at once):
    the first Run as the reader's first act, then a Run pressed the moment it finished."""
    context = browser.new_context()
    context.add_init_script("Object.defineProperty(navigator, 'hardwareConcurrency', {get: () => 4})")
    page = context.new_page()
    page.goto(url + "playground/")
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    first = run_and_wait(page)
    right_after = run_and_wait(page)
    context.close()
    return {"first": first, "right_after": right_after}


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
def site_in_browser(site: Path | None, what: str) -> Iterator[tuple[str, Path, Any]]:
    """`site` (or, when None, one built for `what` into a temporary folder) served on 127.0.0.1, and a headless
    Chromium: yields (the site's address, its folder, the browser)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="glassgrad-bench-") as folder:
        built = site or build_site(folder, what)
        with serving(built) as address, sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                yield address, built, browser
            finally:
                browser.close()


def report(
    cold: list[dict[str, float]], warm: list[dict[str, float]], paired: list[dict[str, float]], repeat: int
) -> None:
    """The table, in Markdown."""
    every = cold + warm

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(run[key] for run in runs)

    def worst(key: str) -> float:
        return max(run[key] for run in every)

    rows = [
        ("first Run, Run as the reader's first act (cold cache; goal ≤ 3 s)", f"{median(cold, 'first'):.2f} s"),
        (f"first Run, {INTENT_SECONDS:.0f} s after a click in the editor", f"{median(warm, 'first'):.2f} s"),
        ("a Run pressed the moment the previous one finished (goal ≤ 1 s)", f"{median(every, 'right_after'):.2f} s"),
        ("two spares loading at once (4+ cores): first Run as the first act", f"{median(paired, 'first'):.2f} s"),
        (
            "two spares loading at once (4+ cores): a Run the moment it finished",
            f"{median(paired, 'right_after'):.2f} s",
        ),
        (f"a Run {LATER_SECONDS:.0f} s after the previous one finished", f"{median(every, 'later'):.2f} s"),
        (f"a Run right after Stop ({STOP_AFTER_SECONDS:.0f} s into a program)", f"{median(every, 'after_stop'):.2f} s"),
        (f"a Check, {LATER_SECONDS:.0f} s after a click in its editor", f"{median(every, 'check'):.2f} s"),
        ("a Check pressed the moment the previous one finished", f"{median(every, 'check_again'):.2f} s"),
        ("Stop to Run enabled, an endless loop (goal ≤ 1 s; worst)", f"{worst('stop'):.2f} s"),
        ("Stop to Run enabled, printing in an endless loop (worst)", f"{worst('flood_stop'):.2f} s"),
        ("longest main-thread task, printing in an endless loop (goal ≤ 200 ms)", f"{worst('flood_task'):.0f} ms"),
        ("longest main-thread task, a 30-million-character line", f"{worst('line_task'):.0f} ms"),
        ("longest main-thread task, a result of 1 million characters", f"{worst('big_task'):.0f} ms"),
        ("memory of the page's spare Pythons, once loaded (PSS)", f"{median(every, 'memory'):.0f} MB"),
        ("transferred by the first Run, as served", f"{median(cold, 'served') / 1e6:.1f} MB"),
        ("the same from a gzip-compressing server", f"{median(cold, 'gzip') / 1e6:.1f} MB"),
    ]
    print(
        f"\n## Playground and exercises: Runs and Checks (headless Chromium, local server, {os.cpu_count()} cores, "
        f"median of {repeat} visits; each Run and Check in a fresh Python)\n"
    )
    print("| measure | value |")
    print("| --- | --- |")
    for label, value in rows:
        print(f"| {label} | {value} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--site", type=Path, help="a site already built (default: build one)")
    args = parser.parse_args()
    with site_in_browser(args.site, "the playground's measurement") as (address, site, browser):
        cold = [visit(browser, address, site, intent=False) for _ in range(args.repeat)]
        warm = [visit(browser, address, site, intent=True) for _ in range(args.repeat)]
        paired = [two_at_once(browser, address) for _ in range(args.repeat)]
    report(cold, warm, paired, args.repeat)


if __name__ == "__main__":
    main()

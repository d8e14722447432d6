"""The playground's edge under floods and against storage (issue 41, items 3 and 4), in Chromium with Pyodide.

Output is bounded per run: a program printing without end, or calling the output's emitter itself, shows
its first 200,000 characters and a count of the rest, and Stop ends it; an answer of millions of elements
is refused with a message before it reaches the page. Nothing persists: every storage API is out of a
program's reach, and a file written by one run is not there for the next. (Timings: scripts/bench_playground.py.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from helpers import keep_inside  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site, pytest.mark.pyodide]

PRINTS = "while True:\n    print('x' * 1000)\n"
CALLS_THE_EMITTER = """\
import gc
output = next(o for o in gc.get_objects() if type(o).__name__ == "Output")
while True:
    output.emit([["stdout", "y" * 300_000 + "\\n"]], 0, 0)
"""
HUGE_ANSWER = """\
import glassgrad_runtime.run as run
run.run_result = lambda namespace, prefix: {"summary": "<b>x</b>" * 2_000_000, "figure": "", "order": "", "cards": ""}
"""
STORES = """\
import js, os
def attempt(name, action):
    try:
        action()
        print(name, "REACHED")
    except Exception:
        print(name, "refused")
attempt("indexedDB", lambda: js.indexedDB.open("gg-kept"))
attempt("caches", lambda: js.caches.open("gg-kept"))
attempt("navigator.storage", lambda: js.navigator.storage.getDirectory())
attempt("storageBuckets", lambda: js.navigator.storageBuckets.open("gg-kept"))
attempt("webkitRequestFileSystemSync", lambda: js.webkitRequestFileSystemSync(0, 1024))
attempt("webkitRequestFileSystem", lambda: js.webkitRequestFileSystem(0, 1024, print))
for path in ("/home/pyodide/kept.txt", "/tmp/kept.txt"):
    print(path, "there" if os.path.exists(path) else "absent")
    with open(path, "w") as kept:
        kept.write("written by an earlier run")
"""
APIS = [
    "indexedDB",
    "caches",
    "navigator.storage",
    "storageBuckets",
    "webkitRequestFileSystemSync",
    "webkitRequestFileSystem",
]


def run(page: Any, code: str) -> None:
    page.fill("textarea", code)
    page.click("[data-gg-do=run]")


def status_starts(page: Any, text: str) -> None:
    page.wait_for_function(
        "text => document.querySelector('[data-gg-status]').textContent.startsWith(text)", arg=text, timeout=90_000
    )


def printed(page: Any) -> str:
    """The console's text once it stopped changing (it draws at most 10,000 characters a frame)."""
    text, previous = page.inner_text("[data-gg-console]"), None
    while text != previous:
        page.wait_for_timeout(200)
        text, previous = page.inner_text("[data-gg-console]"), text
    return text


@pytest.fixture
def playground(browser: Any, site_url: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    _, outside = keep_inside(context, site_url)
    page = context.new_page()
    page.goto(f"{site_url}playground/?limit=60")
    yield page
    assert not outside
    context.close()


def test_floods_show_a_runs_first_200_000_characters_and_stop_ends_them(playground: Any) -> None:
    page = playground
    for program, character in [(PRINTS, "x"), (CALLS_THE_EMITTER, "y")]:
        run(page, program)
        status_starts(page, "Running")
        page.wait_for_function(  # the cap is met and the count of what was left out keeps growing
            "() => /more lines? and [\\d,]+ characters not shown/.test(document.querySelector('[data-gg-console]').textContent)",
            timeout=30_000,
        )
        page.click("[data-gg-do=stop]")
        expect(page.locator("[data-gg-status]")).to_have_text(re.compile("^Stopped"), timeout=1_000)
        text = printed(page)
        *lines, note = text.splitlines()
        shown = "".join(lines)
        assert set(shown) == {character} and 199_000 <= len(shown) <= 200_000, len(shown)
        assert re.fullmatch(
            r"… [\d,]+ more lines? and [\d,]+ characters not shown \(a program's output stops at 200,000 characters\)",
            note,
        )
        page.wait_for_timeout(500)
        assert printed(page) == text  # a stopped run sends nothing more
    run(page, HUGE_ANSWER)
    error = page.locator(".gg-pg-error")
    expect(error).to_be_visible(timeout=90_000)
    assert error.inner_text().startswith(
        "The result is too big to show (16.0 million characters, over 100,000 elements"
    )
    assert page.locator(".gg-pg-output b").count() == 0


def test_nothing_written_by_one_run_is_there_for_the_next(playground: Any) -> None:
    page = playground
    for _ in range(2):
        run(page, STORES)
        expect(page.locator(".gg-pg-note")).to_be_visible(timeout=90_000)
        said = printed(page).splitlines()
        assert said == [f"{api} refused" for api in APIS] + ["/home/pyodide/kept.txt absent", "/tmp/kept.txt absent"]

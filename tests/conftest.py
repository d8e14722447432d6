"""Shared pytest fixtures: the documentation site is built once per run, and one Chromium serves every browser test.

Use the `built_site` fixture (a `pathlib.Path` to the built site) and `helpers.page_html(site, "chapters/1-pytorch/")`
to read one page; `site_url` serves it; `visit(path)` opens it in Chromium (`browser`, driven by Playwright). Tests that use `built_site` get the
`site` marker here (`pytest -m "not site"` skips them; mark a test that builds a copy of its own yourself) and run
after the others, while the site builds.
Plain helpers (parsing pages, loading the docs' code, PyTorch twins, `Visit`): tests/helpers.py; builds of the
site and of trimmed copies: tests/site_build.py. Tests import those, never this file (pytest imports it under a name
of its own: an import by name would load it twice).

`make test` runs on both cores (pytest-xdist, ``-n 2`` in pyproject.toml): each worker is its own session,
so the build is shared through a lock file (the pattern of xdist's documentation), and each worker has its
own server and browser.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from helpers import REPO, Visit
from hypothesis import HealthCheck, settings
from site_build import BUILD_TIMEOUT, serving, start_build

# The one hypothesis profile: no deadline and no speed health check (the machine is shared, and a graph
# test's time depends on the graph drawn), 60 examples per property.
settings.register_profile("glassgrad", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("glassgrad")

SITE_TEST_TIMEOUT = BUILD_TIMEOUT + 120
"""pytest-timeout's limit for a `site` test (it may wait for the shared build, or build copies); others get
pyproject.toml's ``timeout``."""


def needs_site(item: pytest.Item) -> bool:
    """Whether the test reads the built site (directly, or through a fixture that does)."""
    return "built_site" in getattr(item, "fixturenames", ())


@pytest.hookimpl(tryfirst=True)  # before -m deselects: the `site` marker it adds must count
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that need the site carry the `site` marker and run last (the site builds meanwhile), the longest first
    among them.

    Every `site` test (those that build a copy of their own too) gets a longer timeout.
    """
    for item in items:
        if needs_site(item):
            item.add_marker(pytest.mark.site)
        if item.get_closest_marker("site") and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(SITE_TEST_TIMEOUT))

    # A stable sort: within each group the files' order stays. xdist hands the tests out in this order: among the
    # site's tests the longest first (Python in the browser, then other browser tests and builds of copies: `tmp_path`),
    # the quick reads of built pages last, so the two workers finish together.
    def rank(item: pytest.Item) -> int:
        if not needs_site(item):
            return 0
        if item.get_closest_marker("pyodide"):
            return 1
        if item.get_closest_marker("browser") or "tmp_path" in getattr(item, "fixturenames", ()):
            return 2
        return 3

    items.sort(key=rank)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under CI (``CI`` set), a skipped test fails the run: set-up installs everything, so a skip hides a gap."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if os.environ.get("CI") and exitstatus == pytest.ExitCode.OK and skipped:
        reporter.write_line(
            f"CI: {len(skipped)} test(s) skipped; under CI a skip is a failure (see the reasons above)", red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


class _SharedBuild:
    """A build of this checkout made once per run: started by the first session that takes its lock, read by all.

    The session that starts it waits for it in a thread of its own and then writes ``NAME.done`` ("ok" or the
    failure), so the others need only wait for that file, whichever tests each of them runs.
    """

    def __init__(self, folder: Path, name: str, *, notebook: bool = True) -> None:
        self.site = folder / name
        self.done = folder / f"{name}.done"
        self.lock = FileLock(str(folder / f"{name}.lock"))
        self.notebook = notebook
        self.waiter: threading.Thread | None = None

    def start(self) -> None:
        """Start the build in the background unless a session of this run already has (never waits for it)."""
        with self.lock:
            if self.site.with_suffix(".started").exists():
                return
            self.site.with_suffix(".started").touch()
        build = start_build(REPO, self.site, notebook=self.notebook)

        def finish() -> None:
            try:
                build.finish()
                outcome = "ok"
            except BaseException as error:  # noqa: BLE001 - reported to every test that needs the site
                outcome = f"the site's build failed:\n{error}"
                if build.process.poll() is None:
                    build.process.kill()
            self.done.write_text(outcome, encoding="utf-8")

        self.waiter = threading.Thread(target=finish, name="site build", daemon=True)
        self.waiter.start()

    def wait(self) -> Path:
        """The built site, once built; a failed build fails every test that needs it, with the build's log."""
        self.start()
        deadline = time.monotonic() + BUILD_TIMEOUT + 60
        while not self.done.exists():
            assert time.monotonic() < deadline, "the site's build did not finish"
            time.sleep(0.2)
        outcome = self.done.read_text(encoding="utf-8")
        if outcome != "ok":
            raise AssertionError(outcome)
        return self.site


@pytest.fixture(scope="session")
def _shared_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, _SharedBuild]]:
    # A folder every xdist worker of this run sees (PYTEST_XDIST_WORKER: set in each worker by pytest-xdist).
    base = tmp_path_factory.getbasetemp()
    folder = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    builds = {"built_site": _SharedBuild(folder, "site")}
    yield builds
    for build in builds.values():
        if build.waiter is not None:  # another worker may still be waiting for this session's build
            build.waiter.join(BUILD_TIMEOUT)


@pytest.fixture(scope="session", autouse=True)
def _start_site_builds(request: pytest.FixtureRequest, _shared_builds: dict[str, _SharedBuild]) -> None:
    """At the start of the run, start each build a selected test needs, so the builds run during the other tests."""
    for name, build in _shared_builds.items():
        if any(name in getattr(item, "fixturenames", ()) for item in request.session.items):
            build.start()


@pytest.fixture(scope="session")
def built_site(_shared_builds: dict[str, _SharedBuild]) -> Path:
    """The whole site, built once per run (shared by the xdist workers) from this checkout with ``--strict``."""
    return _shared_builds["built_site"].wait()


SYSTEM_CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium(playwright: Any) -> str | None:
    """The Chromium to drive: GLASSGRAD_CHROMIUM, else Playwright's own (`playwright install chromium`), else the system's."""
    if named := os.environ.get("GLASSGRAD_CHROMIUM"):
        return named
    own = playwright.chromium.executable_path
    if own and Path(own).is_file():
        return own
    return next((found for name in SYSTEM_CHROMIUMS if (found := shutil.which(name))), None)


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served on 127.0.0.1 (a free port) for the session, under the path it was built for."""
    with serving(built_site) as url:
        yield url


@pytest.fixture(scope="session")  # so no test may start Playwright itself: use this fixture
def browser() -> Iterator[Any]:
    """One headless Chromium for the session (each xdist worker has its own), driven by Playwright."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        executable = find_chromium(playwright)
        if executable is None:
            pytest.skip(
                "no Chromium: set GLASSGRAD_CHROMIUM to one, or run `playwright install chromium`, "
                "or install the system's (apt-get install chromium; `make test` does)"
            )
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


DESKTOP = {"width": 1280, "height": 900}
"""The window `visit` opens pages in, unless a test asks for another."""


@pytest.fixture(scope="session")
def _desktop() -> dict[str, Any]:
    """The worker's reusable tab (made on first use): navigating a tab costs a fraction of opening a new one."""
    return {}


@pytest.fixture
def visit(browser: Any, site_url: str, _desktop: dict[str, Any]) -> Iterator[Callable[..., Visit]]:
    """``visit(path, wait_until="load", viewport=None, **context)`` opens a page of the site; returns its `Visit`.

    Without `context` options the first visit of a test reuses the worker's tab (1280x900 unless `viewport`
    says otherwise); after the test that tab's listeners go, the site's storage (the reader's palette, exercise
    progress) is cleared, and it is left on about:blank, so no test sees another's state. A later visit in the same
    test navigates that tab again (the earlier `Visit` stops recording). A visit with `context` options
    (``java_script_enabled=False``, ``reduced_motion="reduce"``, ...) gets a page of its own, closed after the test.
    """
    visits: list[Visit] = []
    contexts: list[Any] = []

    def open_page(path: str, wait_until: str = "load", viewport: dict[str, int] | None = None, **context: Any) -> Visit:
        if context:
            context["viewport"] = viewport or DESKTOP
            contexts.append(browser.new_context(**context))
            page = contexts[-1].new_page()
        else:
            page = _desktop.get("page")
            if page is None or page.is_closed():
                page = _desktop["page"] = browser.new_context(viewport=DESKTOP).new_page()
            for earlier in visits:
                if earlier.page is page:
                    earlier.stop_listening()
        if not context:
            page.set_viewport_size(viewport or DESKTOP)
        visits.append(Visit(page, site_url))
        page.goto(site_url + path, wait_until=wait_until)
        return visits[-1]

    yield open_page
    for context in contexts:
        context.close()
    page = _desktop.get("page")
    if page is not None and not page.is_closed() and any(visit.page is page for visit in visits):
        for visit in visits:
            if visit.page is page:
                visit.stop_listening()
        try:
            page.unroute_all()
            if page.url.startswith(site_url):
                page.evaluate("localStorage.clear(); sessionStorage.clear()")
            page.set_viewport_size(DESKTOP)
            page.emulate_media(media="no-override", color_scheme="no-override", reduced_motion="no-override")
            page.goto("about:blank")
        except Exception:  # noqa: BLE001 - a tab the test broke is replaced by the next visit
            page.context.close()
            _desktop.pop("page")

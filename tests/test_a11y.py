"""Accessibility: axe-core's WCAG 2 A and AA rules find nothing on any page, in either palette.

axe-core comes with `axe-playwright-python` (no download at run time); Playwright drives Debian's
Chromium on the site built once for the session.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

from conftest import CHROMIUM, CHROMIUM_ARGS, site_pages  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

WCAG_A_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}, "resultTypes": ["violations"]}
PALETTES = {"light": "default", "dark": "slate"}  # the reader's colour-scheme preference -> Material's palette


def describe(page: str, violation: dict[str, Any]) -> str:
    nodes = violation["nodes"]
    first = nodes[0]["failureSummary"].replace("\n", " ")
    targets = ", ".join(" ".join(node["target"]) for node in nodes[:3])
    return f"{page or 'Home'}: {violation['id']} on {len(nodes)} element(s), e.g. {targets}: {first}"


def axe_problems(browser: Any, site_url: str, pages: list[str], preference: str) -> list[str]:
    """Every violation on `pages` with the reader's colour-scheme preference set to `preference`."""
    axe = axe_playwright.Axe()
    context = browser.new_context(color_scheme=preference, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems = []
    try:
        for path in pages:
            page.goto(site_url + path, wait_until="load")
            assert page.get_attribute("body", "data-md-color-scheme") == PALETTES[preference], path
            results = axe.run(page, options=WCAG_A_AA).response
            problems.extend(f"{preference}: {describe(path, violation)}" for violation in results["violations"])
    finally:
        context.close()
    return problems


def test_every_page_passes_axe_wcag_a_and_aa_in_both_palettes(built_site: Path, browser: Any, site_url: str) -> None:
    pages = site_pages(built_site)
    assert len(pages) >= 10
    dark: dict[str, Any] = {}

    def check_dark() -> None:  # in a second Chromium of its own, so that the two palettes use both cores
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                second = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                dark["problems"] = axe_problems(second, site_url, pages, "dark")
                second.close()
        except BaseException as error:  # noqa: BLE001  # reported by the main thread below
            dark["error"] = error

    thread = threading.Thread(target=check_dark)
    thread.start()
    problems = axe_problems(browser, site_url, pages, "light")
    thread.join()
    if "error" in dark:
        raise dark["error"]
    problems += dark["problems"]
    assert not problems, "\n".join(problems)

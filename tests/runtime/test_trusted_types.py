"""Trusted Types: the site's own scripts send every HTML string, script text and worker address through the one
policy, sanitizer.js's "glassgrad" (issue 41), in Chromium with Pyodide.

The pages' CSP allows that policy only (docs/hooks/content_security_policy.py). It cannot also require Trusted
Types at every sink, because the theme's bundle writes plain strings there, so here the site is served with the
requirement as a report-only header: a Run and a Check, their figures and a player's steps must cause no
violation from the site's scripts (docs/javascripts, DOMPurify) and no error, and their output must show.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402
from site_build import serving  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site, pytest.mark.pyodide]

REQUIRE = "require-trusted-types-for 'script'; trusted-types glassgrad"
WATCH = """
window.__ggViolations = [];
document.addEventListener("securitypolicyviolation", (event) => window.__ggViolations.push(
  [event.violatedDirective, event.sourceFile, event.sample.slice(0, 80)]));
"""
OURS = ("javascripts/", "assets/playground/")  # the site's modules and what they load (DOMPurify), from the root


@pytest.fixture(scope="module")
def requiring_url(built_site: Path) -> Iterator[str]:
    """The built site, served with Trusted Types required (report-only) by a header on every response."""
    with serving(built_site, {"Content-Security-Policy-Report-Only": REQUIRE}) as url:
        yield url


def ours(page: Any, site: str) -> list[list[str]]:
    """The violations raised by the site's own scripts so far (the theme's bundle is assets/javascripts/)."""
    mine = tuple(site + folder for folder in OURS)
    return [found for found in page.evaluate("window.__ggViolations") if found[1].startswith(mine)]


def test_runs_and_checks_reach_no_sink_but_through_the_policy(browser: Any, requiring_url: str) -> None:
    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        response = page.goto(requiring_url + "playground/?preset=linear")
        assert response.headers["content-security-policy-report-only"] == REQUIRE  # the requirement is in force
        page.click("[data-gg-do=run]")
        summary = page.locator(".gg-pg-output .gg-pg-summary")
        summary.wait_for(timeout=120_000)
        expect(summary).to_contain_text("L = 9")
        forward = page.locator(".gg-pg-output [data-gg-action=forward]").first
        forward.click()
        forward.click()
        expect(page.locator(".gg-pg-output .gg-player-status").first).not_to_be_empty()
        assert ours(page, requiring_url) == []

        page.goto(requiring_url + "exercises/")
        box = page.locator('[data-gg-exercise="divide"]')
        box.get_by_role("button", name="Check").click()
        expect(box.locator(".gg-ex-verdict")).to_be_visible(timeout=120_000)
        assert ours(page, requiring_url) == []
        assert errors == []
    finally:
        context.close()

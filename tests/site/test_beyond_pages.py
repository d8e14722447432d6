"""The pages beyond the tutorial, the API reference, the notebook and the 404 page, as a reader meets them.

Links that work wherever the site is served (and, in the downloaded notebook, on the published site); a 404
page with a way back and no request outside the site; a reference whose every "see X" is a link; the
stability page's visible error at z = -365; install lines that work; the same bytes in two builds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers import REPO, Visit, page_html, site_pages

pytestmark = pytest.mark.site

PUBLISHED = "https://glassgrad.github.io/glassgrad/"
LOCAL = re.compile(r"(?:127\.0\.0\.1|localhost)(?::\d+)?", re.IGNORECASE)


class Anchors(HTMLParser):
    """Every ``<a href>`` of a page, with the text inside the link."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self._open: list[list[str]] = []
        self._hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._hrefs.append(dict(attrs).get("href") or "")
            self._open.append([])

    def handle_data(self, data: str) -> None:
        for text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open:
            self.links.append((self._hrefs.pop(), "".join(self._open.pop())))


def anchors(html: str) -> list[tuple[str, str]]:
    parser = Anchors()
    parser.feed(html)
    parser.close()
    return parser.links


def visible_text(html: str) -> str:
    """The page's text, tags removed (for phrases that span inline markup)."""
    article = html[html.index("<article") : html.index("</article>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", article))


def test_no_link_points_at_a_local_server(built_site: Path) -> None:
    pages = [*site_pages(built_site), "404.html"]
    local = {page: [href for href, _ in anchors(page_html(built_site, page)) if LOCAL.search(href)] for page in pages}
    assert {page: hrefs for page, hrefs in local.items() if hrefs} == {}

    # The downloadable notebook links to the published site, wherever it was built.
    notebook = (built_site / "notebook/tutorial/tutorial.ipynb").read_text(encoding="utf-8")
    assert not LOCAL.search(notebook)
    cells = "".join(
        "".join(cell["source"]) for cell in json.loads(notebook)["cells"] if cell["cell_type"] == "markdown"
    )
    targets = re.findall(r"\]\((\S+?)\)", cells)
    assert f"{PUBLISHED}playground/?preset=linear" in targets
    assert all(not target.endswith(".md") for target in targets), targets

    # On the notebook page the same links are relative, so the served copy links to itself.
    page_links = [href for href, _ in anchors(page_html(built_site, "notebook/tutorial/"))]
    assert "../../playground/?preset=linear" in page_links
    assert not [href for href in page_links if href.startswith(PUBLISHED)]


def test_not_found_page_gives_a_way_back_without_fetching_repository_facts(built_site: Path) -> None:
    html = page_html(built_site, "404.html")
    assert 'data-md-component="source"' not in html  # Material would ask api.github.com for stars and forks
    text = visible_text(html)
    assert "Page not found" in text
    links = dict((text.strip(), href) for href, text in anchors(html[html.index("<article") :]))
    # Absolute (a missing page may be at any depth), under the published path: the site is built for its address.
    root = urlsplit(PUBLISHED).path
    assert links["The home page"] == root
    assert links["Chapter 1: the whole example in PyTorch"] == f"{root}chapters/1-pytorch/"
    assert re.search(rf'<form[^>]*action="{root}"[^>]*role="search"', html) and 'name="q"' in html


@pytest.mark.browser
def test_not_found_page_requests_nothing_outside_and_its_search_opens(
    visit: Callable[..., Visit], site_url: str
) -> None:
    session = visit("404.html", wait_until="networkidle", viewport={"width": 375, "height": 800})
    page = session.page
    assert session.outside == []
    assert page.locator("article h1").inner_text() == "Page not found"
    page.fill("#gg-not-found-query", "accumulate")
    page.locator(".gg-not-found-search button").click()
    page.wait_for_load_state("networkidle")
    assert page.url == site_url + "?q=accumulate"
    assert page.locator(".md-search__input").input_value() == "accumulate"  # Material's search, opened
    assert session.outside == []


def test_every_see_in_the_reference_is_a_link(built_site: Path) -> None:
    html = page_html(built_site, "reference/")
    article = html[html.index("<article") : html.index("</article>")]
    plain = re.findall(r"\b[Ss]ee <code>[^<]*</code>", article)
    assert plain == []
    linked = re.findall(r'\b[Ss]ee <a [^>]*href="([^"]+)"', article)
    assert len(linked) >= 8
    ids = set(re.findall(r'id="([^"]+)"', article))
    assert {href[1:] for href in linked if href.startswith("#")} <= ids


def test_reference_documents_what_a_reuser_needs_and_no_plumbing(built_site: Path) -> None:
    html = page_html(built_site, "reference/")
    article = html[html.index("<article") : html.index("</article>")]
    ids = set(re.findall(r'id="([^"]+)"', article))
    wanted = {
        "glassgrad.Value",
        "glassgrad.BackwardStep",
        "glassgrad.BackwardSteps",
        "glassgrad.backward",
        "glassgrad.jvp",
        "glassgrad.ForwardSteps",
        "glassgrad.scratch",
        "glassgrad.scratch.backward",
        "glassgrad.viz.graph.MAX_VALUES",
        "glassgrad.relu",
    }
    assert wanted <= ids
    # Value's operators, each a link to the operation it calls.
    value = article[article.index('id="glassgrad.Value"') : article.index('id="glassgrad.ParentLink"')]
    for operator, operation in (("u + v", "add"), ("u / v", "divide"), ("u ** k", "power"), ("-u", "negate")):
        assert re.search(rf"<code>{re.escape(operator)}</code>.*?href=\"#glassgrad\.{operation}\"", value, re.S), (
            operator
        )
    plumbing = (
        "node_id",
        "op_id",
        "edge_id",
        "out_id",
        "frames_json",
        "script_text",
        "stylesheet_text",
        "viz.fmt",
        "_Freed",
    )
    assert [name for name in plumbing if any(name in identifier for identifier in ids) or name in article] == []
    assert sum(identifier.endswith(".gradcheck") for identifier in ids) == 1


def test_install_lines_are_the_readmes(built_site: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    readme_lines = re.findall(r"^pip install .*$", readme, re.MULTILINE)
    assert any("git+https://github.com/glassgrad/glassgrad" in line for line in readme_lines)
    reuse = visible_text(page_html(built_site, "reuse/")).replace("&quot;", '"')
    for line in readme_lines:
        assert re.sub(r"\s+", " ", line) in reuse, line
    for page in site_pages(built_site):
        text = visible_text(page_html(built_site, page))
        assert not re.search(r"pip install glassgrad(?![\[\w])", text), page  # not on PyPI yet


def test_the_package_is_introduced_before_the_pages_that_use_it(built_site: Path) -> None:
    html = page_html(built_site, "")
    nav = html[html.index('class="md-nav md-nav--primary') :]
    order = [href for href, _ in anchors(nav) if "beyond/" in href]
    assert order[0].endswith("package/"), order
    bridge = visible_text(page_html(built_site, "beyond/package/"))
    for phrase in (
        'multiply(w, x, "m")',
        "(w * x + b - y) ** 2",
        "u.relu()",
        "u.log()",
        "record=False",
        "accumulate=True",
    ):
        assert phrase.replace('"', "&quot;") in bridge or phrase in bridge, phrase


def test_stability_table_shows_the_atomic_error_at_minus_365(built_site: Path) -> None:
    html = page_html(built_site, "beyond/stability/")
    tables = re.findall(r"<table>.*?</table>", html, re.S)
    gradient = next(table for table in tables if "exact σ′" in table)
    header = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<th[^>]*>(.*?)</th>", gradient)]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", gradient, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        rows[cells[0]] = dict(zip(header, cells))
    assert rows["-365"]["exact σ′"] == "3.04e-159"
    assert rows["-365"]["atomic"] == "1.1e9"  # ulps off, where four digits would have matched
    assert float(rows["-365"]["fused"]) <= 1 and float(rows["40"]["atomic"]) <= 4
    assert rows["40"]["fused"] == "✗ 0" and rows["-800"]["atomic"] == "nan"


@pytest.mark.browser
def test_stability_tables_and_plots_fit_a_phone_and_a_desktop(visit: Callable[..., Visit]) -> None:
    page = visit("beyond/stability/").page
    page.locator("label", has_text="gradient σ′(z): ulps off").click()
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('.md-typeset__table table')]
            .filter(t => t.offsetParent !== null && t.textContent.includes('exact σ'))
            .map(t => [t.getBoundingClientRect().width, t.closest('.md-typeset__scrollwrap').clientWidth])"""
        )
        assert len(sizes) == 1 and all(table <= column + 0.5 for table, column in sizes), (width, sizes)
        # Plot text on screen: the SVG's font size times its scale, at least 10 px.
        smallest = page.evaluate(
            """() => Math.min(...[...document.querySelectorAll('figure.gg-plot svg')].map(svg => {
                const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale));
            }))"""
        )
        assert smallest >= 10, (width, smallest)


def test_made_fast_shows_recorded_timings_not_build_time_ones(built_site: Path) -> None:
    """Its times are the recorded benchmark's (two builds are compared in test_site's determinism test)."""
    made_fast = visible_text(page_html(built_site, "beyond/made-fast/"))
    assert re.search(r"Recorded by make bench on \d{4}-\d\d-\d\d: .+, \d+ cores", made_fast)
    assert "µs per chain" not in made_fast


BLOCK = re.compile(r'(<div class="result">\s*)?<div class="highlight"><pre><span></span><code>(.*?)</code>', re.S)


def printed_blocks(html: str) -> list[bool]:
    """For each block of printed text (a listing with no syntax colouring), whether it is in a result box."""
    return [bool(match[1]) for match in BLOCK.finditer(html) if '<span class="' not in match[2]]


def test_printed_output_is_labelled_on_every_page_beyond_the_tutorial(built_site: Path) -> None:
    # The site's convention: output sits in a tinted box labelled "output", under its listing.
    pages = [page for page in site_pages(built_site) if page.startswith("beyond/")] + ["training/", "reuse/"]
    counts = {}
    for page in pages:
        boxed = printed_blocks(page_html(built_site, page))
        counts[page] = (sum(boxed), len(boxed))
    assert {page: both for page, both in counts.items() if both[0] != both[1]} == {}
    assert all(
        counts[page][1] > 0
        for page in ("beyond/why-order/", "beyond/pytorch-graph/", "beyond/accumulation/", "training/")
    )

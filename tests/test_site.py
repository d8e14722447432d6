"""The built site: published numbers, figures, privacy, ids, liveness, an external asset failing it, determinism.

Expected numbers come from PyTorch (`glassgrad.torch_reference`) or from the engine itself, never from
literals. Every test here needs the site built (`site` marker); the fixture builds it once per session.
A failing executed block: tests/test_exec_failures.py.
"""

from __future__ import annotations

import re
from collections import Counter
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import markdown
import pytest
import yaml

from conftest import REPO, build_site, copy_tree, keep_only_pages, page_html
from glassgrad.examples import LINEAR_INPUTS
from glassgrad.torch_reference import linear_loss as torch_linear_loss

pytestmark = pytest.mark.site

CHAPTER_1 = "chapters/1-pytorch/"

CHAPTER_2 = "chapters/2-from-scratch/"
CHAPTER_3 = "chapters/3-fused-sigmoid/"

# Generated figures (SVG outside icons and legend swatches) each page must contain, one row per page.
EXPECTED_FIGURES = {
    "": 1,  # Home: the hero graph of the first example
    CHAPTER_1: 1,  # the complete graph it opens with
    CHAPTER_2: 6,  # storage, w*w, graph before and after backward; 2 step-through players
    CHAPTER_3: 6,  # the fused and the atomic neuron; 4 step-through players (2 side by side)
    "notebook/tutorial/": 13,  # chapters 1 to 3 again: the notebook is made from the chapters
    "beyond/stability/": 2,  # value error and gradient error against z, one plot each
    "beyond/gradcheck/": 1,  # the check's error against the step size
    "beyond/why-order/": 11,  # 2 graphs that reuse a value, 2 pairs of players, the diamond after 5 runs
    "beyond/pytorch-graph/": 9,  # linear, fused and atomic neuron (glassgrad beside PyTorch), 3 ways to 1/d
    "beyond/accumulation/": 2,  # the graph after two accumulating calls; the buffers across calls
    "training/": 4,  # the two loss curves, the trained neuron's graph, the moons' decision regions
    "reuse/": 1,  # the tour's graph after backward
    "reference/": 0,
    "beyond/made-fast/": 0,  # tables and listings only
    "playground/": 5,  # the five presets, drawn at build time for readers without JavaScript
}

# Pages that end with a "Next:" link to the following page of the nav (the tutorial and Beyond).
NEXT_LINKED = (CHAPTER_1, CHAPTER_2, CHAPTER_3, "beyond/stability/", "beyond/gradcheck/", "beyond/why-order/",
               "beyond/pytorch-graph/", "beyond/accumulation/", "beyond/made-fast/")


class _Page(HTMLParser):
    """Collects a page's visible text, its element ids, its asset URLs and its generated SVGs."""

    # (tag, attribute) pairs whose URL the browser fetches by itself when the page loads.
    FETCHED = {
        ("script", "src"), ("img", "src"), ("img", "srcset"), ("iframe", "src"), ("source", "src"),
        ("source", "srcset"), ("video", "src"), ("video", "poster"), ("audio", "src"), ("embed", "src"),
        ("object", "data"), ("image", "href"), ("image", "xlink:href"), ("use", "href"), ("use", "xlink:href"),
        ("input", "src"), ("track", "src"),
    }
    LINK_FETCHED = {"stylesheet", "icon", "preload", "modulepreload", "prefetch", "manifest", "apple-touch-icon"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.ids: list[str] = []
        self.assets: list[str] = []
        self.figures = 0
        self._open: list[tuple[str, bool]] = []  # (tag, inside a Material icon) for each open element
        self._in_style = False
        self._in_article = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.ids.append(values["id"])
        for name, value in values.items():
            if (tag, name) in self.FETCHED:
                self.assets.extend(part.strip().split(" ")[0] for part in value.split(","))
            if name == "style":
                self.assets.extend(re.findall(r"url\(\s*['\"]?([^'\")]+)", value))
        if tag == "link" and self.LINK_FETCHED & set(values.get("rel", "").lower().split()):
            self.assets.append(values.get("href", ""))
        classes = values.get("class", "").split()
        # A figure is an outermost <svg> in the page's article that is not an icon.
        in_icon = (bool(self._open) and self._open[-1][1]) or any(
            name in classes
            # Material's icons, nbconvert's copy button, and a plot legend's colour swatches (part of the plot).
            for name in ("md-icon", "twemoji", "md-content__button", "headerlink", "clipboard-copy-icon", "gg-plot-swatch")
        )
        if tag == "article":
            self._in_article = True
        outermost = not any(open_tag == "svg" for open_tag, _ in self._open)
        if tag == "svg" and self._in_article and not in_icon and outermost:
            self.figures += 1
        self._in_style = tag == "style"
        if tag not in {"br", "img", "input", "link", "meta", "hr", "source", "track", "wbr", "area", "col", "embed"}:
            self._open.append((tag, in_icon))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self._open and self._open[-1][0] == tag:
            self._open.pop()

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False
        if tag == "article":
            self._in_article = False
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index][0] == tag:
                del self._open[index:]
                break

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.assets.extend(re.findall(r"(?:url\(|@import)\s*['\"]?([^'\")\s;]+)", data))
        self.text.append(data)


def parse(html: str) -> _Page:
    """Parse one page."""
    page = _Page()
    page.feed(html)
    page.close()
    return page


def text_of(html: str) -> str:
    """The page's text with tags removed (code blocks keep their line breaks)."""
    return "".join(parse(html).text)


def is_external(url: str) -> bool:
    """True for a URL the browser would fetch from another site."""
    parts = urlsplit(url.strip())
    return bool(parts.netloc) or parts.scheme not in {"", "data", "blob"}


def all_pages(site: Path) -> list[Path]:
    """Every built HTML file."""
    return sorted(site.rglob("*.html"))


# ---- chapter 1: the published numbers are PyTorch's ------------------------------------------------


def test_chapter_1_forward_line_shows_pytorch_values(built_site: Path) -> None:
    reference = torch_linear_loss()
    expected = ", ".join(f"{name} = {reference[name][0]}" for name in ("m", "a", "e", "L")).replace(", ", " , ")
    assert f"Forward: {expected}" in text_of(page_html(built_site, CHAPTER_1))


def test_chapter_1_leaf_gradients_match_pytorch(built_site: Path) -> None:
    text = text_of(page_html(built_site, CHAPTER_1))
    reference = torch_linear_loss()
    for leaf in ("w", "x", "b", "y"):
        printed = re.search(rf"^{leaf}\.grad = tensor\(([-+0-9.e]+)\)$", text, re.MULTILINE)
        assert printed, f"{leaf}.grad line missing"
        assert float(printed[1]) == reference[leaf][1]


def test_chapter_1_table_has_every_node_with_pytorch_numbers(built_site: Path) -> None:
    text = text_of(page_html(built_site, CHAPTER_1))
    reference = torch_linear_loss()
    assert len(reference) == 8
    for name, (value, grad) in reference.items():
        assert f"{name:<5} {value:8.1f} {grad:8.1f}" in text, name


def test_chapter_1_prose_numbers(built_site: Path) -> None:
    html = page_html(built_site, CHAPTER_1)
    reference = torch_linear_loss()
    for name, value in LINEAR_INPUTS.items():
        assert f'alttext="{name}={value:g}"' in html, name
    assert f'alttext="{reference["w"][1]:g}"' in html
    assert f"slope of L in w: {reference['w'][1]:.6f}" in text_of(html)  # the finite difference, to 6 decimals


# ---- every page -------------------------------------------------------------------------------------


def test_every_formula_is_mathml(built_site: Path) -> None:
    for path in all_pages(built_site):
        html = path.read_text(encoding="utf-8")
        leftover = re.findall(r'class="arithmatex">(?!<math )', html)
        assert not leftover, f"{path.relative_to(built_site)}: unconverted TeX"
    assert page_html(built_site, CHAPTER_1).count("<math ") >= 3


@pytest.mark.parametrize(
    "tex",
    [
        r"m=wx,\qquad a=m+b,\qquad e=a-y,\qquad L=e^2",
        r"\frac{\partial s}{\partial z}=s(1-s).",
        r"\underbrace{\left(-\frac{1}{d^2}\right)}_{s=1/d} \underbrace{(1)}_{d=1+q} \underbrace{(q)}_{q=\exp(n)}"
        r" \underbrace{(-1)}_{n=-z} =\frac{q}{d^2}=s(1-s).",
        r"\Delta g_u=g_v(\partial v/\partial u)",
        r"\sigma(z)",
    ],
)
def test_seed_formulas_become_mathml(tex: str) -> None:
    html = markdown.markdown(f"$${tex}$$", extensions=["pymdownx.arithmatex", "glassgrad.viz.mathml"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})
    assert html.startswith('<div class="arithmatex"><math ') and 'display="block"' in html
    assert "\\" not in html.split(">", 2)[2]  # no TeX command left in the MathML itself
    if "underbrace" in tex:
        assert html.count("<munder>") >= 8  # four braces, each with its label underneath
    if "partial" in tex:
        assert "&#x02202;" in html  # ∂


@pytest.mark.parametrize("page", sorted(EXPECTED_FIGURES))
def test_generated_figure_count(built_site: Path, page: str) -> None:
    assert parse(page_html(built_site, page)).figures == EXPECTED_FIGURES[page]


def nav_paths() -> list[str]:
    """Every page's source path under docs/, in mkdocs.yml's nav order."""
    loader = type("NavLoader", (yaml.SafeLoader,), {})
    loader.add_multi_constructor("!", lambda *_: None)  # mkdocs.yml's own tags (!ENV, python names)
    loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *_: None)
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=loader)

    def flatten(entries: list) -> list[str]:
        paths = []
        for entry in entries:
            targets = [entry] if isinstance(entry, str) else list(entry.values())
            for target in targets:
                paths.extend(flatten(target) if isinstance(target, list) else [target])
        return paths

    return flatten(config["nav"])


def url_of(path: str) -> str:
    """A page's URL inside the site from its source path (``""`` for Home)."""
    return "" if path == "index.md" else path.rsplit(".", 1)[0] + "/"


def test_next_links_follow_the_nav(built_site: Path) -> None:
    order = [url_of(path) for path in nav_paths()]
    assert set(NEXT_LINKED) <= set(order)
    for page in NEXT_LINKED:
        links = re.findall(r'<strong>Next:</strong>\s*<a href="([^"#]*)"', page_html(built_site, page))
        assert links, f"{page} has no Next: link"
        target = urljoin(f"/{page}", links[-1]).lstrip("/")
        assert target == order[order.index(page) + 1], (page, target)


def test_every_markdown_page_has_its_own_description(built_site: Path) -> None:
    site_wide = re.search(r"^site_description: (.+)$", (REPO / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    pages = [url_of(path) for path in nav_paths() if path.endswith(".md")]  # the notebook has no front matter
    assert len(pages) >= 10
    for page in pages:
        description = re.search(r'<meta name="description" content="([^"]*)"', page_html(built_site, page))
        assert description and description[1] != escape(site_wide[1]), f"{page or 'Home'} has no description"


def test_no_traceback_on_any_page(built_site: Path) -> None:
    pages = all_pages(built_site)
    assert len(pages) >= 3
    for path in pages:
        assert "Traceback" not in text_of(path.read_text(encoding="utf-8")), path.relative_to(built_site)


def test_no_asset_from_outside_the_site(built_site: Path) -> None:
    for path in all_pages(built_site):
        assets = parse(path.read_text(encoding="utf-8")).assets
        external = [url for url in assets if is_external(url)]
        assert not external, f"{path.relative_to(built_site)} loads {external}"
    for path in sorted(built_site.rglob("*.css")):
        css = path.read_text(encoding="utf-8")
        external = [url for url in re.findall(r"(?:url\(|@import)\s*['\"]?([^'\")\s;]+)", css) if is_external(url)]
        assert not external, f"{path.relative_to(built_site)} loads {external}"


def test_figure_counter_skips_icons() -> None:
    page = parse(
        '<header><svg></svg></header><article class="md-content__inner md-typeset">'
        '<a class="md-content__button md-icon"><svg></svg></a><figure><svg><g><svg></svg></g></svg></figure>'
        '<span class="twemoji"><svg></svg></span><div><svg></svg></div><svg class="gg-plot-swatch"></svg>'
        '<button class="clipboard-copy-icon"><svg></svg></button></article><footer><svg></svg></footer>'
    )
    assert page.figures == 2


def test_asset_parser_sees_external_assets() -> None:
    page = parse(
        '<script src="https://cdn.example/x.js"></script><link rel="stylesheet" href="//fonts.example/f.css">'
        '<img srcset="a.png 1x, https://img.example/b.png 2x"><svg><image href="http://e.example/i.png"/></svg>'
        '<div style="background: url(https://bg.example/p.png)"></div><style>@import "https://s.example/s.css";</style>'
    )
    assert [url for url in page.assets if is_external(url)] == [
        "https://cdn.example/x.js", "//fonts.example/f.css", "https://img.example/b.png",
        "http://e.example/i.png", "https://bg.example/p.png", "https://s.example/s.css",
    ]


def test_ids_are_unique_on_every_page(built_site: Path) -> None:
    for path in all_pages(built_site):
        repeated = [name for name, count in Counter(parse(path.read_text(encoding="utf-8")).ids).items() if count > 1]
        assert not repeated, f"{path.relative_to(built_site)} repeats ids {repeated[:10]}"


def test_package_css_is_published_and_linked(built_site: Path) -> None:
    css = REPO / "src/glassgrad/viz/glassgrad.css"
    if not css.exists():
        pytest.skip("glassgrad.viz has no stylesheet yet")
    published = built_site / "assets/glassgrad/glassgrad.css"
    assert published.read_bytes() == css.read_bytes()
    assert 'href="../../assets/glassgrad/glassgrad.css"' in page_html(built_site, CHAPTER_1)


# ---- liveness, failures, determinism (each builds a copy of the tree) -------------------------------


def test_external_asset_fails_the_build(tmp_path: Path) -> None:
    # Only two pages are built (the whole site is built by built_site).
    tree = copy_tree(tmp_path / "tree")
    keep_only_pages(tree, ["index.md", "chapters/1-pytorch.md"])
    home = tree / "docs/index.md"
    home.write_text(
        home.read_text(encoding="utf-8") + '\n![remote](https://example.com/remote-figure.png)\n', encoding="utf-8"
    )
    finished = build_site(tree, tmp_path / "site", pythonpath=tree / "src", check=False)
    log = finished.stdout + finished.stderr
    assert finished.returncode != 0
    assert re.search(r"External file: https://example\.com/remote-figure\.png.*index\.md", log), log[-3000:]
    assert "Aborted" in log


def test_build_is_deterministic(built_site: Path, rebuilt_site: Path) -> None:
    # rebuilt_site is a second, independent build of this checkout (conftest runs it beside built_site).
    second = rebuilt_site
    first_pages = sorted(path.relative_to(built_site) for path in built_site.glob("chapters/**/index.html"))
    assert first_pages == sorted(path.relative_to(second) for path in second.glob("chapters/**/index.html"))
    assert first_pages
    for relative in [*first_pages, Path("index.html")]:
        assert (built_site / relative).read_bytes() == (second / relative).read_bytes(), relative

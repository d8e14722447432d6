"""The built site: published numbers, formulas, privacy, ids, Next links, an external asset failing it, determinism.

Expected numbers come from PyTorch (`glassgrad.torch_reference`) or from the engine itself, never from
literals. Every test here needs the site built (`site` marker); the fixture builds it once per session.
A failing executed block: tests/site/test_exec_failures.py.
"""

from __future__ import annotations

import re
from collections import Counter
from html import escape
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import markdown
import pytest
from helpers import REPO, nav_paths, page_html, parse, text_of, url_of
from site_build import build_site, copy_tree, keep_only_pages, start_build

from glassgrad.examples import LINEAR_INPUTS
from glassgrad.torch_reference import linear_loss as torch_linear_loss

CHAPTER_1 = "chapters/1-pytorch/"

CHAPTER_2 = "chapters/2-from-scratch/"
CHAPTER_3 = "chapters/3-fused-sigmoid/"


def is_external(url: str) -> bool:
    """True for a URL the browser would fetch from another site."""
    parts = urlsplit(url.strip())
    return bool(parts.netloc) or parts.scheme not in {"", "data", "blob"}


def all_pages(site: Path) -> list[Path]:
    """Every built HTML file."""
    return sorted(site.rglob("*.html"))


# ---- chapter 1: the published numbers are PyTorch's ------------------------------------------------


@pytest.mark.site
def test_chapter_1_forward_line_shows_pytorch_values(built_site: Path) -> None:
    reference = torch_linear_loss()
    expected = ", ".join(f"{name} = {reference[name][0]}" for name in ("m", "a", "e", "L")).replace(", ", " , ")
    assert f"Forward: {expected}" in text_of(page_html(built_site, CHAPTER_1))


@pytest.mark.site
def test_chapter_1_leaf_gradients_match_pytorch(built_site: Path) -> None:
    text = text_of(page_html(built_site, CHAPTER_1))
    reference = torch_linear_loss()
    for leaf in ("w", "x", "b", "y"):
        printed = re.search(rf"^{leaf}\.grad = tensor\(([-+0-9.e]+)\)$", text, re.MULTILINE)
        assert printed, f"{leaf}.grad line missing"
        assert float(printed[1]) == reference[leaf][1]


@pytest.mark.site
def test_chapter_1_table_has_every_node_with_pytorch_numbers(built_site: Path) -> None:
    text = text_of(page_html(built_site, CHAPTER_1))
    reference = torch_linear_loss()
    assert len(reference) == 8
    for name, (value, grad) in reference.items():
        assert f"{name:<5} {value:8.1f} {grad:8.1f}" in text, name


@pytest.mark.site
def test_chapter_1_prose_numbers(built_site: Path) -> None:
    html = page_html(built_site, CHAPTER_1)
    reference = torch_linear_loss()
    for name, value in LINEAR_INPUTS.items():
        assert f'alttext="{name}={value:g}"' in html, name
    assert f'alttext="{reference["w"][1]:g}"' in html
    assert f"slope of L in w: {reference['w'][1]:.6f}" in text_of(html)  # the finite difference, to 6 decimals


# ---- every page -------------------------------------------------------------------------------------


@pytest.mark.site
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
    html = markdown.markdown(
        f"$${tex}$$",
        extensions=["pymdownx.arithmatex", "glassgrad_site.mathml"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    assert html.startswith('<div class="arithmatex"><math ') and 'display="block"' in html
    assert "\\" not in html.split(">", 2)[2]  # no TeX command left in the MathML itself
    if "underbrace" in tex:
        assert html.count("<munder>") >= 8  # four braces, each with its label underneath
    if "partial" in tex:
        assert "&#x02202;" in html  # ∂


@pytest.mark.site
def test_next_links_follow_the_nav(built_site: Path) -> None:
    order = [url_of(path) for path in nav_paths()]
    linked = 0
    for page in order:
        links = re.findall(r'<strong>Next:</strong>\s*<a href="([^"#]*)"', page_html(built_site, page))
        if links:  # a page that ends with "Next:" sends the reader to the following page of the nav
            target = urljoin(f"/{page}", links[-1]).lstrip("/")
            assert target == order[order.index(page) + 1], (page, target)
            linked += 1
    assert linked >= 3  # the chapters at least


@pytest.mark.site
def test_every_markdown_page_has_its_own_description(built_site: Path) -> None:
    site_wide = re.search(r"^site_description: (.+)$", (REPO / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    pages = [url_of(path) for path in nav_paths() if path.endswith(".md")]  # the notebook has no front matter
    assert len(pages) >= 10
    for page in pages:
        description = re.search(r'<meta name="description" content="([^"]*)"', page_html(built_site, page))
        assert description and description[1] != escape(site_wide[1]), f"{page or 'Home'} has no description"


@pytest.mark.site
def test_no_traceback_on_any_page(built_site: Path) -> None:
    pages = all_pages(built_site)
    assert len(pages) >= 3
    for path in pages:
        assert "Traceback" not in text_of(path.read_text(encoding="utf-8")), path.relative_to(built_site)


@pytest.mark.site
def test_no_asset_from_outside_the_site(built_site: Path) -> None:
    for path in all_pages(built_site):
        assets = parse(path.read_text(encoding="utf-8")).assets
        external = [url for url in assets if is_external(url)]
        assert not external, f"{path.relative_to(built_site)} loads {external}"
    for path in sorted(built_site.rglob("*.css")):
        css = path.read_text(encoding="utf-8")
        external = [url for url in re.findall(r"(?:url\(|@import)\s*['\"]?([^'\")\s;]+)", css) if is_external(url)]
        assert not external, f"{path.relative_to(built_site)} loads {external}"


def test_asset_parser_sees_external_assets() -> None:
    page = parse(
        '<script src="https://cdn.example/x.js"></script><link rel="stylesheet" href="//fonts.example/f.css">'
        '<img srcset="a.png 1x, https://img.example/b.png 2x"><svg><image href="http://e.example/i.png"/></svg>'
        '<div style="background: url(https://bg.example/p.png)"></div><style>@import "https://s.example/s.css";</style>'
    )
    assert [url for url in page.assets if is_external(url)] == [
        "https://cdn.example/x.js",
        "//fonts.example/f.css",
        "https://img.example/b.png",
        "http://e.example/i.png",
        "https://bg.example/p.png",
        "https://s.example/s.css",
    ]


@pytest.mark.site
def test_ids_are_unique_on_every_page(built_site: Path) -> None:
    for path in all_pages(built_site):
        repeated = [name for name, count in Counter(parse(path.read_text(encoding="utf-8")).ids).items() if count > 1]
        assert not repeated, f"{path.relative_to(built_site)} repeats ids {repeated[:10]}"


@pytest.mark.site
def test_package_css_is_published_and_linked(built_site: Path) -> None:
    css = REPO / "src/glassgrad/viz/glassgrad.css"
    published = built_site / "assets/glassgrad/glassgrad.css"
    assert published.read_bytes() == css.read_bytes()
    assert 'href="../../assets/glassgrad/glassgrad.css"' in page_html(built_site, CHAPTER_1)


# ---- liveness, failures, determinism (each builds a copy of the tree) -------------------------------


@pytest.mark.site
def test_external_asset_fails_the_build(tmp_path: Path) -> None:
    # Every page trimmed to its title: no page's code runs (the whole site is built by built_site).
    tree = copy_tree(tmp_path / "tree")
    keep_only_pages(tree, [])
    home = tree / "docs/index.md"
    home.write_text(
        home.read_text(encoding="utf-8") + "\n![remote](https://example.com/remote-figure.png)\n", encoding="utf-8"
    )
    finished = build_site(tree, tmp_path / "site", pythonpath=tree / "src", check=False, notebook=False)
    log = finished.stdout + finished.stderr
    assert finished.returncode != 0
    assert re.search(r"External file: https://example\.com/remote-figure\.png.*index\.md", log), log[-3000:]
    assert "Aborted" in log


@pytest.mark.site
def test_build_is_deterministic(built_site: Path, tmp_path: Path) -> None:
    """A second build (running only Home's, the chapters' and made-fast's code, and the notebook made of the
    chapters) writes those pages, and the notebook file, byte for byte as the full build.

    made-fast is a page that used to differ (it printed timings measured during the build), the notebook another
    (a cell's printed text came as one output or two, by the kernel's flush timing: see test_notebook_streams.py).
    The second build runs the notebook again in a kernel of its own (its own cache).
    """
    pages = [
        "index.md",
        "chapters/1-pytorch.md",
        "chapters/2-from-scratch.md",
        "chapters/3-fused-sigmoid.md",
        "beyond/made-fast.md",
    ]
    tree = copy_tree(tmp_path / "tree")
    keep_only_pages(tree, pages)
    start_build(tree, tmp_path / "site", pythonpath=tree / "src").finish()
    for page in [*map(url_of, pages), "notebook/tutorial/"]:
        assert page_html(built_site, page) == page_html(tmp_path / "site", page), page or "Home"
    notebook = "notebook/tutorial/tutorial.ipynb"
    assert (built_site / notebook).read_bytes() == (tmp_path / "site" / notebook).read_bytes()

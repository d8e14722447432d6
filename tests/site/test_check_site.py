"""scripts/check_site.py fails a built site that publishes a failed block, TeX or a missing asset.

The pages are rendered here by markdown-exec itself (as any builder runs it), not copied from a build.
"""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import markdown
import markdown_exec
from helpers import REPO

SCRIPT = REPO / "scripts" / "check_site.py"


def render(source: str) -> str:
    """Markdown with executed blocks, rendered as the site's pages are (markdown-exec, arithmatex, our math)."""
    fences = [
        {"name": language, "class": language, "validator": markdown_exec.validator, "format": markdown_exec.formatter}
        for language in ("python", "py")
    ]
    return markdown.markdown(
        source,
        extensions=["pymdownx.superfences", "pymdownx.arithmatex", "glassgrad_site.mathml"],
        extension_configs={"pymdownx.superfences": {"custom_fences": fences}, "pymdownx.arithmatex": {"generic": True}},
    )


def site_with(tmp_path: Path, body: str, head: str = "") -> Path:
    site = tmp_path / "site"
    (site / "chapter").mkdir(parents=True)
    (site / "style.css").write_text("", encoding="utf-8")
    (site / "index.html").write_text('<html><head><link rel="stylesheet" href="style.css"></head><body></body></html>')
    (site / "chapter" / "index.html").write_text(
        f"<html><head>{head}</head><body>{body}</body></html>", encoding="utf-8"
    )
    return site


def check(site: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *options, str(site)], capture_output=True, text=True, timeout=60
    )


def problems(site: Path, *options: str, about: str = "") -> list[str]:
    """The problems check_site names in `site` (those whose line holds `about`), sorted; it must fail."""
    finished = check(site, *options)
    assert finished.returncode == 1, finished.stdout
    return sorted(line.removeprefix("check_site: ") for line in finished.stderr.splitlines() if about in line)


def test_a_page_that_ran_cleanly_passes(tmp_path: Path) -> None:
    body = render('Where $w=2$:\n\n```python exec="1"\nprint(6 * 7)\n```\n')
    assert "42" in body and "<math " in body
    finished = check(site_with(tmp_path, body, '<link rel="stylesheet" href="../style.css">'))
    assert finished.returncode == 0, finished.stderr
    assert "2 pages, 0 problem(s)" in finished.stdout


def test_a_published_traceback_fails_naming_the_page(tmp_path: Path) -> None:
    body = render('```python exec="1"\nraise RuntimeError("deliberate failure")\n```\n')
    assert "deliberate failure" in body  # markdown-exec published the traceback and carried on
    finished = check(site_with(tmp_path, body))
    assert finished.returncode == 1
    assert "chapter/index.html: 1 executed block(s) failed" in finished.stderr


def test_tex_left_and_a_missing_stylesheet_fail(tmp_path: Path) -> None:
    body = '<p><span class="arithmatex">\\(w=2\\)</span></p>'
    finished = check(site_with(tmp_path, body, '<link rel="stylesheet" href="../assets/glassgrad/glassgrad.css">'))
    assert finished.returncode == 1
    assert "chapter/index.html: 1 formula(s) left as TeX" in finished.stderr
    assert (
        "chapter/index.html: links /assets/glassgrad/glassgrad.css, which the site does not contain" in finished.stderr
    )


def test_a_dead_link_and_a_missing_fragment_fail_and_a_page_not_built_is_excused(tmp_path: Path) -> None:
    body = (
        '<h2 id="kept">Kept</h2><a href="#kept">here</a><a href="../#gone">gone</a><a href="../missing/">missing</a>'
        '<a href="../notebook/tutorial/">notebook</a><a href="../notebook/tutorial/tutorial.ipynb" download>file</a>'
        '<a href="../notebook/tutorial.ipynb">nav</a><a href="../notebook/other.ipynb">other</a>'
        '<a href="https://example.org/elsewhere/">outside</a><a href="#">top</a>'
    )
    site = site_with(tmp_path, body)
    dead = problems(site, about="dead link")
    assert dead == [
        "chapter/index.html: dead link ../#gone (no id 'gone' on index.html)",
        "chapter/index.html: dead link ../missing/ (the site has no missing/index.html)",
        "chapter/index.html: dead link ../notebook/other.ipynb (the site has no notebook/other.ipynb)",
        "chapter/index.html: dead link ../notebook/tutorial.ipynb (the site has no notebook/tutorial.ipynb)",
        "chapter/index.html: dead link ../notebook/tutorial/ (the site has no notebook/tutorial/index.html)",
        "chapter/index.html: dead link ../notebook/tutorial/tutorial.ipynb (the site has no notebook/tutorial/tutorial.ipynb)",
    ]
    # The notebook, named as not built (Zensical has no notebooks): links to it and its page are not counted.
    assert problems(site, "--not-built", "notebook/tutorial.ipynb", about="dead link") == dead[:3]


def test_a_source_link_only_one_builder_resolves_fails(tmp_path: Path) -> None:
    """--sources: a page's built address (MkDocs resolves it from the built page, Zensical from the source file) fails;
    a link to the source file, an asset, or a page of the nav that a hook generates passes."""
    site = site_with(tmp_path, "")
    docs = tmp_path / "docs"
    (docs / "beyond").mkdir(parents=True)
    (docs / "playground.md").write_text("# Playground\n", encoding="utf-8")
    (docs / "beyond" / "page.md").write_text(
        "[same for both](../playground.md#code=eA) [asset](../playground.md?preset=linear) [notebook](../notebook/tutorial.ipynb)\n"
        "`f[i](x)` [outside](https://example.org/a/)\n\n"
        '```python exec="1"\nprint(f"[run it](../../playground/#code={code})")\n```\n'
        "[folder](../beyond) [gone](missing.md) [root](/playground/)\n\n[ref]: ../../elsewhere.md\n",
        encoding="utf-8",
    )
    (tmp_path / "mkdocs.yml").write_text("nav:\n  - Notebook: notebook/tutorial.ipynb\n", encoding="utf-8")
    assert problems(site, "--sources", str(docs)) == [
        "beyond/page.md: links ../../elsewhere.md, which is no file under " + str(docs),
        "beyond/page.md: links ../../playground/#code={code}, a built page's address: link its source file (page.md)",
        "beyond/page.md: links ../beyond, a built page's address: link its source file (page.md)",
        "beyond/page.md: links /playground/, an absolute path (it breaks under the published /glassgrad/)",
        "beyond/page.md: links missing.md, which is no file under " + str(docs),
    ]


def test_a_script_stylesheet_or_font_from_another_origin_fails(tmp_path: Path) -> None:
    """Each way a page can load from elsewhere is named; links to elsewhere and the site's own assets are not."""
    mathjax_loader = html.escape('{"url": "https://cdn.jsdelivr.net/npm/mathjax@4.1.3/tex-mml-chtml.js", "version": 4}')
    head = (
        '<link rel="stylesheet" href="../style.css"><script src="https://cdn.example.org/lib.js"></script>'
        '<link rel="preload" as="font" href="//fonts.example.org/font.woff2">'
        '<link rel="stylesheet" href="https://fonts.example.org/css2?family=Roboto">'
        '<style>@font-face { src: url("https://fonts.example.org/a.ttf"), url(data:font/woff2;base64,AA) }</style>'
        f'<script data-mkdocs-jupyter-mathjax="{mathjax_loader}">/* loads config.url */</script>'
        "<script>const s = document.createElement('script'); s.src = 'https://unpkg.com/x@1/x.min.js';</script>"
    )
    body = '<a href="https://example.org/page.js">a link, not a load</a><img src="data:image/png;base64,AA">'
    site = site_with(tmp_path, body, head)
    (site / "style.css").write_text("@import 'https://cdn.example.org/more.css'; a { color: red }", encoding="utf-8")
    elsewhere = (
        "//fonts.example.org/font.woff2",
        "https://cdn.example.org/lib.js",
        "https://cdn.jsdelivr.net/npm/mathjax@4.1.3/tex-mml-chtml.js",
        "https://fonts.example.org/a.ttf",
        "https://fonts.example.org/css2?family=Roboto",
        "https://unpkg.com/x@1/x.min.js",
    )
    assert problems(site, about="another origin") == [
        *(
            f"chapter/index.html: loads {url} from another origin (the site must request nothing outside itself)"
            for url in elsewhere
        ),
        "style.css: loads https://cdn.example.org/more.css from another origin",
    ]


def test_a_canonical_link_or_sitemap_entry_to_this_machine_fails(tmp_path: Path) -> None:
    """A site built with a local site_url is named: each page's canonical link, and the sitemap once."""
    site = site_with(tmp_path, "", '<link rel="canonical" href="http://127.0.0.1:8000/chapter/">')
    (site / "index.html").write_text('<html><head><link rel="canonical" href="http://localhost/"></head></html>')
    (site / "sitemap.xml").write_text(
        "<urlset><url><loc>https://example.org/docs/</loc></url><url><loc>http://[::1]:8000/chapter/</loc></url></urlset>"
    )
    assert problems(site) == [
        "chapter/index.html: canonical link to http://127.0.0.1:8000/chapter/, a local address (site_url: the published one, or none)",
        "index.html: canonical link to http://localhost/, a local address (site_url: the published one, or none)",
        "sitemap.xml: 1 address(es) on this machine, such as http://[::1]:8000/chapter/ (site_url is local)",
    ]


def test_a_published_canonical_link_and_sitemap_pass(tmp_path: Path) -> None:
    site = site_with(tmp_path, "", '<link rel="canonical" href="https://example.org/docs/chapter/">')
    (site / "sitemap.xml").write_text("<urlset><url><loc>https://example.org/docs/chapter/</loc></url></urlset>")
    finished = check(site)
    assert finished.returncode == 0, finished.stderr
    assert "no local address in a canonical link or the sitemap" in finished.stdout


def test_absolute_links_resolve_under_the_path_the_site_is_built_for(tmp_path: Path) -> None:
    """A site built for https://example.org/docs/ (its 404 page links absolutely): /docs/... is the site's own."""
    site = site_with(tmp_path, '<a href="/docs/chapter/">ok</a> <a href="/chapter/">outside the site</a>')
    (site / "index.html").write_text(
        '<html><head><link rel="canonical" href="https://example.org/docs/"></head></html>'
    )
    (site / "404.html").write_text('<html><head><link rel="stylesheet" href="/docs/style.css"></head></html>')
    assert problems(site) == [
        "chapter/index.html: dead link /chapter/ (outside /docs/, the path the site is built for)"
    ]

"""The tutorial notebook: generated from the chapter pages, run in a fresh kernel, published executed.

`docs/hooks/notebook.py` makes the notebook from `docs/chapters/*.md` (prose to Markdown cells,
executed Python blocks to code cells, snippet includes expanded); mkdocs-jupyter executes it.
The oracle for "the same code as the chapters" is Python-Markdown itself: the site's own
pymdownx.snippets and superfences, with a fence that records every executed block.
"""

from __future__ import annotations

import functools
import importlib
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import nbformat
import pytest
from helpers import REPO, Visit, executed_blocks, page_html, parse, text_of
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from mkdocs.exceptions import PluginError
from nbclient import NotebookClient
from site_build import build_site

DOCS = REPO / "docs"
PAGE = "notebook/tutorial/"
KERNEL_NAME = "glassgrad-test"


@functools.cache
def notebook_hook() -> Any:
    """glassgrad_site.notebook (what docs/hooks/notebook.py calls), imported when a test first needs it (a broken
    module fails tests, not collection)."""
    return importlib.import_module("glassgrad_site.notebook")


def snippet_settings(base: Path) -> dict:
    return {"base_path": [str(base)], "check_paths": True}


def expander(base: Path):
    return notebook_hook().snippet_expander({"mdx_configs": {"pymdownx.snippets": snippet_settings(base)}})


def code_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def stream_text(cell: nbformat.NotebookNode, name: str = "stdout") -> str:
    """Everything a code cell printed to one stream."""
    return "".join(
        output.text for output in cell.get("outputs", []) if output.output_type == "stream" and output.name == name
    )


def html_outputs(cell: nbformat.NotebookNode) -> list[str]:
    """The text/html of every rich output of a code cell."""
    return [
        output.data["text/html"]
        for output in cell.get("outputs", [])
        if output.output_type in {"display_data", "execute_result"} and "text/html" in output.data
    ]


def without_page_only(text: str) -> str:
    """`text` without its sections that only the page can show (an explorer): from a heading with the class
    ``gg-page-only`` to the next heading of its level or above (the chapters' hold no other line starting with "#")."""
    pieces, start = [], 0
    for heading in re.finditer(r"^(#+) [^\n]*\{ \.gg-page-only \}$", text, re.MULTILINE):
        if heading.start() < start:
            continue
        pieces.append(text[start : heading.start()])
        after = re.compile(rf"^#{{1,{len(heading[1])}}} ", re.MULTILINE).search(text, heading.end())
        start = after.start() if after else len(text)
    return "".join(pieces) + text[start:]


def chapter_pages() -> list[tuple[str, str]]:
    return [
        (path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(DOCS.glob(notebook_hook().CHAPTERS))
    ]


@pytest.fixture(scope="module")
def generated() -> nbformat.NotebookNode:
    """The notebook made from this checkout's chapters."""
    return notebook_hook().tutorial_notebook(chapter_pages(), expander(REPO), site_url="https://site.test/")


# ---- generated from the chapters ------------------------------------------------------------------------


FIGURES = """\
figure = Figure("<b>bold</b>")
print(figure)
for part in (figure, figure):
    print(part)
print("two", "arguments")


def show_again():
    print(figure)


show_again()"""

SYNTHETIC_CHAPTER = """\
---
description: a page's front matter is not part of the notebook
---

# 9 · A small chapter

Some prose with \\(w=2\\) inline, `a \\(code\\) span` and a [link](../reference.md#glassgrad.Value).

\\[ L = e^2 \\]

```python exec="1" session="small"
--8<-- "snippets/small/setup.py"
```

## Run it

```python exec="1" source="above" result="text" session="small"
print("L =", square(3))
```

```python exec="1" html="1" session="small"
{FIGURES}
```

Shown, never run:

```python title="example.py"
print("not executed")
```

**Next:** [10 · Another chapter](10-another.md)
""".replace("{FIGURES}", FIGURES)

SNIPPET = """\
def square(value):
    return value * value


class Figure:
    def __init__(self, html):
        self.html = html

    def _repr_html_(self):
        return self.html
"""


def write_synthetic_chapter(root: Path) -> None:
    (root / "snippets" / "small").mkdir(parents=True)
    (root / "snippets" / "small" / "setup.py").write_text(SNIPPET, encoding="utf-8")


def test_a_chapter_becomes_markdown_and_code_cells(tmp_path: Path) -> None:
    write_synthetic_chapter(tmp_path)
    cells = notebook_hook().chapter_cells(
        SYNTHETIC_CHAPTER, expander(tmp_path), page_url="chapters/9-small.md", site_url="https://site.test/docs/"
    )
    assert [cell.cell_type for cell in cells] == ["markdown", "code", "markdown", "code", "code", "markdown"]
    title, setup, heading, listing, figures, shown = (cell.source for cell in cells)
    assert title == (
        "## 9 · A small chapter\n\n"
        "Some prose with $w=2$ inline, `a \\(code\\) span` and a [link](https://site.test/docs/reference/#glassgrad.Value).\n\n"
        "$$ L = e^2 $$"
    )
    assert setup == SNIPPET.strip("\n")  # the include, expanded
    assert heading == "### Run it"
    assert listing == 'print("L =", square(3))'
    # Each statement print(one fragment) shows it; a print of two values stays.
    assert figures == FIGURES.replace("print(figure)", "display(figure)").replace("print(part)", "display(part)")
    assert shown == 'Shown, never run:\n\n```python\nprint("not executed")\n```'
    assert "Next:" not in shown  # no closing "Next:" link: in the notebook, the next chapter follows


def test_an_executed_block_the_notebook_cannot_run_is_refused(tmp_path: Path) -> None:
    page = 'Text.\n\n```pycon exec="1"\n>>> 1 + 1\n```\n'
    with pytest.raises(PluginError, match="chapters/9-small.md: the notebook runs Python blocks only; .*'pycon'"):
        notebook_hook().chapter_cells(page, expander(tmp_path), page_url="chapters/9-small.md")


def test_a_section_only_the_page_can_show_is_left_out(tmp_path: Path) -> None:
    page = (
        "## Before\n\nKept.\n\n## Move the inputs { .gg-page-only }\n\nA slider for each input.\n\n"
        '```python exec="1"\n# a comment, not a heading\nassert True\n```\n\n### Inside it\n\n'
        '<div class="gg-explore-slot" data-gg-explore="linear"></div>\n\n## After\n\n```python exec="1"\nx = 1\n```\n'
    )
    cells = notebook_hook().chapter_cells(page, expander(tmp_path), page_url="chapters/9-small.md")
    assert [cell.source for cell in cells] == ["### Before\n\nKept.", "### After", "x = 1"]


def test_the_chapters_explorers_are_not_in_the_notebook(generated: nbformat.NotebookNode) -> None:
    text = "\n".join(cell.source for cell in generated.cells)
    assert "gg-explore" not in text and "Move the inputs" not in text and "slider" not in text
    pages = dict(chapter_pages())  # while the chapters themselves have them
    assert all(
        "## Move the inputs { .gg-page-only }" in pages[f"chapters/{name}.md"]
        for name in ("2-from-scratch", "3-fused-sigmoid")
    )


def test_the_synthetic_chapter_runs_and_displays_its_html(tmp_path: Path, kernel_manager: KernelManager) -> None:
    write_synthetic_chapter(tmp_path)
    notebook = notebook_hook().tutorial_notebook([("chapters/9-small.md", SYNTHETIC_CHAPTER)], expander(tmp_path))
    notebook.cells = [cell for cell in notebook.cells if "stylesheet" not in cell.source]  # no glassgrad needed here
    NotebookClient(notebook, km=kernel_manager, timeout=120, allow_errors=False).execute()
    listing, figures = code_cells(notebook)[1:]
    assert stream_text(listing) == "L = 9\n"
    assert html_outputs(figures) == ["<b>bold</b>"] * 4 and stream_text(figures) == "two arguments\n"


SCRATCH_CHAPTER = """\
# 2 · From scratch

```python exec="1" source="above" session="scratch"
--8<-- "src/glassgrad/scratch.py"
```

```python exec="1" source="above" result="text" session="scratch"
w, x, b, y = Value(2.0, "w"), Value(3.0, "x"), Value(1.0, "b"), Value(10.0, "y")
L = square(subtract(add(multiply(w, x), b), y))
steps = backward(L)
print("L =", L.data, "and w.grad =", w.grad)
```
"""


def test_a_chapter_listing_the_scratch_engine_runs_that_engine(kernel_manager: KernelManager) -> None:
    notebook = notebook_hook().tutorial_notebook([("chapters/2-scratch.md", SCRATCH_CHAPTER)], expander(REPO))
    engine, example = code_cells(notebook)[1:]
    source = (REPO / "src" / "glassgrad" / "scratch.py").read_text(encoding="utf-8")
    # pymdownx.snippets drops the lines that mark sections (`# --8<-- [start:name]`) from what it includes.
    listed = "\n".join(line for line in source.splitlines() if "--8<-- [" not in line)
    assert engine.source == listed.strip("\n")
    NotebookClient(notebook, km=kernel_manager, timeout=120, allow_errors=False).execute()
    assert stream_text(example) == "L = 9.0 and w.grad = -18.0\n"


def test_editing_a_snippet_edits_the_notebook(tmp_path: Path) -> None:
    write_synthetic_chapter(tmp_path)
    before = notebook_hook().chapter_cells(SYNTHETIC_CHAPTER, expander(tmp_path))
    (tmp_path / "snippets" / "small" / "setup.py").write_text(
        "def square(value):\n    return value ** 2\n", encoding="utf-8"
    )
    after = notebook_hook().chapter_cells(SYNTHETIC_CHAPTER, expander(tmp_path))
    assert before[1].source != after[1].source == "def square(value):\n    return value ** 2"
    assert [cell.source for cell in before[2:]] == [cell.source for cell in after[2:]]


def test_code_cells_are_the_chapters_executed_blocks_in_order(generated: nbformat.NotebookNode) -> None:
    expected = []
    for _, text in chapter_pages():
        for code, _options in executed_blocks(without_page_only(text), REPO):
            expected.append(code.strip("\n"))
    cells = [cell.source for cell in code_cells(generated)]
    assert cells[0] == notebook_hook().SETUP  # the stylesheet, for the figures' colours outside the site
    # html="1" blocks print HTML fragments; in the notebook, `display` shows them (a page may call display too).
    assert [cell.replace("display(", "print(") for cell in cells[1:]] == [
        code.replace("display(", "print(") for code in expected
    ]
    assert len(expected) >= 10


def test_no_code_line_is_longer_than_88_characters(generated: nbformat.NotebookNode) -> None:
    """The notebook's code reads without scrolling sideways: a longer line wraps in the chapter's source."""
    long = [line for cell in code_cells(generated) for line in cell.source.splitlines() if len(line) > 88]
    assert long == []


def test_every_chapter_heading_is_in_the_notebook_one_level_down(generated: nbformat.NotebookNode) -> None:
    prose = "\n".join(cell.source for cell in generated.cells if cell.cell_type == "markdown")
    for _, text in chapter_pages():
        outside_fences = re.sub(
            r"^[ \t]*(`{3,}|~{3,}).*?^[ \t]*\1[ \t]*$", "", without_page_only(text), flags=re.MULTILINE | re.DOTALL
        )
        headings = re.findall(r"^(#{1,5}) (.+)$", outside_fences, re.MULTILINE)
        assert headings and all(f"#{level} {title}\n" in prose + "\n" for level, title in headings)
    assert "\\(" not in prose and "description:" not in prose  # math as Jupyter writes it; no front matter


def test_notebook_is_valid_and_the_same_every_time(generated: nbformat.NotebookNode) -> None:
    again = notebook_hook().tutorial_notebook(chapter_pages(), expander(REPO), site_url="https://site.test/")
    nbformat.validate(generated)
    assert nbformat.writes(again) == nbformat.writes(
        generated
    )  # stable cell ids: the page and download change only with the chapters
    assert generated.metadata["kernelspec"]["language"] == "python"
    assert not list(DOCS.rglob("*.ipynb")), "generated notebooks must not land in docs/"


# ---- run in a fresh kernel ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kernel_manager(tmp_path_factory: pytest.TempPathFactory) -> KernelManager:
    """A kernel that runs this interpreter (the venv's Python), whatever kernels the machine has registered."""
    from ipykernel.kernelspec import write_kernel_spec

    kernels = tmp_path_factory.mktemp("kernels")
    write_kernel_spec(kernels / KERNEL_NAME)  # its argv starts with sys.executable
    return KernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))


# ---- the hook in a small site ----------------------------------------------------------------------------


def jupyter_plugin_block() -> str:
    """The mkdocs-jupyter entry of the real mkdocs.yml, as text (it holds an !ENV tag that MkDocs resolves)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    block = re.search(r"^  - mkdocs-jupyter:\n(?:      .*\n)+", text, re.MULTILINE)
    assert block, "mkdocs.yml has no mkdocs-jupyter plugin entry"
    return block[0]


def small_site(root: Path, cell: str) -> Path:
    """A site with one chapter whose only executed block is `cell`, built with the real hook and plugin settings."""
    (root / "docs" / "chapters").mkdir(parents=True, exist_ok=True)
    (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (root / "docs" / "chapters" / "1-small.md").write_text(
        f'# 1 · Small\n\nWith \\(w=2\\):\n\n```python exec="1"\n{cell}\n```\n', encoding="utf-8"
    )
    (root / "mkdocs.yml").write_text(
        "site_name: notebook hook test\ntheme:\n  name: material\n"
        "plugins:\n" + jupyter_plugin_block() + f"hooks:\n  - {REPO / 'docs' / 'hooks' / 'notebook.py'}\n"
        "markdown_extensions:\n  - pymdownx.superfences\n  - pymdownx.snippets:\n      check_paths: true\n"
        "nav:\n  - Home: index.md\n  - chapters/1-small.md\n  - Notebook: notebook/tutorial.ipynb\n",
        encoding="utf-8",
    )
    return root / "site"


@pytest.mark.site
def test_small_site_runs_the_notebook_once_per_engine(tmp_path: Path) -> None:
    site = small_site(tmp_path, 'print("forward", 6 * 7)')
    first = build_site(tmp_path, site, pythonpath=REPO / "src").stdout
    assert "Converting notebook (execute=True)" in first
    html = page_html(site, PAGE)
    assert "forward 42" in html and 'href="tutorial.ipynb" download' in html and 'alttext="w=2"' in html
    published = nbformat.read(site / "notebook" / "tutorial" / "tutorial.ipynb", as_version=4)
    assert [cell.source for cell in code_cells(published)] == [notebook_hook().SETUP, 'print("forward", 6 * 7)']
    # Same chapters, same engine: mkdocs-jupyter's cache serves the page, no kernel starts.
    second = build_site(tmp_path, site, pythonpath=REPO / "src").stdout
    assert "Cache hit" in second and "Converting notebook" not in second
    # A changed engine is a new notebook: it runs again.
    engine = tmp_path / "engine"
    shutil.copytree(REPO / "src", engine, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    with (engine / "glassgrad" / "__init__.py").open("a", encoding="utf-8") as module:
        module.write("\n# changed\n")
    third = build_site(tmp_path, site, pythonpath=engine).stdout
    assert "Converting notebook (execute=True)" in third
    assert sorted(path.name for path in (tmp_path / "docs").rglob("*")) == ["1-small.md", "chapters", "index.md"]


@pytest.mark.site
def test_a_raising_cell_fails_the_build(tmp_path: Path) -> None:
    site = small_site(tmp_path, 'raise RuntimeError("deliberate notebook failure")')
    finished = build_site(tmp_path, site, pythonpath=REPO / "src", check=False)
    assert finished.returncode != 0 and "deliberate notebook failure" in finished.stdout, finished.stdout[-3000:]
    assert not (site / "notebook" / "tutorial" / "index.html").exists()


def test_page_rewrite_drops_cdn_loaders_converts_math_and_adds_the_download_link() -> None:
    rendered = (
        '<!-- Load mathjax -->\n<script src="https://cdn.example/mathjax.js"> </script>\n<!-- MathJax configuration -->\n'
        '<script type="text/x-mathjax-config">init_mathjax()</script>'
        '<script type="module">const m = await import("https://cdn.example/mermaid.mjs");</script>'
        "<script>window.keep = 1;</script>"
        '<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput"><h1>Title</h1>'
        "<p>$$L=e^2$$</p><p>with $a=b$ and <code>$x$</code></p></div>"
        "<style>\n['pre { line-height: 125%; }']\n</style>"
    )
    page = notebook_hook().notebook_page_html(rendered)
    assert "cdn.example" not in page and "x-mathjax-config" not in page and "['pre" not in page
    assert "<script>window.keep = 1;</script>" in page
    assert '<div class="arithmatex">\\[L=e^2\\]</div>' in page and '<span class="arithmatex">\\(a=b\\)</span>' in page
    assert "<code>$x$</code>" in page
    assert '<h1>Title</h1><p class="gg-notebook-download"><a href="tutorial.ipynb" download>' in page


# ---- the published page ----------------------------------------------------------------------------------


def players(html: str) -> int:
    return html.count("data-gg-player=")


@pytest.mark.site
def test_page_reproduces_the_tutorial_numbers_and_shows_figures_not_their_markup(built_site: Path) -> None:
    """The notebook, run by the build in a fresh kernel, prints the chapters' numbers and displays their HTML."""
    printed = text_of(page_html(built_site, PAGE))
    # Printed as `L = 9.0` and `w.grad = tensor(-18., ...)`, or as rows of the table of values and gradients.
    assert re.search(r"\bL\s*=\s*(tensor\()?9(\.0*)?\b|^\s*L\s+9\.0+\s+1\.0+\s*$", printed, re.MULTILINE)
    assert re.search(r"\bw\.grad\s*=\s*(tensor\()?-18(\.0*)?\b|^\s*w\s+2\.0+\s+-18\.0+\s*$", printed, re.MULTILINE)
    assert "<svg" not in printed and 'class="gg' not in printed  # no figure printed as text


@pytest.mark.site
def test_page_shows_the_executed_outputs(built_site: Path) -> None:
    html = page_html(built_site, PAGE)
    assert "Out[" in html or "jp-OutputArea-output" in html
    assert (
        "Traceback" not in html
        and 'class="jp-OutputArea-output" data-mime-type="application/vnd.jupyter.stderr"' not in html
    )
    # Every player of the chapters, once more on the notebook page.
    chapters = [f"{path[: -len('.md')]}/" for path, _ in chapter_pages()]
    assert players(html) == sum(players(page_html(built_site, page)) for page in chapters) > 0


@pytest.mark.site
def test_download_link_serves_the_chapters_notebook(built_site: Path, generated: nbformat.NotebookNode) -> None:
    downloads = parse(page_html(built_site, PAGE)).downloads
    assert len(downloads) == 1
    target = urlsplit(urljoin(f"https://site.test/{PAGE}", downloads[0])).path.lstrip("/")
    published = nbformat.read(built_site / target, as_version=4)
    nbformat.validate(published)
    assert [cell.source for cell in code_cells(published)] == [cell.source for cell in code_cells(generated)]
    assert not [cell for cell in code_cells(published) if cell.outputs]  # the download is for running, not reading


@pytest.mark.site
def test_page_loads_nothing_from_outside_the_site(built_site: Path) -> None:
    html = page_html(built_site, PAGE)
    assert not [url for url in parse(html).assets if urlsplit(url).netloc]
    assert '<script src="">' not in html
    for cdn in ("cdnjs", "unpkg.com", "jsdelivr", "mathjax.js", "mermaid.esm"):
        assert cdn not in html, cdn


@pytest.mark.site
def test_page_math_is_mathml(built_site: Path) -> None:
    html = page_html(built_site, PAGE)
    markdown_cells = re.findall(r"jp-RenderedMarkdown[^>]*>(.*?)</div>\s*</div>", html, re.DOTALL)
    assert markdown_cells and html.count("<math ") >= 10
    assert not [
        cell
        for cell in markdown_cells
        if re.search(r"\$[^$<]+\$", re.sub(r"<code>.*?</code>", "", cell, flags=re.DOTALL))
    ]


# ---- the published page in a browser ---------------------------------------------------------------------

# For every field name of the state cards: on how many lines its text is laid out (1 unless its column is squeezed).
FIELD_NAME_LINES = """() => [...document.querySelectorAll('.gg-state .gg-card dt')].map(dt => {
  const range = document.createRange();
  range.selectNodeContents(dt);
  return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size;
})"""


@pytest.mark.site
@pytest.mark.browser
def test_page_in_a_browser_readies_every_player_and_lays_out_outputs_as_on_the_site(
    built_site: Path, visit: Callable[..., Visit]
) -> None:
    """Players, state cards, the first figure and the prompts. (Console and requests: tests/site/test_every_page.py.)"""
    page = visit(PAGE).page
    page.wait_for_function(  # every player initialises (however loaded the machine is)
        "() => document.querySelectorAll('.gg-player:not([data-gg-ready])').length === 0", timeout=15000
    )
    assert (
        page.evaluate("document.querySelectorAll('.gg-player[data-gg-ready]').length")
        == players(page_html(built_site, PAGE))
        > 0
    )
    lines = page.evaluate(FIELD_NAME_LINES)
    assert set(lines) <= {1}, lines  # Jupyter's own dl/dt/dd rules would wrap ".parents" one letter per line
    # The first figure is whole (nothing in it cut or scrolled), and no output shows an empty "Out[n]:".
    first = page.locator(".jp-OutputArea-output .gg-graph").first
    cut = first.evaluate(
        "figure => [...figure.querySelectorAll('*')].filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible').length"
    )
    assert cut == 0
    prompts = page.evaluate(
        "[...document.querySelectorAll('.jp-OutputPrompt')].filter(e => e.offsetParent !== null).map(e => e.textContent.trim())"
    )
    assert prompts == []

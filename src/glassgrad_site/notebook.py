"""The tutorial notebook, generated from the chapter pages before each build (`docs/hooks/notebook.py` calls it).

Each ``docs/chapters/*.md`` page becomes Markdown cells (its prose) and code cells (its executed Python
blocks, ``--8<--`` includes expanded), so the notebook has no code of its own. mkdocs-jupyter runs it and
caches the page by the notebook's bytes, which carry a digest of the glassgrad sources. Links to other pages
point at the published site (the package's Documentation address), so they work in a downloaded copy;
on the page they are made relative again. The hook also adds the download link, hands the TeX to
``glassgrad_site.mathml`` and drops nbconvert's CDN loaders; and it points nbconvert at docs/hooks/jupyter/, whose
configuration joins each cell's outputs of one stream after the run (so every build renders the same page).
Nothing here keeps state between builds: the hook imports it afresh for each (docs/hooks/fresh_modules.py).
"""

from __future__ import annotations

import ast
import hashlib
import html
import importlib.util
import os
import re
from collections.abc import Callable
from importlib.metadata import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import markdown
import nbformat
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from glassgrad_site.mathml import render_arithmatex

CHAPTERS = "chapters/*.md"  # the pages the notebook is made of, in file-name order
NOTEBOOK = "notebook/tutorial.ipynb"  # its place in the site; it is written under .cache/

INTRODUCTION = """\
# glassgrad: the whole tutorial in one notebook

The chapters of the tutorial, in one notebook that runs top to bottom: the same code, in the same
order, with the same words. To run it yourself, install glassgrad with its `torch` and `viz` extras
(the figures also need Graphviz's `dot`). The first cell loads glassgrad's stylesheet, which gives
the figures their colours outside the site."""

SETUP = "from glassgrad.viz import stylesheet\n\nstylesheet()"

DOWNLOAD_NOTE = (
    '<p class="gg-notebook-download"><a href="{name}" download>Download this notebook ({name})</a>'
    " and run it in Jupyter; below, the same notebook with its outputs.</p>"
)

NEXT_LINK = "**Next:**"  # a page's closing link to the next page of the nav
TRUE = {"1", "true", "yes", "on"}
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*\{?\.?(?P<lang>[\w+-]*)(?P<options>[^\n`]*?)\}?[ \t]*$"
)
OPTION = re.compile(r'([\w-]+)=(?:"([^"]*)"|\'([^\']*)\'|(\S+))')
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
INLINE_TEX = re.compile(r"\\\((.+?)\\\)", re.DOTALL)
DISPLAY_TEX = re.compile(r"\\\[(.+?)\\\]", re.DOTALL)
PAGE_LINK = re.compile(r"\]\((?P<path>[^)\s:?#]+\.md)(?P<anchor>[?#][^)\s]*)?\)")  # anchor: a #fragment or a ?query
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
# A section only the site's page can show (an explorer: sliders the page's script moves): not in the notebook.
PAGE_ONLY = re.compile(r"^#+ .*\{:?[ \t]*\.gg-page-only[ \t]*\}[ \t]*$")

# On the rendered page: nbconvert's MathJax loader and configuration, its Mermaid loader, and the
# highlighting CSS that mkdocs-jupyter appends a second time as the repr of a Python list.
INJECTED_SCRIPTS = re.compile(
    r'<script src="[^"]*">\s*</script>\s*(?=<!-- MathJax configuration -->)'
    r'|<script type="text/x-mathjax-config">.*?</script>'
    r'|<script type="module">(?:(?!</script>).)*?mermaid.*?</script>',
    re.DOTALL,
)
LIST_REPR_STYLE = re.compile(r"<style>\s*\['.*?'\]\s*</style>", re.DOTALL)
MARKDOWN_CELL = re.compile(r'(<div class="[^"]*\bjp-RenderedMarkdown\b[^"]*"[^>]*>)(.*?)(</div>)', re.DOTALL)
DISPLAY_PARAGRAPH = re.compile(r"<p>\s*\$\$(?P<tex>.+?)\$\$\s*</p>", re.DOTALL)
INLINE = re.compile(r"(?<![\\$])\$(?P<tex>[^$<>]+?)\$")
HTML_CODE = re.compile(r"(<code\b.*?</code>)", re.DOTALL)


def fence_options(text: str) -> dict[str, str]:
    """``exec="1" session="ch1" html="1"`` as a dict."""
    return {
        match[1]: next(value for value in match.groups()[1:] if value is not None) for match in OPTION.finditer(text)
    }


def displayed(code: str) -> str:
    """`code` with each statement ``print(x)`` written ``display(x)``: an ``html="1"`` block prints
    HTML fragments into the page, and in Jupyter ``display`` shows them through their ``_repr_html_``."""
    calls = [
        node.value
        for node in ast.walk(ast.parse(code))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
    ]
    prints = [
        call.func
        for call in calls
        if getattr(call.func, "id", None) == "print" and len(call.args) == 1 and not call.keywords
    ]
    lines = code.split("\n")
    for name in sorted(prints, key=lambda name: (name.lineno, name.col_offset), reverse=True):
        line = lines[name.lineno - 1]
        lines[name.lineno - 1] = line[: name.col_offset] + "display" + line[name.col_offset + len("print") :]
    return "\n".join(lines)


def notebook_markdown(text: str, page_url: str, site_url: str) -> str:
    """Page prose as Jupyter Markdown: ``\\(x\\)`` as ``$x$``, ``\\[x\\]`` as ``$$x$$``, links to pages as site URLs."""
    pieces, start = [], 0
    for span in [*CODE_SPAN.finditer(text), None]:  # code spans stay as they are
        end = span.start() if span else len(text)
        piece = DISPLAY_TEX.sub(lambda match: f"$${match[1]}$$", text[start:end])
        piece = INLINE_TEX.sub(lambda match: f"${match[1].strip()}$", piece)
        pieces.append(PAGE_LINK.sub(lambda match: "](" + page_link(match, page_url, site_url) + ")", piece))
        if span:
            pieces.append(span[0])
            start = span.end()
    return "".join(pieces)


def page_link(match: re.Match[str], page_url: str, site_url: str) -> str:
    """A relative link to ``other.md`` from the page at `page_url`, as the other page's address on the site."""
    target = urljoin("/" + page_url, match["path"])
    target = re.sub(r"(?:/index)?\.md$", "/", target).lstrip("/")
    return urljoin(site_url, target) + (match["anchor"] or "")


def chapter_cells(
    text: str, expand: Callable[[str], str], *, page_url: str = "", site_url: str = "/"
) -> list[nbformat.NotebookNode]:
    """The cells of one chapter page (its Markdown `text`): prose as Markdown cells (split before each
    heading, one level lower than on the page), each executed Python block as a code cell. `expand`
    expands its ``--8<--`` includes; links are resolved from `page_url` into addresses on `site_url`.
    A section whose heading has the class ``gg-page-only`` (``## Move the inputs { .gg-page-only }``) is left
    out, up to the next heading of its level or above.
    """
    cells: list[nbformat.NotebookNode] = []
    prose: list[str] = []  # lines of Markdown since the last cell
    shown: list[str] = []  # fences shown in the prose, not run; kept as they are

    def flush() -> None:
        body = notebook_markdown("\n".join(prose), page_url, site_url).strip("\n")
        for number, fence in enumerate(shown):
            body = body.replace(f"\0{number}\0", fence)
        prose.clear()
        shown.clear()
        if body.strip():
            cells.append(nbformat.v4.new_markdown_cell(body))

    lines = expand(FRONT_MATTER.sub("", text)).split("\n")
    index = 0
    left_out = 0  # the level of the page-only section being left out (0: none)
    while index < len(lines):
        line = lines[index]
        opening = FENCE.match(line)
        if opening is None:
            if line.startswith("#"):
                flush()
                level = len(line) - len(line.lstrip("#"))
                if PAGE_ONLY.match(line):
                    left_out = level
                elif level <= left_out:
                    left_out = 0
                line = "#" + line
            if not left_out and not line.startswith(NEXT_LINK):  # in the notebook, the next chapter is the next cell
                prose.append(line)
            index += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        end = index + 1
        while end < len(lines) and not re.match(rf"^{re.escape(indent)}{fence[0]}{{{len(fence)},}}[ \t]*$", lines[end]):
            end += 1
        body = "\n".join(
            line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[index + 1 : end]
        )
        language, options = opening["lang"], fence_options(opening["options"])
        if left_out:
            index = end + 1
            continue
        if options.get("exec", "").lower() in TRUE:
            if language not in {"python", "py"}:
                raise PluginError(
                    f"{page_url}: the notebook runs Python blocks only; this page executes a {language!r} block"
                )
            flush()
            code = displayed(body) if options.get("html", "").lower() in TRUE else body
            cells.append(nbformat.v4.new_code_cell(code.strip("\n")))
        else:
            shown.append(f"{fence}{language}\n{body}\n{fence}")  # shown, not run: without the fence's options
            prose.append(f"\0{len(shown) - 1}\0")
        index = end + 1
    flush()
    return cells


def snippet_expander(config: Any) -> Callable[[str], str]:
    """A function that expands ``--8<--`` includes as this site's pymdownx.snippets does (same settings)."""
    settings = config["mdx_configs"].get("pymdownx.snippets", {})
    preprocessor = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": settings}
    ).preprocessors["snippet"]
    return lambda text: "\n".join(preprocessor.run(text.split("\n")))


def engine_digest() -> str:
    """SHA-256 of the files of the glassgrad package that `import glassgrad` finds (what the notebook imports)."""
    spec = importlib.util.find_spec("glassgrad")
    digest = hashlib.sha256()
    if spec is not None and spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def tutorial_notebook(
    pages: list[tuple[str, str]], expand: Callable[[str], str], *, site_url: str = "/"
) -> nbformat.NotebookNode:
    """The notebook of `pages` (``(page path in the site, Markdown)``, in order), with stable cell ids."""
    cells = [nbformat.v4.new_markdown_cell(INTRODUCTION), nbformat.v4.new_code_cell(SETUP)]
    for page_url, text in pages:
        cells.extend(chapter_cells(text, expand, page_url=page_url, site_url=site_url))
    for index, cell in enumerate(cells):
        cell.id = f"cell-{index}"
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata.update(
        kernelspec={"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        language_info={"name": "python"},
        glassgrad={
            "engine_digest": engine_digest()
        },  # a new engine is a new notebook: mkdocs-jupyter's cache runs it again
    )
    return notebook


def jupyter_config_path(current: str | None, folder: Path) -> str:
    """JUPYTER_CONFIG_PATH with `folder` first (once), so the notebook's conversion reads the configuration there."""
    paths = [path for path in (current or "").split(os.pathsep) if path and path != str(folder)]
    return os.pathsep.join([str(folder), *paths])


def add_notebook(files: Any, config: Any) -> Any:
    """Generate the notebook from the chapter pages (unchanged: not rewritten, so `--dirty` skips it) and add it."""
    docs = Path(config.docs_dir)
    pages = [
        (path.relative_to(docs).as_posix(), path.read_text(encoding="utf-8")) for path in sorted(docs.glob(CHAPTERS))
    ]
    notebook = tutorial_notebook(pages, snippet_expander(config), site_url=published_url())
    folder = Path(config.config_file_path).parent / ".cache" / "notebook"
    path = folder / NOTEBOOK
    text = nbformat.writes(notebook) + "\n"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    files.append(
        File(NOTEBOOK, src_dir=str(folder), dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls)
    )
    return files


def published_url() -> str:
    """The published site's address: the package's Documentation URL (pyproject.toml), with a final slash."""
    urls = dict(entry.split(", ", 1) for entry in metadata("glassgrad").get_all("Project-URL") or [])
    return urls["Documentation"].rstrip("/") + "/"


def relative_links(content: str, site_url: str, page_url: str) -> str:
    """``href="{site_url}x/"`` as a link relative to the page at `page_url` (the built site, served anywhere)."""
    pattern = re.compile(r'href="' + re.escape(site_url) + r'(?P<target>[^"]*)"')
    return pattern.sub(
        lambda match: (
            f'href="{html.escape(get_relative_url(html.unescape(match["target"]) or ".", page_url), quote=True)}"'
        ),
        content,
    )


def math_to_arithmatex(fragment: str) -> str:
    """Rewrite ``<p>$$tex$$</p>`` and inline ``$tex$`` as arithmatex's generic markup; code stays as it is."""
    fragment = DISPLAY_PARAGRAPH.sub(lambda match: f'<div class="arithmatex">\\[{match["tex"]}\\]</div>', fragment)
    pieces = HTML_CODE.split(fragment)
    for index in range(0, len(pieces), 2):  # even pieces are outside <code>
        pieces[index] = INLINE.sub(lambda match: f'<span class="arithmatex">\\({match["tex"]}\\)</span>', pieces[index])
    return "".join(pieces)


def notebook_page_html(content: str) -> str:
    """The rendered notebook with its math converted, the CDN loaders removed and a download link under its title."""
    content = INJECTED_SCRIPTS.sub("", content)
    content = LIST_REPR_STYLE.sub("", content)
    content = content.replace(
        '<div class="highlight-ipynb', '<div tabindex="0" class="highlight-ipynb'
    )  # scrolls: keyboard-reachable
    content = MARKDOWN_CELL.sub(lambda match: match[1] + math_to_arithmatex(match[2]) + match[3], content)
    note = DOWNLOAD_NOTE.format(name=html.escape(Path(NOTEBOOK).name, quote=True))
    return content.replace("</h1>", "</h1>" + note, 1) if "</h1>" in content else note + content


def notebook_page(content: str, page: Any) -> str:
    """Post-process the notebook page only, its math typeset like the pages' (mkdocs-jupyter runs no extension)."""
    if page.file.src_uri != NOTEBOOK:
        return content
    return relative_links(render_arithmatex(notebook_page_html(content)), published_url(), page.url)

"""MkDocs hook: publish the jupytext percent script `docs/notebook/tutorial.py` as an executed notebook page.

The percent script is the notebook's source of truth in git (reviewable, no outputs). Each build
converts it with jupytext into `notebook/tutorial.ipynb` inside a temporary folder and hands that
file to mkdocs-jupyter, which executes it in a fresh kernel, renders the outputs and copies the
`.ipynb` next to the page (``include_source``). Nothing is written into the repository.

On the rendered page this hook also:

- adds a link to download the `.ipynb`, under the notebook's title;
- turns the notebook's ``$...$`` and ``$$...$$`` into arithmatex markup, which `docs/hooks/mathml.py`
  then renders as MathML (so the page needs no MathJax);
- removes what nbconvert's template injects for MathJax and Mermaid (scripts that would load from a
  CDN) and a stray copy of the highlighting CSS that mkdocs-jupyter writes as a Python list.
"""

from __future__ import annotations

import html
import re
import tempfile
from pathlib import Path
from typing import Any

import jupytext
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

SOURCE = "notebook/tutorial.py"
"""The percent script, relative to `docs/`."""

NOTEBOOK = "notebook/tutorial.ipynb"
"""Where the generated notebook sits in the site's file tree (the page is `notebook/tutorial/`)."""

DOWNLOAD_NOTE = (
    '<p class="gg-notebook-download"><a href="{name}" download>Download this notebook ({name})</a>'
    " and run it in Jupyter; the page below shows the outputs of the run made while the site was built.</p>"
)

# nbconvert's MathJax loader and configuration, and its Mermaid loader (an import() from a CDN).
INJECTED_SCRIPTS = re.compile(
    r'<script src="[^"]*">\s*</script>\s*(?=<!-- MathJax configuration -->)'
    r'|<script type="text/x-mathjax-config">.*?</script>'
    r'|<script type="module">(?:(?!</script>).)*?mermaid.*?</script>',
    re.DOTALL,
)
# mkdocs-jupyter appends the highlighting CSS a second time as the repr of a Python list.
LIST_REPR_STYLE = re.compile(r"<style>\s*\['.*?'\]\s*</style>", re.DOTALL)
MARKDOWN_CELL = re.compile(r'(<div class="[^"]*\bjp-RenderedMarkdown\b[^"]*"[^>]*>)(.*?)(</div>)', re.DOTALL)
DISPLAY_PARAGRAPH = re.compile(r"<p>\s*\$\$(?P<tex>.+?)\$\$\s*</p>", re.DOTALL)
INLINE = re.compile(r"(?<![\\$])\$(?P<tex>[^$<>]+?)\$")
CODE_SPAN = re.compile(r"(<code\b.*?</code>)", re.DOTALL)

_workspace: tempfile.TemporaryDirectory[str] | None = None


def _folder() -> Path:
    """A private temporary folder for the generated notebook (removed on shutdown or at exit)."""
    global _workspace
    if _workspace is None:
        _workspace = tempfile.TemporaryDirectory(prefix="glassgrad-notebook-")
    return Path(_workspace.name)


def percent_to_ipynb(source: Path, destination: Path) -> Path:
    """Write the percent script `source` as an (unexecuted) `.ipynb` at `destination`, with stable cell ids; return it."""
    notebook = jupytext.read(source, fmt="py:percent")
    for index, cell in enumerate(notebook.cells):
        cell.id = f"cell-{index}"  # jupytext draws random ids: the page and the download would change every build
    destination.parent.mkdir(parents=True, exist_ok=True)
    jupytext.write(notebook, destination, fmt="ipynb")
    return destination


@event_priority(50)  # before mkdocs-jupyter's on_files (priority 0), which must already see the .ipynb
def on_files(files: Any, config: Any) -> Any:
    """Swap the percent script for the notebook generated from it."""
    source = files.get_file_from_path(SOURCE)
    if source is None:
        return files
    files.remove(source)  # the script is the source, not a page or an asset of the site
    folder = _folder()
    percent_to_ipynb(Path(source.abs_src_path), folder / NOTEBOOK)
    # A File rooted in the temporary folder, not File.generated: mkdocs-jupyter's wrapper derives
    # the source path from src_dir, which a generated file does not have.
    files.append(File(NOTEBOOK, src_dir=str(folder), dest_dir=config.site_dir, use_directory_urls=config.use_directory_urls))
    return files


def math_to_arithmatex(fragment: str) -> str:
    """Rewrite ``<p>$$tex$$</p>`` and inline ``$tex$`` as arithmatex's generic markup; code spans stay as they are.

    ``<p>$$L=e^2$$</p>`` becomes ``<div class="arithmatex">\\[L=e^2\\]</div>`` and ``$w=2$`` becomes
    ``<span class="arithmatex">\\(w=2\\)</span>``, the markup `docs/hooks/mathml.py` converts.
    """
    fragment = DISPLAY_PARAGRAPH.sub(lambda match: f'<div class="arithmatex">\\[{match["tex"]}\\]</div>', fragment)
    pieces = CODE_SPAN.split(fragment)
    for i in range(0, len(pieces), 2):  # even pieces are outside <code>
        pieces[i] = INLINE.sub(lambda match: f'<span class="arithmatex">\\({match["tex"]}\\)</span>', pieces[i])
    return "".join(pieces)


def notebook_page_html(content: str) -> str:
    """The rendered notebook with its math converted, the CDN loaders removed and a download link under its title."""
    content = INJECTED_SCRIPTS.sub("", content)
    content = LIST_REPR_STYLE.sub("", content)
    content = MARKDOWN_CELL.sub(lambda match: match[1] + math_to_arithmatex(match[2]) + match[3], content)
    note = DOWNLOAD_NOTE.format(name=html.escape(Path(NOTEBOOK).name, quote=True))
    title_end = content.find("</h1>")
    if title_end < 0:
        return note + content
    return content[: title_end + len("</h1>")] + note + content[title_end + len("</h1>") :]


@event_priority(50)  # before docs/hooks/mathml.py, which turns the arithmatex markup into MathML
def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    """Post-process the notebook page only."""
    if page.file.src_uri != NOTEBOOK:
        return content
    return notebook_page_html(content)


def on_shutdown() -> None:
    """Remove the temporary folder."""
    global _workspace
    if _workspace is not None:
        _workspace.cleanup()
        _workspace = None

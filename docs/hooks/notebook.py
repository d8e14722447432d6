"""MkDocs hook: publish the jupytext percent script `docs/notebook/tutorial.py` as an executed notebook page.

The percent script is the notebook's source of truth in git (reviewable, no outputs). Each build
converts it with jupytext into `notebook/tutorial.ipynb` inside a temporary folder, and starts
executing it at once in a fresh kernel, from a worker thread: the kernel (a separate process, which
imports torch) runs on another core while the other pages build. A child process starts at the same
time and imports mkdocs-jupyter's converter at a lower priority; once the run ends, the same thread
has it render the executed notebook to HTML (another core again), and keeps the result. When the notebook page comes up, the hook waits for
all that (a failing cell fails the build here) and hands the rendering to mkdocs-jupyter through
its cache (``cache: true``, in a private temporary ``cache_dir``): the plugin finds an entry for
exactly these notebook bytes and options and uses it instead of converting on the build's own
thread. Without an entry (a failed rendering, a plugin whose cache works differently) the plugin
converts the notebook itself, as it would without this hook. Afterwards the hook puts the
unexecuted notebook back for the download that mkdocs-jupyter copies next to the page
(``include_source``). Nothing is written into the repository.

On the rendered page this hook also:

- adds a link to download the `.ipynb`, under the notebook's title;
- turns the notebook's ``$...$`` and ``$$...$$`` into arithmatex markup, which `docs/hooks/mathml.py`
  then renders as MathML (so the page needs no MathJax);
- removes what nbconvert's template injects for MathJax and Mermaid (scripts that would load from a
  CDN) and a stray copy of the highlighting CSS that mkdocs-jupyter writes as a Python list.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import jupytext
import nbformat
from nbclient import NotebookClient
from nbconvert.preprocessors.coalescestreams import CoalesceStreamsPreprocessor
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

log = logging.getLogger("mkdocs.hooks.notebook")

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
_runs: dict[str, BackgroundRun] = {}  # the current build's notebook runs, by site path


RENDER_OPTIONS = (
    "kernel_name", "theme", "allow_errors", "show_input", "no_input", "no_prompt",
    "remove_tag_config", "highlight_extra_classes", "include_requirejs", "custom_mathjax_url",
)
"""The mkdocs-jupyter settings its page render passes to ``nb2html`` (with ``execute``)."""


class BackgroundRun:
    """One execution of a notebook in a fresh kernel, started at once on a worker thread, then its rendering.

    The thread mostly waits: for the kernel's messages (the work happens in the kernel's own
    process), then for the child process that renders the executed notebook to HTML. The build's
    pages keep rendering meanwhile.
    """

    def __init__(self, path: Path, *, kernel_name: str, allow_errors: bool, render_options: dict[str, Any] | None = None) -> None:
        self.path = path
        # None: leave the rendering to mkdocs-jupyter. Started now, so its imports are done when the kernel is.
        self.renderer = ChildRenderer(path, render_options) if render_options is not None else None
        self.rendered: str | None = None  # the page render's cache entry (JSON), when the child process made it
        self.unexecuted = path.read_bytes()  # what the download serves: the cells without outputs
        self.notebook = nbformat.reads(self.unexecuted.decode("utf-8"), as_version=4)
        self.client = NotebookClient(
            self.notebook,
            kernel_name=kernel_name,
            allow_errors=allow_errors,
            record_timing=False,  # no timestamps in the cells' metadata
            resources={"metadata": {"path": str(path.parent)}},  # the kernel's working folder, as nbconvert sets it
        )
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._execute, name=f"execute {path.name}", daemon=True)
        self.thread.start()

    def _execute(self) -> None:
        try:
            self.client.execute()
            nbformat.write(merge_streams(self.notebook), self.path)  # what the page renders, at the path it renders
        except BaseException as error:  # re-raised on the build's thread by `wait`
            self.error = error
            if self.renderer is not None:
                self.renderer.cancel()
            return
        if self.renderer is not None:
            self.rendered = self.renderer.render()

    def wait(self) -> nbformat.NotebookNode:
        """Block until the run (and its rendering) ends; return the executed notebook, or raise what stopped it (a failing cell)."""
        self.thread.join()
        if self.error is not None:
            raise self.error
        return self.notebook


def render_notebook(path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """What mkdocs-jupyter's page render computes for the notebook at `path`, as its cache stores it.

    Args:
        path: an executed ``.ipynb``.
        options: ``nb2html``'s keyword arguments (`RENDER_OPTIONS` and ``execute``) plus ``toc_depth``.

    Returns:
        ``{"content": html, "toc_tokens": [...], "title": str | None}``.
    """
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    options = dict(options)
    toc_depth = options.pop("toc_depth")
    content = convert.nb2html(str(path), **options)
    toc_tokens, title = _get_nb_toc_tokens(str(path), toc_depth)
    return {"content": content, "toc_tokens": toc_tokens, "title": title}


class ChildRenderer:
    """`render_notebook` in a child process running this file: started early, it renders when told to.

    The child imports mkdocs-jupyter's converter as soon as it starts, at a lower priority (the
    build's thread and the kernel come first), then waits for a line on its stdin: ``render`` to
    render the notebook at `path` and write the entry, end of input to exit without rendering.
    """

    COMMAND = "render"

    def __init__(self, path: Path, options: dict[str, Any]) -> None:
        self.path = path
        self.entry = path.with_name(path.stem + ".rendered.json")  # beside the notebook, in the private temporary folder
        command = [sys.executable, __file__, str(path), json.dumps(options, sort_keys=True), str(self.entry)]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )

    def render(self) -> str | None:
        """Render now; the entry's JSON, or None if the child failed.

        A failure is only logged: mkdocs-jupyter then finds no cache entry and converts the notebook
        itself, raising there whatever went wrong.
        """
        _, errors = self.process.communicate(self.COMMAND + "\n")
        if self.process.returncode != 0 or not self.entry.is_file():
            log.info("Rendering %s in a child process failed; mkdocs-jupyter renders it instead:\n%s", self.path.name, errors[-2000:])
            return None
        return self.entry.read_text(encoding="utf-8")

    def cancel(self) -> None:
        """Let the child exit without rendering (the run failed: there is nothing to show)."""
        self.process.communicate("")


def _child_main(arguments: list[str]) -> None:
    """The child process of `ChildRenderer`: ``notebook.py NOTEBOOK OPTIONS_JSON ENTRY_JSON``, then a command on stdin."""
    if hasattr(os, "nice"):
        os.nice(10)  # behind the build's thread and the kernel while both run; alone on a core once the kernel is done
    from mkdocs_jupyter import convert, plugin  # noqa: F401  (the slow imports, done before they are needed)

    if sys.stdin.readline().strip() != ChildRenderer.COMMAND:
        return
    entry = render_notebook(Path(arguments[0]), json.loads(arguments[1]))
    Path(arguments[2]).write_text(json.dumps(entry), encoding="utf-8")


def merge_streams(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Merge each cell's consecutive outputs of one stream (stdout, stderr) into one, in place; return the notebook.

    How the kernel splits one print into messages depends on timing; merged, the page is the same every build.
    """
    CoalesceStreamsPreprocessor().preprocess(notebook, {})
    return notebook


def _kernel_settings(config: Any) -> dict[str, Any]:
    """The kernel and error policy that mkdocs.yml gives mkdocs-jupyter, so both are set in one place."""
    plugin = config.plugins.get("mkdocs-jupyter")
    settings = plugin.config if plugin is not None else {}
    return {"kernel_name": settings.get("kernel_name") or "python3", "allow_errors": bool(settings.get("allow_errors", False))}


def _render_options(config: Any) -> dict[str, Any] | None:
    """``nb2html``'s arguments as mkdocs-jupyter's page render passes them, or None when its cache is off (nothing to hand over)."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config.get("cache"):
        return None
    settings = plugin.config
    return {**{name: settings[name] for name in RENDER_OPTIONS}, "execute": settings["execute"], "toc_depth": settings["toc_depth"]}


def on_config(config: Any) -> Any:
    """Point mkdocs-jupyter's cache at the private temporary folder: it only ever holds this build's rendering."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is not None and plugin.config.get("cache"):
        plugin.config["cache_dir"] = str(_folder() / "rendered")
    return config


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
    notebook = percent_to_ipynb(Path(source.abs_src_path), folder / NOTEBOOK)
    _runs[NOTEBOOK] = BackgroundRun(notebook, **_kernel_settings(config), render_options=_render_options(config))
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


def _store_rendering(run: BackgroundRun, config: Any) -> None:
    """Put the child process's rendering in mkdocs-jupyter's cache, under the key the plugin computes for this page."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if run.rendered is None or plugin is None:
        return
    try:
        from mkdocs_jupyter.plugin import _compute_cache_key
    except ImportError:  # a plugin without this cache: it renders the page itself
        return
    key = _compute_cache_key(run.path, plugin.config, plugin.config["execute"])
    entry = Path(plugin.config["cache_dir"]) / f"{key}.json"
    entry.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(run.rendered, encoding="utf-8")


@event_priority(50)  # before mkdocs-jupyter's on_pre_page (priority 0), which computes the cache key from the file
def on_pre_page(page: Any, config: Any, files: Any) -> Any:
    """Before the notebook page renders: wait for its run, whose thread wrote the executed notebook where mkdocs-jupyter reads it."""
    run = _runs.get(page.file.src_uri)
    if run is not None:
        run.wait()
        _store_rendering(run, config)
    return page


@event_priority(50)  # before docs/hooks/mathml.py, which turns the arithmatex markup into MathML
def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    """Post-process the notebook page only; restore the unexecuted notebook for the download."""
    if page.file.src_uri != NOTEBOOK:
        return content
    run = _runs.pop(NOTEBOOK, None)
    if run is not None:
        run.path.write_bytes(run.unexecuted)
    return notebook_page_html(content)


def on_shutdown() -> None:
    """Remove the temporary folder."""
    global _workspace
    if _workspace is not None:
        _workspace.cleanup()
        _workspace = None


if __name__ == "__main__":
    _child_main(sys.argv[1:])

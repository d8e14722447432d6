"""The tutorial notebook: it runs top to bottom in a fresh kernel, and the site publishes it executed.

The notebook's source of truth is the jupytext percent script `docs/notebook/tutorial.py`;
`docs/hooks/notebook.py` turns it into `notebook/tutorial.ipynb` at build time. Expected numbers
come from the engine (`glassgrad.examples`) or from PyTorch (`glassgrad.torch_reference`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin, urlsplit

import jupytext
import nbformat
import pytest
import yaml
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from conftest import REPO, page_html
from glassgrad import backward
from glassgrad.examples import LINEAR_INPUTS, linear_loss, sigmoid_neuron
from glassgrad.torch_reference import linear_loss as torch_linear_loss

SOURCE = REPO / "docs" / "notebook" / "tutorial.py"
PAGE = "notebook/tutorial/"
KERNEL_NAME = "glassgrad-test"


def load_notebook_hook():
    """Import docs/hooks/notebook.py as a module."""
    spec = importlib.util.spec_from_file_location("hook_notebook", REPO / "docs" / "hooks" / "notebook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stream_text(cell: nbformat.NotebookNode, name: str = "stdout") -> str:
    """Everything a code cell printed to one stream."""
    return "".join(output.text for output in cell.get("outputs", []) if output.output_type == "stream" and output.name == name)


def html_outputs(cell: nbformat.NotebookNode) -> list[str]:
    """The text/html of every rich output of a code cell."""
    return [
        output.data["text/html"]
        for output in cell.get("outputs", [])
        if output.output_type in {"display_data", "execute_result"} and "text/html" in output.data
    ]


def cell_printing(notebook: nbformat.NotebookNode, marker: str) -> nbformat.NotebookNode:
    """The one code cell whose printed output contains `marker`."""
    found = [cell for cell in notebook.cells if cell.cell_type == "code" and marker in stream_text(cell)]
    assert len(found) == 1, f"{len(found)} cells print {marker!r}"
    return found[0]


@pytest.fixture(scope="module")
def kernel_manager(tmp_path_factory: pytest.TempPathFactory) -> KernelManager:
    """A kernel that runs this interpreter (the venv's Python), whatever kernels the machine has registered."""
    from ipykernel.kernelspec import write_kernel_spec

    kernels = tmp_path_factory.mktemp("kernels")
    write_kernel_spec(kernels / KERNEL_NAME)  # its argv starts with sys.executable
    return KernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))


@pytest.fixture(scope="module")
def executed(kernel_manager: KernelManager) -> tuple[nbformat.NotebookNode, str]:
    """The notebook executed top to bottom in one fresh kernel; then, in that same kernel, the final
    check re-run after one gradient was tampered with. Returns (notebook, the tampered run's error)."""
    notebook = jupytext.read(SOURCE, fmt="py:percent")
    client = NotebookClient(notebook, km=kernel_manager, timeout=180, allow_errors=False)
    final_check = next(cell for cell in reversed(notebook.cells) if "compare(nodes, reference)" in cell.source)
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        tamper = nbformat.v4.new_code_cell('fused["w"].grad += 1e-9\n' + final_check.source)
        try:
            client.execute_cell(tamper, len(notebook.cells))
        except CellExecutionError as error:
            tampered_error = str(error)
        else:
            tampered_error = ""
    return notebook, tampered_error


# ---- the notebook itself, in a fresh kernel --------------------------------------------------------------


def test_source_is_a_percent_script_without_outputs() -> None:
    text = SOURCE.read_text(encoding="utf-8")
    assert "format_name: percent" in text and text.count("\n# %%") >= 20
    notebook = jupytext.read(SOURCE, fmt="py:percent")
    assert notebook.metadata["kernelspec"]["language"] == "python"
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    assert not list((REPO / "docs").rglob("*.ipynb")), "generated notebooks must not land in docs/"


def test_every_cell_runs_without_errors_or_warnings(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code_cells)
    for cell in code_cells:
        assert not [output for output in cell.outputs if output.output_type == "error"], cell.source
        assert stream_text(cell, "stderr") == "", (cell.source, stream_text(cell, "stderr"))


def test_first_cell_styles_the_figures(executed: tuple[nbformat.NotebookNode, str]) -> None:
    from glassgrad.viz import stylesheet

    notebook, _ = executed
    first = next(cell for cell in notebook.cells if cell.cell_type == "code")
    assert html_outputs(first) == [str(stylesheet())]


def test_pytorch_forward_and_leaf_gradients(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    reference = torch_linear_loss()
    inputs, forward = stream_text(cell_printing(notebook, "Forward:")).splitlines()
    assert inputs == "Inputs: " + ", ".join(f"{name} = {value:g}" for name, value in LINEAR_INPUTS.items())
    assert forward == "Forward: " + " , ".join(f"{name} = {reference[name][0]}" for name in "maeL")
    printed = stream_text(cell_printing(notebook, "w.grad = tensor"))
    grads = dict(re.findall(r"^(\w)\.grad = tensor\((-?[\d.]+)\)$", printed, re.MULTILINE))
    assert {name: float(text) for name, text in grads.items()} == {name: reference[name][1] for name in "wxby"}


def test_table_lists_every_node_with_pytorch_numbers(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    reference = torch_linear_loss()
    rows = re.findall(r"^(\w+)\s+(-?[\d.]+)\s+(-?[\d.]+)$", stream_text(cell_printing(notebook, "node     value")), re.MULTILINE)
    assert {name: (float(value), float(grad)) for name, value, grad in rows} == reference
    assert [name for name, _, _ in rows] == list(linear_loss())  # the engine's dependency-safe order


def test_value_has_a_compact_rich_display(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    nodes = linear_loss()
    backward(nodes["L"])
    cell = next(cell for cell in notebook.cells if cell.cell_type == "code" and cell.source.strip() == 'engine_nodes["w"]')
    assert html_outputs(cell) == [nodes["w"]._repr_html_()]
    assert "<b>w</b>" in html_outputs(cell)[0] and f"<code>{nodes['w'].grad:g}</code>" in html_outputs(cell)[0]


def test_text_trace_is_the_engine_backward(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    nodes = linear_loss()
    steps = backward(nodes["L"])
    expected = "".join(
        f"{number}. {step.output.label} → {step.parent.label}: {step.upstream:g} × {step.local:g} = "
        f"{step.contribution:g}; {step.parent.label}.grad {step.before:g} → {step.after:g}\n"
        for number, step in enumerate(steps, start=1)
    )
    assert stream_text(cell_printing(notebook, "1. L → e")) == expected


def test_figures_and_players_display_as_html(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    rich = [html for cell in notebook.cells if cell.cell_type == "code" for html in html_outputs(cell)]
    players = [html for html in rich if 'class="gg-frames"' in html]
    # One ordering walk and one backward replay in chapter 2; two side-by-side pairs in chapter 3.
    assert len(players) == 4 and all("<script>" in html for html in players)
    assert sum(html.count('class="gg-frames"') for html in players) == 6
    # The graph figures are exactly what draw_graph renders for the same graphs, built here afresh.
    from glassgrad.viz import draw_graph

    nodes = linear_loss()
    before = str(draw_graph(nodes["L"], show_grad=False))
    backward(nodes["L"])
    fused = sigmoid_neuron(fused=True)
    backward(fused["L"])
    for figure in (before, str(draw_graph(nodes["L"])), str(draw_graph(fused["L"], min_width=1180))):
        assert figure in rich


def test_fused_and_atomic_counts_come_from_the_engine(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    printed = stream_text(cell_printing(notebook, "reverse edges"))
    for name, fused in (("fused", True), ("atomic", False)):
        nodes = sigmoid_neuron(fused=fused)
        steps = backward(nodes["L"])
        assert f"{name}: {len(nodes)} values, {len(steps)} reverse edges" in printed.replace(":  ", ": ")
    fused = sigmoid_neuron(fused=True)
    backward(fused["L"])
    final = ", ".join(f"{name} = {fused[name].grad:g}" for name in ("w", "x", "b", "y"))
    assert f"final gradients: {final}" in stream_text(cell_printing(notebook, "final gradients"))


def test_ends_with_every_node_checked_against_pytorch(executed: tuple[nbformat.NotebookNode, str]) -> None:
    notebook, _ = executed
    last_code = [cell for cell in notebook.cells if cell.cell_type == "code"][-1]
    total = 2 * len(linear_loss()) + len(sigmoid_neuron(fused=True)) + len(sigmoid_neuron(fused=False))
    lines = stream_text(last_code).splitlines()
    assert lines[-1] == f"✓ Every value and every gradient of all {total} nodes matches PyTorch."
    assert len(lines) == 5 and all(line.endswith("nodes match") for line in lines[:-1])


def test_final_check_fails_loudly_on_a_wrong_gradient(executed: tuple[nbformat.NotebookNode, str]) -> None:
    _, tampered_error = executed
    assert "MismatchError" in tampered_error, tampered_error[-2000:]
    assert "w.grad: glassgrad" in tampered_error, tampered_error[-2000:]


def test_follows_changed_example_inputs(kernel_manager: KernelManager) -> None:
    """With other inputs in glassgrad.examples, every cell still passes and prints the new numbers."""
    linear_changes, sigmoid_changes = {"w": LINEAR_INPUTS["w"] + 0.5, "y": LINEAR_INPUTS["y"] + 1.0}, {"b": 0.5}
    notebook = jupytext.read(SOURCE, fmt="py:percent")
    change = (  # in place: torch_reference imported the same dicts
        "import glassgrad.examples\n"
        f"glassgrad.examples.LINEAR_INPUTS.update({linear_changes!r})\n"
        f"glassgrad.examples.SIGMOID_INPUTS.update({sigmoid_changes!r})\n"
    )
    notebook.cells.insert(0, nbformat.v4.new_code_cell(change))
    NotebookClient(notebook, km=kernel_manager, timeout=180, allow_errors=False).execute()
    reference = torch_linear_loss(**linear_changes)
    forward = stream_text(cell_printing(notebook, "Forward:")).splitlines()[1]
    assert forward == "Forward: " + " , ".join(f"{name} = {reference[name][0]}" for name in "maeL")
    fused = sigmoid_neuron(fused=True, **sigmoid_changes)
    backward(fused["L"])
    final = ", ".join(f"{name} = {fused[name].grad:g}" for name in ("w", "x", "b", "y"))
    assert f"final gradients: {final}" in stream_text(cell_printing(notebook, "final gradients"))
    assert "matches PyTorch." in stream_text([cell for cell in notebook.cells if cell.cell_type == "code"][-1])


# ---- the hook -------------------------------------------------------------------------------------------


def test_generated_notebook_is_valid_and_the_same_every_time(tmp_path: Path) -> None:
    hook = load_notebook_hook()
    first = hook.percent_to_ipynb(SOURCE, tmp_path / "first" / "tutorial.ipynb").read_bytes()
    second = hook.percent_to_ipynb(SOURCE, tmp_path / "second" / "tutorial.ipynb").read_bytes()
    assert first == second  # stable cell ids: the published page and download do not change between builds
    notebook = nbformat.reads(first.decode("utf-8"), as_version=4)
    nbformat.validate(notebook)
    assert [cell.id for cell in notebook.cells] == [f"cell-{index}" for index in range(len(notebook.cells))]
    assert [cell.source for cell in notebook.cells] == [cell.source for cell in jupytext.read(SOURCE, fmt="py:percent").cells]



def test_split_prints_are_merged_into_one_output() -> None:
    hook = load_notebook_hook()
    cell = nbformat.v4.new_code_cell("print('PyTorch:', error)")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="PyTorch:"),
        nbformat.v4.new_output("stream", name="stdout", text=" grad can be implicitly created\n"),
        nbformat.v4.new_output("stream", name="stderr", text="a warning\n"),
        nbformat.v4.new_output("stream", name="stdout", text="with seed [1, 1]\n"),
    ]
    notebook = hook.merge_streams(nbformat.v4.new_notebook(cells=[cell]))
    assert [(output.name, output.text) for output in notebook.cells[0].outputs] == [
        ("stdout", "PyTorch: grad can be implicitly created\n"),
        ("stderr", "a warning\n"),
        ("stdout", "with seed [1, 1]\n"),
    ]


def test_math_becomes_arithmatex_outside_code() -> None:
    hook = load_notebook_hook()
    html = hook.math_to_arithmatex("<p>$$L=e^2$$</p><p>with $w=2$, <code>$x$</code> and $y=10$</p>")
    assert html == (
        '<div class="arithmatex">\\[L=e^2\\]</div><p>with <span class="arithmatex">\\(w=2\\)</span>, '
        '<code>$x$</code> and <span class="arithmatex">\\(y=10\\)</span></p>'
    )


def test_page_rewrite_drops_cdn_loaders_and_adds_the_download_link() -> None:
    hook = load_notebook_hook()
    rendered = (
        '<!-- Load mathjax -->\n<script src="https://cdn.example/mathjax.js"> </script>\n<!-- MathJax configuration -->\n'
        '<script type="text/x-mathjax-config">init_mathjax()</script>'
        '<script type="module">const m = await import("https://cdn.example/mermaid.mjs");</script>'
        "<script>window.keep = 1;</script>"
        '<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput"><h1>Title</h1><p>$a=b$</p></div>'
        "<style>\n['pre { line-height: 125%; }']\n</style>"
    )
    page = hook.notebook_page_html(rendered)
    assert "cdn.example" not in page and "x-mathjax-config" not in page and "['pre" not in page
    assert "<script>window.keep = 1;</script>" in page
    assert '<span class="arithmatex">\\(a=b\\)</span>' in page
    assert '<h1>Title</h1><p class="gg-notebook-download"><a href="tutorial.ipynb" download>' in page


# ---- the published page ----------------------------------------------------------------------------------


class _Links(HTMLParser):
    """Collects every `href`/`src` of a page, with the tag it sits on."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[tuple[str, str, str]] = []
        self.downloads: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name in ("href", "src"):
            if name in values:
                self.urls.append((tag, name, values[name]))
        if tag == "a" and "download" in values:
            self.downloads.append(values["href"])


def links_of(html: str) -> _Links:
    """Parse one page's links."""
    parser = _Links()
    parser.feed(html)
    parser.close()
    return parser


@pytest.mark.site
def test_page_shows_the_executed_outputs(built_site: Path) -> None:
    html = page_html(built_site, PAGE)
    total = 2 * len(linear_loss()) + len(sigmoid_neuron(fused=True)) + len(sigmoid_neuron(fused=False))
    assert f"✓ Every value and every gradient of all {total} nodes matches PyTorch." in html
    reference = torch_linear_loss()
    assert "Forward: " + " , ".join(f"{name} = {reference[name][0]}" for name in "maeL") in html
    assert html.count('class="gg-frames"') == 6 and "Out[" in html
    assert "Traceback" not in html and 'class="jp-OutputArea-output" data-mime-type="application/vnd.jupyter.stderr"' not in html


@pytest.mark.site
def test_download_link_serves_a_valid_notebook(built_site: Path) -> None:
    downloads = links_of(page_html(built_site, PAGE)).downloads
    assert len(downloads) == 1
    target = urlsplit(urljoin(f"https://site.test/{PAGE}", downloads[0])).path.lstrip("/")
    notebook_path = built_site / target
    assert notebook_path.suffix == ".ipynb" and notebook_path.is_file()
    published = nbformat.read(notebook_path, as_version=4)
    nbformat.validate(published)
    source = jupytext.read(SOURCE, fmt="py:percent")
    assert [cell.source for cell in published.cells] == [cell.source for cell in source.cells]
    assert not (built_site / "notebook" / "tutorial.py").exists()  # the script is the source, not an asset


@pytest.mark.site
def test_page_loads_nothing_from_outside_the_site(built_site: Path) -> None:
    html = page_html(built_site, PAGE)
    fetched = [url for tag, name, url in links_of(html).urls if tag != "a" and urlsplit(url).netloc and tag != "link"]
    stylesheets = re.findall(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"', html)
    assert not fetched and not [url for url in stylesheets if urlsplit(url).netloc]
    assert '<script src="">' not in html
    for cdn in ("cdnjs", "unpkg.com", "jsdelivr", "mathjax.js", "mermaid.esm"):
        assert cdn not in html, cdn


@pytest.mark.site
def test_page_math_is_mathml(built_site: Path) -> None:
    html = page_html(built_site, PAGE)
    markdown_cells = re.findall(r'jp-RenderedMarkdown[^>]*>(.*?)</div>\s*</div>', html, re.DOTALL)
    assert markdown_cells and html.count("<math ") >= 20
    assert not [cell for cell in markdown_cells if re.search(r"\$[^$<]+\$", re.sub(r"<code>.*?</code>", "", cell))]


@pytest.mark.site
def test_notebook_is_in_the_nav(built_site: Path) -> None:
    home = page_html(built_site, "")
    assert re.search(r'<a href="notebook/tutorial/"[^>]*>\s*(<span[^>]*>)?\s*Notebook', home)


# ---- a failing cell fails the build ----------------------------------------------------------------------


def jupyter_plugin_config() -> dict:
    """The mkdocs-jupyter settings of the real mkdocs.yml (read from its text: the file has custom tags)."""
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    block = re.search(r"^  - mkdocs-jupyter:\n((?:      .*\n)+)", text, re.MULTILINE)
    assert block, "mkdocs.yml has no mkdocs-jupyter plugin entry"
    return yaml.safe_load(textwrap.dedent(block[1]))


def test_plugin_settings() -> None:
    settings = jupyter_plugin_config()
    assert settings["include"] == ["*.ipynb"]
    # docs/hooks/notebook.py executes the notebook itself, in the background (the build test below runs it),
    # and hands its rendering to the plugin as a cache entry (the hook points cache_dir at a private temporary folder).
    assert settings["execute"] is False and settings["allow_errors"] is False and settings["cache"] is True
    assert "cache_dir" not in settings
    assert settings["include_source"] is True and settings["include_requirejs"] is False


@pytest.mark.site
@pytest.mark.parametrize("raises", [False, True])
def test_small_site_builds_and_a_raising_cell_fails_it(tmp_path: Path, raises: bool) -> None:
    (tmp_path / "docs" / "notebook").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    body = 'raise RuntimeError("deliberate notebook failure")' if raises else 'print("forward", 6 * 7)'
    (tmp_path / "docs" / "notebook" / "tutorial.py").write_text(
        f"# %% [markdown]\n# # A notebook\n#\n# with $w=2$\n\n# %%\n{body}\n", encoding="utf-8"
    )
    config = {
        "site_name": "notebook hook test",
        "docs_dir": "docs",
        "plugins": [{"mkdocs-jupyter": jupyter_plugin_config()}],
        "hooks": [str(REPO / "docs" / "hooks" / "notebook.py")],
        "nav": [{"Home": "index.md"}, {"Notebook": "notebook/tutorial.ipynb"}],
    }
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")]
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    finished = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300)
    log = finished.stdout + finished.stderr
    if raises:
        assert finished.returncode != 0 and "deliberate notebook failure" in log, log[-3000:]
        assert not (tmp_path / "site" / "notebook" / "tutorial" / "index.html").exists()
    else:
        assert finished.returncode == 0, log[-3000:]
        assert "Cache hit" in log and "Converting notebook" not in log  # the child process's rendering was used
        html = (tmp_path / "site" / "notebook" / "tutorial" / "index.html").read_text(encoding="utf-8")
        assert "forward 42" in html and 'href="tutorial.ipynb" download' in html
        nbformat.validate(nbformat.read(tmp_path / "site" / "notebook" / "tutorial" / "tutorial.ipynb", as_version=4))
    assert sorted(path.name for path in (tmp_path / "docs").rglob("*")) == ["index.md", "notebook", "tutorial.py"]
    assert not (tmp_path / ".cache").exists()  # the plugin's cache lived in the hook's temporary folder


def test_child_process_renders_what_the_build_process_would(tmp_path: Path) -> None:
    """The page handed to mkdocs-jupyter from the child process is the plugin's own rendering, byte for byte."""
    hook = load_notebook_hook()
    notebook = hook.percent_to_ipynb(SOURCE, tmp_path / "notebook" / "tutorial.ipynb")
    from mkdocs_jupyter.plugin import Plugin

    plugin = Plugin()
    errors, warnings = plugin.load_config(jupyter_plugin_config())  # mkdocs.yml's settings and the plugin's defaults
    assert not errors and not warnings
    options = hook._render_options(SimpleNamespace(plugins={"mkdocs-jupyter": plugin}))
    assert options is not None and options["execute"] is False
    in_process = hook.render_notebook(notebook, options)
    from_child = json.loads(hook.ChildRenderer(notebook, options).render())
    assert from_child == in_process
    assert "jp-Notebook" in in_process["content"] and in_process["toc_tokens"]


# ---- the published page in a browser ---------------------------------------------------------------------

# For every field name of the state cards: on how many lines its text is laid out (1 unless its column is squeezed).
FIELD_NAME_LINES = """() => [...document.querySelectorAll('.gg-state .gg-card dt')].map(dt => {
  const range = document.createRange();
  range.selectNodeContents(dt);
  return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size;
})"""


@pytest.mark.site
@pytest.mark.browser
def test_page_in_a_browser(built_site: Path) -> None:
    """No console error, no request outside the site, every player ready, state cards laid out as on the site."""
    import functools
    import http.server
    import shutil
    import threading

    playwright_api = pytest.importorskip("playwright.sync_api")
    if shutil.which("/usr/bin/chromium") is None:
        pytest.skip("/usr/bin/chromium is not installed (apt-get install chromium)")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_port}/"
    try:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            outside: list[str] = []
            page.on("console", lambda message: message.type == "error" and errors.append(message.text))
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda request: request.url.startswith((site, "data:", "blob:", "about:")) or outside.append(request.url))
            page.goto(site + PAGE, wait_until="networkidle")
            page.wait_for_function(  # every player initialises (however loaded the machine is)
                "document.querySelectorAll('.gg-player:not([data-gg-ready])').length === 0", timeout=15000
            )
            ready = page.evaluate("document.querySelectorAll('.gg-player[data-gg-ready]').length")
            lines = page.evaluate(FIELD_NAME_LINES)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    assert errors == [] and outside == []
    assert ready == 6
    nodes = linear_loss()
    fields_per_card = {name: 4 + 3 * len(node.parents) for name, node in nodes.items()}  # .data .grad .op .parents + 3 per link
    assert len(lines) == sum(fields_per_card.values())
    assert set(lines) == {1}, lines  # Jupyter's own dl/dt/dd rules would wrap ".parents" one letter per line

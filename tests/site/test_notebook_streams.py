"""The notebook page shows a cell's printed text as one output, however the kernel's flushes split it.

The kernel sends what a cell prints as one stream output or as several, by its flush timing (every 0.2 s), so two
builds could render the same cell differently. docs/hooks/notebook.py points nbconvert at
docs/hooks/jupyter/jupyter_nbconvert_config.py, which joins each cell's outputs of one stream after the run.
Here a cell prints, waits past a flush, and prints again, and mkdocs-jupyter runs it as the build does.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest
from helpers import load_module
from mkdocs_jupyter.nbconvert2 import nb2html

from glassgrad_site.notebook import jupyter_config_path

notebook_hook = load_module("docs/hooks/notebook.py")
FOLDER = notebook_hook.NBCONVERT_CONFIG  # docs/hooks/jupyter/

SPLIT_BY_A_FLUSH = (
    "import sys, time\n"
    "print('first line')\n"
    "time.sleep(0.6)  # past the kernel's 0.2 s flush: 'first line' has left as an output of its own\n"
    "print('second line')\n"
    "print('a warning', file=sys.stderr)\n"
    "time.sleep(0.6)\n"
    "print('another', file=sys.stderr)\n"
    "display('shown, not printed')\n"
    "print('after the display')"
)
OUTPUT = re.compile(
    r'<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="([^"]+)"[^>]*>\n<pre>(.*?)</pre>', re.S
)


def run_and_render(tmp_path: Path) -> list[tuple[str, str]]:
    """(mime type, text) of each output of the one cell, as mkdocs-jupyter executes and renders it."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SPLIT_BY_A_FLUSH, id="cell-0")])
    notebook.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    path = tmp_path / "split.ipynb"
    nbformat.write(notebook, path)
    page = nb2html(str(path), execute=True, kernel_name="python3", allow_errors=False)
    return OUTPUT.findall(page)


def test_a_cells_outputs_of_one_stream_render_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", jupyter_config_path(os.environ.get("JUPYTER_CONFIG_PATH"), FOLDER))
    assert run_and_render(tmp_path) == [
        ("text/plain", "first line\nsecond line\n"),
        ("application/vnd.jupyter.stderr", "a warning\nanother\n"),
        ("text/plain", "'shown, not printed'"),  # a display is not a stream: never joined
        ("text/plain", "after the display\n"),
    ]


def test_without_the_configuration_the_kernel_splits_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The premise: left alone, the flush gives the first line an output of its own."""
    monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    outputs = run_and_render(tmp_path)
    assert ("text/plain", "first line\n") in outputs and ("text/plain", "second line\n") in outputs


def test_the_configuration_is_put_first_once() -> None:
    first = jupyter_config_path("/etc/jupyter-site", FOLDER)
    assert first == os.pathsep.join([str(FOLDER), "/etc/jupyter-site"])
    assert jupyter_config_path(first, FOLDER) == first
    assert jupyter_config_path(None, FOLDER) == str(FOLDER)

"""A reader who copies a chapter's visible code, block by block, into plain `python` gets the numbers its prose states.

The forward-mode page is held to the same: its shown blocks, copied in order, run and print its numbers.

The code blocks a chapter shows (executed blocks with ``source=...``, includes expanded as the site expands
them) are run in order in a fresh Python process without IPython, as a reader would paste them into a file
and run it with `python`; the numbers the prose states must appear in what that code prints, and every
figure it shows lands in ``glassgrad-figures.html``. Hidden blocks (layout and asserts) are left out: the
visible code alone must reproduce the chapter. (In Jupyter the same code runs as the notebook page:
tests/site/test_notebook.py.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from helpers import REPO

FENCE = re.compile(r"^```(?P<lang>\w+)(?P<options>[^\n]*)\n(?P<code>.*?)^```$", re.MULTILINE | re.DOTALL)

# Plain Python, not Jupyter: IPython cannot be imported, so nothing can lean on it.
PRELUDE = "import sys\n\nsys.modules['IPython'] = None\n"

# Per chapter: (what the prose states, in the page's Markdown; what the visible code prints).
STATED = {
    "chapters/1-pytorch.md": [
        (r"`w.grad` is \(-18\)", "w.grad = tensor(-18.)"),
        (r"\(-6\cdot w = -12\)", "x.grad = tensor(-12.)"),
        (r"\(-6\cdot(-1) = 6\)", "y.grad = tensor(6.)"),
        (r"\(L=e^2\) | \(9\)", "L = 9.0"),
        (r"\(-18\,\varepsilon\)", "slope of L in w: -18.000000"),
    ],
    "chapters/2-from-scratch.md": [
        (r"`w.grad` ends at \(4 = 2w\)", "w.grad = 4.0"),
        (r"\(w, x, m, b, a, y, e, L\)", "Dependency-first order: w → x → m → b → a → y → e → L"),
        (r"\(L, e, y, a, b, m, x, w\)", "Backward will process:  L → e → y → a → b → m → x → w"),
        ("must equal what PyTorch computed", "✓ Every value and gradient matches PyTorch."),
    ],
    "chapters/3-fused-sigmoid.md": [
        ("9 values instead of 12, 8 reverse edges instead of 11", "fused:  9 values, 8 reverse edges"),
        ("9 values instead of 12, 8 reverse edges instead of 11", "atomic: 12 values, 11 reverse edges"),
        (
            r"\(\partial L/\partial w=-0.5\), \(\partial L/\partial x=-0.125\)",
            "final gradients: w = -0.5, x = -0.125, b = -0.25, y = 1",
        ),
        (r"their product is \(0.25\)", "sigmoid local: 4 atomic factors = 0.25 = 1 fused factor"),
        ("for the fused graph, the atomic graph and\nPyTorch alike", "✓ fused, atomic and PyTorch agree at every node"),
        (r"from \(0.25\) to about \(0.12\)", "L: 0.25 → 0.1216"),
    ],
    # Not a chapter, but its code is as much meant to be copied: every shown block, in order.
    "beyond/forward-mode.md": [
        (r"The tangent of \(z\) is \(2\)", "z = Dual(0, tangent 2)"),
        (r"So \(\partial s/\partial w = 0.5\)", "s = Dual(0.5, tangent 0.5)"),
        (r"2 \times (-3) \times 3 = -18\)", "w.grad after backward: -18"),
        (r"\begin{pmatrix} 4 \\ 1 \end{pmatrix}", "glassgrad, J·v: [4.0, 1.0]"),
        (r"\begin{pmatrix} 4 \\ 1 \end{pmatrix}", "PyTorch,   J·v: [4.0, 1.0]"),
        ("each\nmode adds them all up in 80 steps", "forward: 80 steps, tangent 1,099,511,627,776"),
        ("The same four tangents", "PyTorch's tangents of m, a, e, L: [3.0, 3.0, 3.0, -18.0]"),
        ("| Kept in memory | one tangent per value", "kept for backward: 61 values, 72 saved links"),
    ],
}


def visible_code(chapter: str) -> list[str]:
    """The Python blocks the chapter shows, in order, with their ``--8<--`` includes expanded."""
    snippets = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": {"base_path": [str(REPO)], "check_paths": True}},
    ).preprocessors["snippet"]
    text = "\n".join(snippets.run((REPO / "docs" / chapter).read_text(encoding="utf-8").split("\n")))
    return [
        fence["code"]
        for fence in FENCE.finditer(text)
        if fence["lang"] in {"python", "py"} and re.search(r'\bsource="(?!none)', fence["options"])
    ]


@pytest.fixture(scope="module")
def pasted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each chapter's visible code, run in a fresh Python of its own (the three at once)."""
    started = {}
    for chapter in STATED:
        folder = tmp_path_factory.mktemp("pasted")
        script = folder / "pasted.py"
        script.write_text(PRELUDE + "\n\n".join(visible_code(chapter)), encoding="utf-8")
        started[chapter] = subprocess.Popen(
            [sys.executable, str(script)], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    finished = {}
    for chapter, process in started.items():
        stdout, stderr = process.communicate(timeout=180)
        finished[chapter] = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    return finished


@pytest.mark.parametrize("chapter", sorted(STATED))
def test_visible_code_prints_what_the_prose_states(
    chapter: str, pasted: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    assert len(visible_code(chapter)) >= 3, f"{chapter} shows only a few code blocks"
    run = pasted[chapter]
    assert run.returncode == 0, f"{chapter}'s visible code fails when pasted in order:\n{run.stderr[-3000:]}"
    markdown_text = (REPO / "docs" / chapter).read_text(encoding="utf-8")
    for stated, printed in STATED[chapter]:
        assert stated in markdown_text, f"{chapter} no longer states {stated!r}"
        assert printed in run.stdout, f"{chapter}: the visible code does not print {printed!r}"
    # Each show(...) of the listings adds its figure to one page and says so; the page holds them all.
    shown = sum(block.count("show(") for block in visible_code(chapter))
    written = re.findall(
        r"^figure (\d+) written to (.+glassgrad-figures\.html) \(open it in a browser\)$", run.stdout, re.M
    )
    assert [int(number) for number, _ in written] == list(range(1, shown + 1))
    if shown:
        page = Path(written[-1][1]).read_text(encoding="utf-8")
        assert page.count("<svg") >= shown and "gg-t-grad" in page and "<script>" in page


def test_each_chapter_links_to_the_one_place_that_shows_how_to_install_what_it_imports() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    pages = {path: path.read_text(encoding="utf-8") for path in (REPO / "docs").rglob("*.md")}
    showing = {path.name: re.findall(r'`(pip install "glassgrad\[[^`]*)`', text) for path, text in pages.items()}
    assert {name: found for name, found in showing.items() if found} == {"reuse.md": showing["reuse.md"]}
    install = showing["reuse.md"]
    reuse = pages[REPO / "docs" / "reuse.md"]
    assert len(install) == 1 and "## Run the tutorial's code" in reuse and "apt install graphviz" in reuse
    for chapter in (page for page in STATED if page.startswith("chapters/")):
        assert "../reuse.md#run-the-tutorials-code" in pages[REPO / "docs" / chapter], chapter
    assert (
        "@ git+https://github.com/glassgrad/glassgrad" in install[0] and "viz" in install[0] and "torch" in install[0]
    )
    assert install[0].split(" @ ")[1] in readme  # the same source as the README's install lines


def test_each_chapter_shows_once_the_call_that_draws_its_main_figure() -> None:
    for chapter, calls in {
        "chapters/2-from-scratch.md": ["draw_graph(sL", "show_backward_steps(steps", "show(beside("],
        "chapters/3-fused-sigmoid.md": ["draw_graph(graph", "show_backward_steps(steps", "show(side_by_side_graphs("],
    }.items():
        blocks = visible_code(chapter)
        for call in calls:
            showing = [block for block in blocks if call in block]
            assert len(showing) == 1, f"{chapter} shows {call} in {len(showing)} code blocks"


def test_chapter_1_opens_with_pytorch() -> None:
    """As the source does: its first listing is PyTorch's forward pass; glassgrad draws its figure unseen."""
    blocks = visible_code("chapters/1-pytorch.md")
    assert blocks[0].startswith("import torch\n")
    assert not [block for block in blocks if "glassgrad" in block]

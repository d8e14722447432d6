"""The playground against what a curious reader or a crafted link can throw at it (real Chromium, real Pyodide).

One test drives one page (one Python) through the checks, each a subtest: forged results run nothing, long
chains end with the size message and leave Python alive, printed output is shown and capped, a program cannot
change the next one, the small edges, the keyboard and the links. (That the time limit cannot be switched off
from inside, and that a stopped worker never writes into the page again: tests/test_playground.py, where the
time limit is met.)
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from helpers import keep_inside  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.site]

MARKER = "window.__ggPwned"
"""A global any injected script in these tests would set (it must stay undefined)."""


class Reader:
    """One playground page, the requests it made, the dialogs it opened and the errors it logged."""

    def __init__(self, context: Any, url: str, site_url: str) -> None:
        self.dialogs: list[str] = []
        self.page = context.new_page()
        self.requests, self.outside = keep_inside(self.page, site_url)
        self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        self.page.goto(url)

    def status(self) -> str:
        return self.page.inner_text("[data-gg-status]")

    def run(self, code: str) -> str:
        """Put `code` in the editor, press Run, wait until Run is enabled again; return the output's text."""
        self.page.fill("textarea", code)
        self.page.click("[data-gg-do=run]")
        self.page.wait_for_function("!document.querySelector('[data-gg-do=run]').disabled", timeout=90_000)
        return self.page.inner_text("[data-gg-output]")

    def printed(self) -> str:
        return self.page.inner_text("[data-gg-console]").rstrip("\n")

    def pyodide_loads(self) -> int:
        return sum(url.endswith("/pyodide.asm.wasm") for url in self.requests)


@pytest.fixture(scope="module")
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


LINEAR_ANSWER = "L = 9; w.grad = -18, x.grad = -12, b.grad = -6, y.grad = 6"

EVIL = (
    '<img src=x onerror="window.__ggPwned=1;alert(1)">'
    '<svg onload="window.__ggPwned=2"><g class="gg-value" id="gg-evil" onmouseover="window.__ggPwned=3"></g></svg>'
    '<a href="javascript:window.__ggPwned=4">link</a><iframe srcdoc="<script>parent.__ggPwned=5</script>"></iframe>'
    '<div class="gg-player"><script class="gg-frames" type="application/json">'
    '{"frames": [{"marks": {}, "texts": {"gg-evil": "<img src=y onerror=\\"window.__ggPwned=6\\">"}, '
    '"label": "x", "text": "y", "focus": ""}]}</script></div>'
    "<p>evil text kept</p>"
)


def forged_results_run_nothing(reader: Reader) -> None:
    """Markup with onerror/onload/javascript: reaches the page neither forged nor through the real result."""
    program = f"""\
import js, sys
from pyodide.ffi import to_js
from glassgrad.scratch import Value
EVIL = {EVIL!r}
forged = {{"summary": EVIL, "figure": EVIL, "order": EVIL, "cards": EVIL}}
for kind in ("result", "running", "failed"):  # on the worker itself: the page never reads these
    js.postMessage(to_js({{"type": kind, "id": "", "result": forged, "text": EVIL}}, dict_converter=js.Object.fromEntries))
# The real answer, through the worker's own channel, carrying the same markup.
viz = sys.modules["glassgrad.viz"]  # what glassgrad_runtime draws the result with
viz.draw_graph = lambda *args, **kwargs: EVIL
viz.show_complete_state = lambda *args, **kwargs: EVIL
L = Value(1.0, "L")
"""
    text = reader.run(program)
    page = reader.page
    page.hover(".gg-pg-output")  # any onmouseover would fire
    assert "evil text kept" in text
    assert page.evaluate(MARKER) is None
    assert reader.dialogs == []
    handlers = page.evaluate(
        """() => [...document.querySelectorAll('.gg-pg-output *')].flatMap(el => [...el.attributes]
             .filter(a => a.name.startsWith('on') || /javascript:/i.test(a.value)).map(a => el.tagName + ' ' + a.name))"""
    )
    assert handlers == []
    assert page.locator(".gg-pg-output img, .gg-pg-output iframe, .gg-pg-output a").count() == 0
    assert page.locator(".gg-pg-output svg").count() >= 1  # the SVG itself is kept, without its handler
    assert any(url.endswith("/dompurify/purify.es.mjs") for url in reader.requests)  # the site's own copy
    assert reader.outside == []


def chain(size: int, engine: str = "glassgrad.scratch") -> str:
    return f"from {engine} import Value, multiply\nL = Value(1.0, 'x')\nfor _ in range({size}):\n    L = multiply(L, Value(1.0001))\n"


def chains_of_any_length_get_the_size_message(reader: Reader) -> None:
    for size in (1_000, 5_000, 100_000):
        assert reader.run(chain(size)) == f"The graph of L has {2 * size + 1} values; the playground draws at most 40."
        if size == 1_000:
            loads = reader.pyodide_loads()  # Python is loaded by now
    page = reader.page
    page.select_option("select", "linear")
    assert reader.run(page.input_value("textarea")).startswith(LINEAR_ANSWER)
    # glassgrad's backward walks 100,000 values; the teaching engine's recursive walk says why it cannot.
    fast = "from glassgrad import Value\nL = Value(1.0)\nfor _ in range(100_000):\n    L = L * Value(1.0001)\nL.backward()\nprint(L.grad, L.data > 1)\n"
    assert "draws at most 40" in reader.run(fast)
    assert reader.printed() == "1.0 True"
    deep = reader.run(chain(5_000) + "from glassgrad.scratch import backward\nsteps = backward(L)\n")
    assert deep.startswith("Recursion too deep on line 6:")
    assert "recursive walk" in deep and "cycle" not in deep
    # A chain of the reader's own objects too.
    own = "class Node:\n    def __init__(self, before):\n        self.before = before\nnode = None\nfor _ in range(100_000):\n    node = Node(node)\nprint('built')\n"
    assert "defines no L" in reader.run(own)
    assert reader.printed() == "built"
    assert reader.pyodide_loads() == loads  # the same Python answered every time


def printed_output_in_order_and_capped(reader: Reader) -> None:
    reader.run("import sys\nprint('first')\nprint('to stderr', file=sys.stderr)\nprint('last', end='')\nL = 1\n")
    assert reader.printed() == "first\nto stderr\nlast"
    assert reader.page.locator("[data-gg-console] .gg-pg-stderr").inner_text().strip() == "to stderr"
    reader.run("for i in range(2_500):\n    print('line', i)\n")
    lines = reader.printed().splitlines()
    assert lines[0].startswith("… 500 earlier lines not shown")
    assert lines[1] == "line 500" and lines[-1] == "line 2499" and len(lines) == 2_001


def a_program_cannot_change_the_next_one(reader: Reader) -> None:
    page = reader.page
    page.select_option("select", "linear")
    linear = page.input_value("textarea")
    poisoned = (
        "import builtins\nimport glassgrad.scratch as scratch\nscratch.multiply = lambda u, v, label='': scratch.Value(0.0, label)\nbuiltins.print = None\n"
        + linear
    )
    assert not reader.run(poisoned).startswith(LINEAR_ANSWER)
    page.click("[data-gg-do=reset]")
    assert page.input_value("textarea") == linear
    assert reader.run(linear + "print('print works')\n").startswith(LINEAR_ANSWER)
    assert reader.printed() == "print works"
    # The player's frames came through the sanitizer and still drive it.
    player = page.locator(".gg-pg-output .gg-player").first
    player.locator("[data-gg-action=forward]").click()
    assert player.get_attribute("data-gg-step") == "1"
    assert player.locator(".gg-player-status").inner_text().startswith("Seed")


SMALL_EDGES = [
    ("x = input('How many? ')\n", "input() on line 1 has nothing to read"),
    ("import sys\nsys.exit(3)\n", "The program called exit() on line 2"),
    (
        "x = [0.0] * 10**9\n",
        "Out of memory on line 1: the program asked for more memory than this page can give it.",
    ),
    ("def f(n):\n    return f(n + 1)\nf(0)\n", "Recursion too deep on line 2: more than"),
]
"""(program, the start of the message it gets)."""


def small_edges_get_a_message(reader: Reader) -> None:
    for program, message in SMALL_EDGES:
        text = reader.run(program)
        assert text.startswith(message), (program, text)
        assert "playground_runner" not in text and "Traceback" not in text and "cycle" not in text


def keyboard_focus_stays_on_a_control(reader: Reader) -> None:
    page = reader.page
    page.focus("[data-gg-do=run]")
    page.keyboard.press("Enter")
    page.wait_for_function("!document.querySelector('[data-gg-do=run]').disabled", timeout=90_000)
    assert page.evaluate("document.activeElement.dataset.ggDo") == "run"


def links(reader: Reader, site_url: str) -> None:
    page = reader.page
    reader.run("pass\n")  # Python loaded first: its "ready" line would otherwise race the lines checked below
    # A long program: the link is made, with a warning that it may be cut short.
    page.fill("textarea", "# " + "x" * 9_000 + "\n")
    page.click("[data-gg-do=link]")
    assert "characters long" in reader.status()
    # Editing #code= in the same tab loads it.
    program = "print('from the hash')\n"
    page.evaluate(
        "code => { location.hash = 'code=' + code }", base64.urlsafe_b64encode(program.encode()).decode().rstrip("=")
    )
    page.wait_for_function("document.querySelector('textarea').value.startsWith('print')")
    assert page.input_value("textarea") == program
    # A damaged link (not base64) says so and leaves the editor with what it would show without it.
    page.goto(f"{site_url}playground/?preset=linear#code=@@@@")
    page.wait_for_function("document.querySelector('[data-gg-status]').textContent.includes('could not be read')")
    assert "multiply(w, x" in page.input_value("textarea")


@pytest.mark.pyodide
def test_one_page_and_one_python_take_every_program(context: Any, site_url: str, subtests: Any) -> None:
    """Each check in turn on one playground page, as a reader would go on: the page and its Python stay usable."""
    reader = Reader(context, f"{site_url}playground/", site_url)
    checks = [
        forged_results_run_nothing,
        chains_of_any_length_get_the_size_message,
        printed_output_in_order_and_capped,
        a_program_cannot_change_the_next_one,
        small_edges_get_a_message,
        keyboard_focus_stays_on_a_control,
        lambda reader: links(reader, site_url),  # last: it loads other addresses
    ]
    try:
        for check, name in zip(checks, [*(check.__name__ for check in checks[:-1]), "links"]):
            with subtests.test(name.replace("_", " ")):
                check(reader)
    finally:
        reader.page.close()


def test_query_parameters_are_checked(context: Any, site_url: str) -> None:
    page = context.new_page()
    try:
        page.goto(f"{site_url}playground/?preset=linear")
        linear = page.input_value("textarea")
        for name in ("__proto__", "toString", "constructor"):
            page.goto(f"{site_url}playground/?preset={name}")
            assert page.input_value("textarea") == linear
        page.goto(f"{site_url}playground/?limit=abc")
        assert "?limit= must be a number of seconds" in page.inner_text("[data-gg-status]")
    finally:
        page.close()


def test_without_javascript_no_one_is_told_to_press_run(browser: Any, site_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{site_url}playground/")
        visible = page.inner_text("article")
        assert "needs JavaScript" in visible
        assert not re.search(r"\b(Run|Stop|Ctrl\+Enter)\b", visible)
    finally:
        context.close()

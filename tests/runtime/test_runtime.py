"""glassgrad_runtime in this Python: one program run (or checked) once, its errors named, its output streamed and capped.

The browser calls the same functions (tests/test_playground*.py drive them there); here they run without one.
"""

from __future__ import annotations

import sys

import pytest
from helpers import REPO

from glassgrad_runtime import execute, worker
from glassgrad_runtime.output import Output, captured
from glassgrad_runtime.playground import MAX_NODES


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("x = input('How many? ')\n", "input() on line 1 has nothing to read"),
        ("import sys\n\nsys.exit(3)\n", "The program called exit() on line 3"),
        (
            "raise MemoryError\n",
            "Out of memory on line 1: the program asked for more memory than this page can give it.",
        ),
        ("def f(n):\n    return f(n + 1)\nf(0)\n", "Recursion too deep on line 2: more than"),
        ("x = 1\nraise KeyboardInterrupt\n", "The program raised KeyboardInterrupt on line 2"),
        ("print(undefined)\n", "Unknown name 'undefined' on line 1"),
        ("def f(:\n", "Syntax error on line 1"),
        ("class E(Exception):\n    def __str__(self):\n        raise ValueError\nraise E\n", "E on line 4"),
    ],
)
def test_messages_name_the_line_and_not_the_runtime(program: str, message: str) -> None:
    error = execute(program)["error"]
    assert error.startswith(message), error
    assert "glassgrad_runtime" not in error and "Traceback" not in error and "cycle" not in error


def test_the_line_is_quoted_under_the_message() -> None:
    assert execute("x = 1\ny = x / 0\n")["error"] == "ZeroDivisionError on line 2: division by zero\n    2 | y = x / 0"


def test_deep_recursion_in_the_teaching_engine_points_to_glassgrad() -> None:
    program = """\
from glassgrad.scratch import Value, backward, multiply
L = Value(1.0, 'x')
for _ in range(5_000):
    L = multiply(L, Value(1.0001))
steps = backward(L)
"""
    error = execute(program)["error"]
    assert error.startswith("Recursion too deep on line 5:")
    assert "glassgrad.scratch's backward" in error and "glassgrad's backward keeps its own stack" in error


def test_a_cycle_a_graph_too_large_and_no_l_are_named() -> None:
    cycle = """\
from glassgrad.scratch import ParentLink, Value, multiply
w = Value(2.0, "w")
L = multiply(w, w, "L")
w.parents = (ParentLink(L, 1.0),)
"""
    assert "'L' is one of its own ancestors" in execute(cycle)["error"]
    chain = """\
from glassgrad.scratch import Value, add
L = Value(1.0, "x")
for _ in range({sums}):
    L = add(L, L)
"""
    at_limit = execute(chain.format(sums=MAX_NODES - 1))  # x and its sums: exactly MAX_NODES values
    assert "error" not in at_limit and at_limit["summary"].startswith(f"v{MAX_NODES - 1} = ")  # drawn
    assert execute(chain.format(sums=MAX_NODES))["error"] == (
        f"The graph of L has {MAX_NODES + 1} values; the playground draws at most {MAX_NODES}."
    )
    assert execute("x = 1\n") == {
        "note": "The program ran. To see a graph drawn, name the output L (for example L = square(e, 'L'))."
    }


@pytest.mark.parametrize(
    ("build", "message"),
    [
        ("L = Value(4.0, 'L', parents=(w,))", "L.parents holds Values; wrap each in ParentLink(value, local_grad)"),
        ("L = Value(4.0, parents=(w,))", "L.parents holds Values; wrap each in ParentLink(value, local_grad)"),
        (
            "L = Value(4.0, 'L', parents=(ParentLink(w, 1.0),))\nL.parents[0].local_grad = 'two'",
            "The local derivative of L.parents[0] is 'two' (a str), not a finite number.",
        ),
        ("L = Value(4.0, 'L', parents=(3,))", "L.parents[0] is 3, not a ParentLink(value, local_grad)."),
        ("L = Value(4.0, 'L')\nL.parents = w", "L.parents is a Value; make it a tuple of ParentLinks."),
        ("L = Value(4.0, 'L')\nL.data = '4'", "L.data is '4' (a str), not a finite number."),
        ("L = Value(float('nan'), 'L')", "L.data is nan (a float), not a finite number."),
        ("L = 4.0", "L is a float, not a Value"),
    ],
)
def test_a_malformed_graph_is_named_not_drawn(build: str, message: str) -> None:
    program = f"from glassgrad.scratch import ParentLink, Value\nw = Value(2.0, 'w')\n{build}\n"
    assert execute(program)["error"].startswith(message)


def test_a_run_draws_l_with_its_replay_walk_and_cards() -> None:
    program = "from glassgrad.scratch import Value, backward, multiply\nw = Value(2.0, 'w')\nL = multiply(w, w, 'L')\nsteps = backward(L)\n"
    result = execute(program, "ggt")
    assert result["summary"] == "L = 4; w.grad = 4"
    assert 'id="ggt-node-0"' in result["figure"] and "data-gg-player" in result["figure"]
    assert (
        'data-gg-rankdir="TB"' in result["figure"] and 'data-gg-rankdir="LR"' not in result["figure"] + result["order"]
    )
    assert "ggt-order" in result["order"] and "w" in result["cards"]


@pytest.mark.parametrize(
    "program",
    [
        "from glassgrad.scratch import Value, backward, multiply\nw = Value(2.0, 'w')\nL = multiply(w, w, 'L')\n",
        "from glassgrad import Value, backward\nw = Value(2.0, 'w')\nL = w * w\nL.label = 'L'\n",
    ],
    ids=["scratch", "glassgrad"],
)
def test_the_steps_of_either_engines_backward_are_replayed(program: str) -> None:
    assert 'data-gg-player="backward"' in execute(program + "steps = backward(L)\n", "ggs")["figure"]
    not_steps = execute(program + "backward(L)\nsteps = 'not the steps'\n", "ggn")
    assert not_steps["summary"] == "L = 4; w.grad = 4" and 'data-gg-player="backward"' not in not_steps["figure"]


def test_output_is_sent_in_order_in_batches_and_capped_in_characters() -> None:
    batches: list[tuple[list[list[str]], int, int]] = []
    output = Output(lambda chunks, lines, characters: batches.append((chunks, lines, characters)), limit=30)
    with captured(output):
        print("one")
        print("two", file=sys.stderr)
        print("x" * 50)
        print("three\nfour")
    sent = [chunk for chunks, _, _ in batches for chunk in chunks]
    assert "".join(text for _, text in sent) == "one\ntwo\n" + "x" * 22
    assert [stream for stream, _ in sent] == ["stdout", "stderr", "stdout"]
    assert sum(lines for _, lines, _ in batches) == 3  # the x line, three, four
    assert sum(characters for _, _, characters in batches) == 28 + 1 + 11


def test_a_long_line_without_its_newline_counts_as_a_line() -> None:
    batches: list[tuple[int, int]] = []
    output = Output(lambda chunks, lines, characters: batches.append((lines, characters)), limit=5)
    with captured(output):
        sys.stdout.write("y" * 1_000_000)
    assert batches == [(1, 999_995)]


def test_the_worker_streams_output_and_returns_the_result() -> None:
    stdout, stderr = sys.stdout, sys.stderr
    printed: list[list[str]] = []
    result = worker.execute("print('hi')\nL = 3\n", "ggw", lambda chunks, lines, characters: printed.extend(chunks))
    assert printed == [["stdout", "hi\n"]] and result == {
        "error": "L is an int, not a Value: the playground draws the graph of a Value."
    }
    assert sys.stdout is stdout and sys.stderr is stderr  # the streams are given back


def test_the_worker_draws_every_figure_with_the_renderer_it_was_started_with(monkeypatch: pytest.MonkeyPatch) -> None:
    from glassgrad.viz.graph import dot_svg

    drawn: list[str] = []

    def renderer(dot: str) -> str:
        drawn.append(dot)
        return dot_svg(dot)

    monkeypatch.setattr(worker, "_renderer", dot_svg)
    worker.start(renderer)
    program = (
        "from glassgrad.scratch import Value, multiply\nfrom glassgrad.viz import show_parent_link\n"
        "w = Value(2.0, 'w')\nL = multiply(w, w, 'L')\nprint(len(str(show_parent_link(L, 0))) > 0)\n"
    )
    count = len(drawn)
    printed: list[list[str]] = []
    result = worker.execute(program, "ggr", lambda chunks, *_: printed.extend(chunks))
    assert "error" not in result and "".join(text for _, text in printed) == "True\n"
    assert len(drawn) > count + 1  # the figure the program drew itself, and the result's


def test_every_answer_is_json_data() -> None:
    """What the worker returns crosses to JavaScript as plain data: strings, numbers, booleans, lists, dicts."""
    import json

    linear = (REPO / "docs" / "snippets" / "playground" / "linear.py").read_text(encoding="utf-8")
    start = (REPO / "docs" / "snippets" / "exercises" / "divide_start.py").read_text(encoding="utf-8")
    for result in (
        execute(linear, "ggj"),
        execute("L = 1\n"),
        execute(start, "ggk", exercise="divide"),
        execute(start, exercise="divide", reveal=True),
        execute("raise SystemExit\n", exercise="divide"),
    ):
        assert json.loads(json.dumps(result, allow_nan=False)) == result

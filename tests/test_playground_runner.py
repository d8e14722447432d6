"""The playground's runner in this Python: the messages it gives for what a reader's program can do wrong."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import load_module


@pytest.fixture(scope="module")
def runner() -> Any:
    return load_module("docs/snippets/playground/runner.py")


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
    ],
)
def test_messages_name_the_line_and_not_the_runner(runner: Any, program: str, message: str) -> None:
    error = runner.run(program)["error"]
    assert error.startswith(message)
    assert "playground_runner" not in error and "Traceback" not in error and "cycle" not in error


def test_deep_recursion_in_the_teaching_engine_points_to_glassgrad(runner: Any) -> None:
    program = """\
from glassgrad.scratch import Value, backward, multiply
L = Value(1.0, 'x')
for _ in range(5_000):
    L = multiply(L, Value(1.0001))
steps = backward(L)
"""
    error = runner.run(program)["error"]
    assert error.startswith("Recursion too deep on line 5:")
    assert "glassgrad.scratch's backward" in error and "glassgrad's backward keeps its own stack" in error

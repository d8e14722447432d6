"""What the page receives for a Run or a Check: the one shape that crosses the worker boundary."""

from __future__ import annotations

from typing import TypedDict


class Result(TypedDict, total=False):
    """The answer to a Run or a Check, JSON-able; each request fills the keys it needs.

    A Run: ``error`` (the program stopped: why, and on which line), or ``note`` (it ran, with no ``L`` to
    draw), or the HTML ``summary``, ``figure``, ``order`` and ``cards`` of the graph of its ``L``.
    A Check: from the program's Python, ``record`` (what the program produced, as plain data: see
    `glassgrad.exercises.sealed`); from the judge, ``passed``, ``message`` and the ``figure`` with the wrong
    edge marked, the right formula in ``answer`` (only when revealed; ``has_answer`` says there is one), the
    wrong ``edge``, the ``inputs`` tried and the ``expected`` and ``given`` numbers.
    """

    error: str
    note: str
    summary: str
    figure: str
    order: str
    cards: str
    record: str
    passed: bool
    message: str
    answer: str
    has_answer: bool
    edge: str
    inputs: dict[str, float | None]
    expected: float | None
    given: float | None

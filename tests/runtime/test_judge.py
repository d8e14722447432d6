"""A Check's verdict comes from a Python the program never ran in (glassgrad_runtime.checking).

Each hostile program below runs in a subprocess, as in the browser's worker: the program runs and its check is
recorded there, and, in the same subprocess, the old way (the checker in the program's own Python) gives its
verdict too. The judge, here, reads only the record. Every program is a wrong answer that the checker in its
own Python passes (or loses the verdict of); the judge fails each one.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from exercise_cases import ATTACKS, MISTAKES
from helpers import REPO

from glassgrad.exercises.sealed import TAMPERED
from glassgrad_runtime.checking import judge

SEED = 7

PROBE = """
import json, pathlib, sys
from glassgrad_runtime.run import record_program
import glassgrad.exercises
program, exercise = pathlib.Path(sys.argv[1]).read_text(), sys.argv[2]
namespace = {}
text = record_program(program, exercise, 7, namespace)
try:  # the old way: the checker in the Python the program changed
    alone = glassgrad.exercises.check(exercise, namespace, seed=7).passed
except BaseException as error:
    alone = type(error).__name__
print(json.dumps({"record": text, "alone": alone}))
"""


def start(name: str) -> str:
    return (REPO / "docs" / "snippets" / "exercises" / f"{name}_start.py").read_text(encoding="utf-8")


def probe(program: str, exercise: str, tmp_path: object) -> dict[str, object]:
    """Run `program` and record its check in a fresh Python; the record and the old way's verdict."""
    path = tmp_path / "program.py"  # type: ignore[operator]
    path.write_text(program, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(path), exercise], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_program_that_patches_the_checker_in_its_own_python_still_fails(attack: str, tmp_path: object) -> None:
    probed = probe(start("tanh") + ATTACKS[attack], "tanh", tmp_path)
    assert probed["alone"] is True  # the attack works where the checker shares the program's Python
    result = judge(str(probed["record"]), "tanh", SEED, "ggj")
    assert result["passed"] is False, result["message"]
    assert result["message"] in (TAMPERED,) or result["message"].startswith("The edge ∂t/∂u is wrong"), result


def test_a_keyboard_interrupt_from_a_label_while_the_graph_is_drawn_ends_in_a_verdict(tmp_path: object) -> None:
    program = start("tanh") + (
        "class Loud(str):\n"
        "    def __str__(self):\n        raise KeyboardInterrupt\n"
        "    __repr__ = __format__ = __html__ = __len__ = __iter__ = __str__\n"
        "    def __eq__(self, other):\n        raise KeyboardInterrupt\n"
        "    __hash__ = str.__hash__\n"
        "_tanh = tanh\n"
        "def tanh(u, label=''):\n    t = _tanh(u, label)\n    t.label = Loud('t')\n    return t\n"
    )
    probed = probe(program, "tanh", tmp_path)
    result = judge(str(probed["record"]), "tanh", SEED, "ggk")
    assert result["passed"] is False
    assert result["message"].startswith("The edge ∂t/∂u is wrong"), result["message"]
    assert 'class="edge gg-link gg-wrong"' in result["figure"]  # drawn: the label arrived as a plain str


@pytest.mark.parametrize(
    ("raised", "says"),
    [
        ("KeyboardInterrupt", "The program raised KeyboardInterrupt on line"),
        ("SystemExit", "The program called exit() on line"),
    ],
)
def test_a_base_exception_from_the_answer_ends_in_a_verdict(raised: str, says: str, tmp_path: object) -> None:
    program = "def tanh(u, label=''):\n    raise " + raised + "\n"
    result = judge(str(probe(program, "tanh", tmp_path)["record"]), "tanh", SEED)
    assert result["passed"] is False
    assert result["message"].startswith("While checking tanh(u) at u = "), result["message"]
    assert says in result["message"] and "2 | raise " + raised in result["message"]


def test_a_field_that_raises_when_read_ends_in_a_verdict_naming_it(tmp_path: object) -> None:
    program = start("tanh") + (
        "class Odd:\n    label, op, grad, parents = 't', '', 0.0, ()\n"
        "    @property\n    def data(self):\n        raise KeyboardInterrupt('no data')\n"
        "def tanh(u, label=''):\n    return Odd()\n"
    )
    result = judge(str(probe(program, "tanh", tmp_path)["record"]), "tanh", SEED)
    assert result["passed"] is False
    assert "Reading what your code returned: The program raised KeyboardInterrupt on line" in result["message"]


def test_the_right_answer_passes_through_a_record(tmp_path: object) -> None:
    right = (REPO / "docs" / "snippets" / "exercises" / "tanh.py").read_text(encoding="utf-8")
    result = judge(str(probe(right, "tanh", tmp_path)["record"]), "tanh", SEED)
    assert result["passed"] is True and result["message"].startswith("Passed")


def tampered(result: dict[str, object]) -> bool:
    """Whether `result` is the failed check of a record that does not match the checker, with nothing drawn."""
    return (result["passed"], result["message"], result["figure"], result["answer"]) == (False, TAMPERED, "", "")


def test_a_record_that_answers_other_calls_or_fewer_fails() -> None:
    from glassgrad_runtime.run import record_program

    right = (REPO / "docs" / "snippets" / "exercises" / "tanh.py").read_text(encoding="utf-8")
    record = json.loads(record_program(right, "tanh", SEED))
    assert judge(json.dumps(record), "tanh", SEED)["passed"] is True
    cut = {**record, "calls": record["calls"][:3]}
    other_seed = json.dumps(record)
    moved = json.loads(json.dumps(record))
    moved["calls"][0]["args"]["rows"][0][3]["data"] = ["f", (0.25).hex()]
    for forged in (json.dumps(cut), json.dumps(moved), "[]", "{", '{"names": 1}', json.dumps({**record, "calls": 5})):
        assert tampered(judge(forged, "tanh", SEED)), forged[:80]
    assert tampered(judge(other_seed, "tanh", SEED + 1))


@pytest.mark.parametrize(
    ("exercise", "program", "says"), MISTAKES, ids=[f"{name}-{i}" for i, (name, _, _) in enumerate(MISTAKES)]
)
def test_every_honest_mistake_gets_its_verdict_through_a_record(exercise: str, program: str, says: str) -> None:
    """What a Check in the browser does: the program recorded in its Python, the record judged in another."""
    from glassgrad_runtime.run import record_program

    result = judge(record_program(program, exercise, SEED), exercise, SEED)
    assert result["passed"] is False, result["message"]
    assert says.split(" at u = ")[0] in result["message"], result["message"]
    assert "Traceback" not in result["message"]


def test_only_the_names_the_checker_reads_are_recorded() -> None:
    """A right answer beside a big graph of the program's own (10,000 values in L) passes: L is not read."""
    from glassgrad_runtime.run import record_program

    right = (REPO / "docs" / "snippets" / "exercises" / "tanh.py").read_text(encoding="utf-8")
    big = "\nL = Value(1.0, 'x')\nfor _ in range(10_000):\n    L = Value(L.data, 'y', parents=(ParentLink(L, 1.0),))\n"
    assert judge(record_program(right + big, "tanh", SEED), "tanh", SEED)["passed"] is True

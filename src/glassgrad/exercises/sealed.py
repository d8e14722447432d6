"""A check in two halves, so that the verdict is computed where the reader's program has no handle.

`record` runs in the Python that ran the program. It runs the checker (`glassgrad.exercises.check`, with the
page's `seed`) on the names the program defined, read as plain data (`glassgrad.exercises.record`): the
reader's answer is called through a stand-in that writes down each call, the arguments as the checker built
them and what the call returned or changed, as plain data, and hands the checker objects rebuilt from that
data. The record, a JSON text, is all that leaves this Python: it holds no verdict.

`judge` runs in another Python, one that never runs a reader's program. It runs the same check (the same
seed: the same inputs) on the names rebuilt from the record, the answer replaced by a stand-in that takes each
call's outcome from the record after checking that the call's arguments are the ones this checker built, and
returns the `Verdict`. Whatever the program changed in its own Python (the checker's functions, their code, its
tables, the numbers' methods, the record), it cannot change this checker or these inputs: a record that
answers other calls, or fewer, fails the check.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import glassgrad.examples  # noqa: F401  (the checker's reference graphs: imported before any program runs)
from glassgrad.exercises import EXERCISES, Verdict, check
from glassgrad.exercises.record import Decoder, Encoder, Malformed, TooBig, encode

Explain = Callable[[BaseException], str]
"""A message for an error the reader's code raised, naming its line (the site's runtime gives one)."""

ANSWER = ["answer"]
"""The ref that stands for the reader's answer, a function, among the names a record holds."""

TAMPERED = (
    "The check's record does not match this checker's own inputs: did the program change glassgrad, "
    "the runtime or Python's own modules? Define only your answer, and Check again."
)


class ReaderFailure(Exception):
    """The reader's code raised, or what it returned could not be read: `text` says which, and where."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class Tampered(Exception):
    """The record does not answer the calls this checker makes."""


def _outcome(entry: Any, objects: list[Any]) -> Any:
    """The checker's side of one recorded call: the arguments (`objects`, by row) updated to what the call left,
    and what it returned, rebuilt; or the reader's error, raised."""
    if not isinstance(entry, dict):
        raise Tampered
    for failure in ("raised", "unreadable"):
        if failure in entry:
            raise ReaderFailure(str(entry[failure]))
    after = entry.get("after")
    if not isinstance(after, dict) or not isinstance(after.get("refs"), list) or len(after["refs"]) != 1:
        raise Tampered
    try:
        return Decoder(after.get("rows"), objects).value(after["refs"][0])
    except (Malformed, TypeError, ValueError, KeyError, IndexError, OverflowError, AttributeError) as error:
        raise Tampered from error


def recording(answer: Any, calls: list[dict[str, Any]], explain: Explain) -> Callable[..., Any]:
    """The answer's stand-in where the program ran: calls `answer`, writes the call into `calls` as plain data."""

    def call(*args: Any) -> Any:
        encoder = Encoder()
        before, objects = encode(list(args), encoder)
        entry: dict[str, Any] = {"args": before}
        calls.append(entry)
        try:
            returned = answer(*args)
        except BaseException as error:  # the reader's code: exit(), an interrupt, anything is the reader's error
            entry["raised"] = explain(error)
        else:
            try:
                entry["after"], _ = encode([returned], encoder)
            except TooBig as error:
                entry["unreadable"] = f"What your code returned is too big to check ({error})."
            except BaseException as error:  # a property of the reader's raised while its fields were read
                entry["unreadable"] = f"Reading what your code returned: {explain(error)}"
        return _outcome(entry, objects)

    return call


class Replaying:
    """The answer's stand-in in the judge: each call's outcome from `calls`, once its arguments match the record."""

    def __init__(self, calls: Any) -> None:
        self.entries = iter(calls if isinstance(calls, list) else [])

    def __call__(self, *args: Any) -> Any:
        entry = next(self.entries, None)
        before, objects = encode(list(args))
        if not isinstance(entry, dict) or json.loads(json.dumps(before)) != entry.get("args"):
            raise Tampered
        return _outcome(entry, objects)

    def answered_all(self) -> bool:
        """Whether the checker asked for every call the record holds (a true record holds no other)."""
        return next(self.entries, None) is None


def _names(exercise: str) -> tuple[str, ...]:
    """The names the checker of `exercise` reads from a program: its answer (and for the order, L)."""
    return (EXERCISES[exercise].defines, "L") if exercise == "order" else (EXERCISES[exercise].defines,)


def record(exercise: str, namespace: dict[str, Any], explain: Explain, seed: int) -> str:
    """The record of checking the program's `namespace` for `exercise`: a JSON text (see the module's docstring)."""
    names = {name: namespace[name] for name in _names(exercise) if name in namespace}
    answer = names.pop(EXERCISES[exercise].defines, None)
    is_function = answer is not None and callable(answer)
    if answer is not None and not is_function:
        names[EXERCISES[exercise].defines] = answer
    try:
        plain, _ = encode(list(names.values()))
    except TooBig as error:
        return json.dumps({"error": f"What the program defined is too big to check ({error})."})
    except BaseException as error:  # the reader's class: a field that raises when read
        return json.dumps({"error": f"Reading what the program defined: {explain(error)}"})
    refs = dict(zip(names, plain["refs"]))
    calls: list[dict[str, Any]] = []
    if is_function:
        refs[EXERCISES[exercise].defines] = ANSWER
    rebuilt = _rebuilt({"rows": plain["rows"], "refs": refs}, exercise, recording(answer, calls, explain))
    try:
        check(exercise, rebuilt, seed=seed)  # its verdict stays here: the judge computes its own
    except BaseException:  # noqa: S110  (a program that broke the checker here: the judge finds the calls missing)
        pass
    return json.dumps({"names": {"rows": plain["rows"], "refs": refs}, "calls": calls})


def _rebuilt(names: Any, exercise: str, answer: Callable[..., Any]) -> dict[str, Any]:
    """The names of a record, rebuilt; the answer (if it was a function) is `answer`."""
    if not isinstance(names, dict) or not isinstance(names.get("refs"), dict):
        raise Tampered
    decoder = Decoder(names.get("rows"))
    rebuilt: dict[str, Any] = {}
    for name, ref in names["refs"].items():
        if name not in _names(exercise):
            raise Tampered
        rebuilt[name] = answer if ref == ANSWER and name == EXERCISES[exercise].defines else decoder.value(ref)
    return rebuilt


def judge(text: str, exercise: str, seed: int) -> Verdict:
    """The verdict on the record `text` (from `record`, with the same `exercise` and `seed`).

    Never raises: a record that is not one (or that does not match this checker's calls) fails the check with
    the message `TAMPERED`; an error the reader's code raised is named as the record explained it.
    """
    if exercise not in EXERCISES:
        return Verdict(exercise, False, f"There is no exercise {exercise!r}.")
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise Tampered
        if "error" in data:
            return Verdict(exercise, False, str(data["error"]))
        answer = Replaying(data.get("calls"))
        verdict = check(exercise, _rebuilt(data.get("names"), exercise, answer), seed=seed)
        if verdict.passed and not answer.answered_all():
            raise Tampered
    except (Tampered, Malformed, TypeError, ValueError, KeyError, IndexError, OverflowError, RecursionError):
        return Verdict(exercise, False, TAMPERED)
    if isinstance(verdict.error, Tampered):
        return Verdict(exercise, False, TAMPERED)
    if isinstance(verdict.error, ReaderFailure):
        verdict.message = f"While {verdict.doing}:\n{verdict.error.text}"
    return verdict

"""The one-training-step exercise."""

from __future__ import annotations

import random
from typing import Any

from glassgrad.exercises import verdict
from glassgrad.exercises.operations import rounded
from glassgrad.exercises.verdict import TRIALS, Verdict


def _check_train_step(fn: Any, exercise: str, rng: random.Random) -> Verdict:
    import glassgrad
    from glassgrad.examples import sigmoid_neuron

    if not callable(fn):
        return verdict.not_a_function(exercise, fn, "train_step(w, b, x, y, lr)")
    cases = [
        (
            rounded(rng, -2, 2),
            rounded(rng, -2, 2),
            rounded(rng, -2, 2),
            rng.choice((0.0, 1.0)),
            rng.choice((0.1, 0.5, 1.0)),
        )
        for _ in range(TRIALS)
    ]
    for w, b, x, y, lr in cases:
        where = f"w = {verdict.num(w)}, b = {verdict.num(b)}, x = {verdict.num(x)}, y = {verdict.num(y)}, lr = {verdict.num(lr)}"
        result = verdict.call(f"train_step at {where}", fn, w, b, x, y, lr)
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            return Verdict(
                exercise,
                False,
                f"train_step returned {verdict.shown(result)}; return the two new numbers: return new_w, new_b.",
            )
        nodes = sigmoid_neuron(True, glassgrad, w=w, b=b, x=x, y=y)
        glassgrad.backward(nodes["L"])
        for name, old, given in (("w", w, result[0]), ("b", b, result[1])):
            grad = nodes[name].grad
            expected = old - lr * grad
            if verdict.same(given, expected):
                continue
            step = f"The new {name} is {name} - lr × dL/d{name}."
            if not verdict.is_number(given):
                return verdict.not_a_number(exercise, f"The new {name}", given, ": return numbers.", answer=step)
            want, got = verdict.pair(expected, float(given))
            if verdict.close(given, old + lr * grad):
                why = "That is a step up the gradient."
            elif verdict.close(given, old):
                why = f"{name} did not move."
            elif verdict.close(given, old - grad):
                why = "The step forgot the learning rate lr."
            else:
                why = f"dL/d{name} = {verdict.num(grad)} here, from backward."
            return Verdict(
                exercise,
                False,
                f"At {where}: the new {name} should be {want}; yours is {got}.\n{why}",
                answer=step,
                graph=nodes["L"],
                show_grad=True,
                operand=name,
                expected=expected,
                given=float(given),
                inputs={"w": w, "b": b, "x": x, "y": y, "lr": lr},
            )
    return Verdict(
        exercise, True, f"Passed: at {len(cases)} new inputs both new weights match glassgrad's backward and step."
    )

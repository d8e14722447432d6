"""The lab's URL and script are data, not code: any settings are checked and clamped with a message, no setting
can make a step recurse, and the downloaded script is valid Python meaning exactly the run's data, whatever it holds."""

from __future__ import annotations

import ast
import math
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glassgrad_site.lab import export, page
from glassgrad_site.lab.data import DATASETS, TASKS, make_points, split
from glassgrad_site.lab.model import Lab
from glassgrad_site.lab.settings import (
    ACTIVATIONS,
    DEFAULTS,
    FEATURES,
    LAYERS,
    NUMBERS,
    SUGGESTED,
    WIDTH,
    clean_settings,
)

junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)
"""Anything JSON-like an address or a hand-edited message could carry."""
raw_settings = st.dictionaries(st.sampled_from([*DEFAULTS, "other"]), junk, max_size=len(DEFAULTS))


@settings(max_examples=150)
@given(raw=raw_settings)
def test_any_settings_are_cleaned_into_their_limits_with_a_message_for_each_change(raw: dict[str, Any]) -> None:
    cleaned, notes = clean_settings(raw)
    assert set(cleaned) == set(DEFAULTS) and all(isinstance(note, str) and note for note in notes)
    for key, (low, high, whole) in NUMBERS.items():
        assert low <= cleaned[key] <= high and (not whole or isinstance(cleaned[key], int))
    assert cleaned["data"] in DATASETS and cleaned["activation"] in ACTIVATIONS
    assert len(cleaned["layers"]) <= LAYERS and all(1 <= width <= WIDTH for width in cleaned["layers"])
    assert cleaned["features"] and set(cleaned["features"]) <= set(FEATURES)
    if cleaned != {**DEFAULTS, **{k: v for k, v in raw.items() if k in DEFAULTS}}:
        assert notes  # whatever was changed, something says so


def test_the_address_that_killed_python_is_clamped_and_steps_without_recursion() -> None:
    """#layers=32,32,32,32 with the largest batch: a step runs under a recursion limit of 120 frames, so no part
    of it recurses per example, per layer or per parameter."""
    run = Lab({"layers": ["32", "32", "32", "32", "32"], "batch": 10_000, "size": 800, "ratio": 0.9})
    assert run.settings["layers"] == [32] * 4 and run.settings["batch"] == 800
    assert any("5 hidden layers" in note for note in run.notes) and any("Batch" in note for note in run.notes)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)
    try:
        loss = run.step()
    finally:
        sys.setrecursionlimit(limit)
    assert math.isfinite(loss)


states = st.fixed_dictionaries(
    {
        "data": st.sampled_from(DATASETS),
        "size": st.integers(8, 30),
        "noise": st.floats(0, 0.5),
        "seed": st.integers(0, 2**31 - 1),
        "features": st.lists(st.sampled_from(FEATURES), min_size=1, unique=True),
        "layers": st.lists(st.integers(1, 4), max_size=2),
        "activation": st.sampled_from(ACTIVATIONS),
        "reg": st.sampled_from(["none", "l1", "l2"]),
        "rate": st.floats(1e-6, 10),
    }
)


@settings(max_examples=60, deadline=None)
@given(state=states, url=st.text(max_size=80), steps=st.integers(0, 2))
def test_the_script_is_valid_python_holding_exactly_the_runs_data(state: dict[str, Any], url: str, steps: int) -> None:
    """Any state and any address (a URL holding \\N, quotes, triple quotes, newlines): the script parses, and its
    docstring and data are the run's, read back by literal_eval."""
    run = Lab(state)
    for _ in range(steps):
        run.step()
    tree = ast.parse(export.script(run, url))
    docstring = ast.get_docstring(tree, clean=False) or ""
    assert url in docstring if url else "lab, replayed" in docstring
    values = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    assert ast.literal_eval(values["SETTINGS"]) == run.settings
    assert ast.literal_eval(values["POINTS"]) == run.points and ast.literal_eval(values["LABELS"]) == run.labels
    assert ast.literal_eval(values["STEPS"]) == steps


@pytest.mark.parametrize("name", DATASETS)
def test_test_points_are_drawn_apart_from_the_training_points_even_without_noise(name: str) -> None:
    """The test set is no copy of the training set: at noise 0 too, no test point is a training point."""
    (train, _), (test, test_labels) = split(make_points(name, 200, 0.0, 3), 0.5)
    assert len(train) == len(test) == 100 and not set(train) & set(test)
    if TASKS[name] != "regression":
        assert len(set(test_labels)) == (3 if TASKS[name] == "classes" else 2)  # every class in the test set


def test_the_ratio_splits_the_points_and_the_state_names_data_loss_and_regularisation() -> None:
    started = page.start({"size": 100, "ratio": 0.7, "reg": "l2", "reg_rate": 0.01})
    assert (len(started["points"]), len(started["test_points"])) == (70, 30)
    state = page.step()
    assert state["loss"] == pytest.approx(state["data_loss"] + state["reg_loss"], rel=1e-12)
    assert state["reg_loss"] == pytest.approx(0.01 * sum(w * w for w in started["weights"]), rel=1e-12)
    assert state["data_loss"] > 0 and state["reg_loss"] > 0
    assert page.start({"data": "wave"})["test_accuracy"] is None  # regression: no accuracy


@pytest.mark.parametrize(
    ("setup", "steps"),
    [(SUGGESTED["spiral"], 600), ({"data": "blobs", "size": 300}, 200)],
    ids=["spiral, the suggested setup", "three classes, the defaults"],
)
def test_the_spiral_and_the_three_classes_reach_90_percent_on_the_test_points(
    setup: dict[str, Any], steps: int
) -> None:
    run = Lab(setup)
    for _ in range(steps):
        run.step()
    assert run.metrics()["test_accuracy"] >= 0.9  # type: ignore[operator]

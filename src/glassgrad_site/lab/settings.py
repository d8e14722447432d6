"""The lab's settings as data: defaults, limits, and `clean_settings`, which checks and clamps every field a page
(or an address someone shared) sends, and says in a sentence what it changed."""

from __future__ import annotations

import math
from typing import Any

from glassgrad_site.lab.data import DATASETS, TASKS

FEATURES = ("x1", "x2", "x1^2", "x2^2", "x1x2", "sin x1", "sin x2")
ACTIVATIONS = ("relu", "tanh", "sigmoid", "linear")
LOSSES = {"binary": ("hinge", "cross-entropy", "mse"), "classes": ("softmax",), "regression": ("mse",)}
"""The losses each task can train with: a two-class score, three classes' scores, or a number."""
REGULARISERS = ("none", "l1", "l2")
DEFAULTS: dict[str, Any] = {
    "data": "moons",
    "size": 200,
    "ratio": 0.5,
    "noise": 0.1,
    "seed": 0,
    "features": ["x1", "x2"],
    "layers": [8, 8],
    "activation": "relu",
    "loss": "hinge",
    "reg": "l2",
    "reg_rate": 1e-4,
    "rate": 0.5,
    "decay": 0.0,
    "batch": 100,
    "added": [],
    "removed": [],
}
SUGGESTED = {
    "spiral": {
        "data": "spiral",
        "size": 400,
        "noise": 0.05,
        "features": ["x1", "x2", "sin x1", "sin x2"],
        "layers": [8, 8],
        "activation": "tanh",
        "loss": "cross-entropy",
        "reg": "none",
        "rate": 0.3,
        "batch": 50,
    },
}
"""A setup the page offers for a data set that the defaults do not learn (the spiral: its features and width)."""
NUMBERS: dict[str, tuple[float, float, bool]] = {
    "size": (8, 800, True),
    "ratio": (0.1, 0.9, False),
    "noise": (0.0, 0.5, False),
    "seed": (0, 2**31 - 1, True),
    "reg_rate": (0.0, 1.0, False),
    "rate": (1e-6, 10.0, False),
    "decay": (0.0, 1.0, False),
    "batch": (1, 800, True),
}
"""Each number's lowest and highest value, and whether it is a whole number."""
NAMES = {
    "size": "Points",
    "ratio": "Training share",
    "noise": "Noise",
    "seed": "Seed",
    "reg_rate": "Regularisation rate",
    "rate": "Learning rate",
    "decay": "Decay",
    "batch": "Batch",
}
LAYERS = 4  # hidden layers, at most
WIDTH = 32  # neurons in a hidden layer, at most
EDITS = 400  # points added, at most
PLANE = 10.0  # an added point's coordinates, at most this far from 0


def _text(value: object, limit: int = 40) -> str:
    """A value the reader sent, short and printable, for a message."""
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _number(value: object) -> float | None:
    """`value` as a finite float, or None."""
    if isinstance(value, bool):
        return None
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _choice(raw: dict[str, Any], key: str, allowed: tuple[str, ...], default: str, notes: list[str]) -> str:
    value = raw.get(key, default)
    if value in allowed:
        return str(value)
    notes.append(f"{key.capitalize()} {_text(value)!r} is not one of {', '.join(allowed)}: {default} instead.")
    return default


def _clamped(raw: dict[str, Any], key: str, notes: list[str]) -> float:
    low, high, whole = NUMBERS[key]
    default = DEFAULTS[key]
    if key not in raw:
        return float(default)
    number = _number(raw[key])
    if number is None:
        notes.append(f"{NAMES[key]} {_text(raw[key])!r} is not a number: {default} instead.")
        return float(default)
    kept = min(high, max(low, round(number) if whole else number))
    if kept != number:
        notes.append(
            f"{NAMES[key]} {_text(raw[key])} is outside {low:g} to {high:g}"
            + (" or not whole" if whole else "")
            + f": {kept:g}."
        )
    return kept


def _layers(value: object, notes: list[str]) -> list[int]:
    if not isinstance(value, (list, tuple)):
        notes.append(f"Hidden layers {_text(value)!r} are not a list of widths: {DEFAULTS['layers']} instead.")
        return list(DEFAULTS["layers"])
    widths = []
    for width in value:
        number = _number(width)
        if number is None:
            notes.append(f"Hidden layer width {_text(width)!r} is not a number: left out.")
            continue
        kept = int(min(WIDTH, max(1, round(number))))
        if kept != number:
            notes.append(f"Hidden layer width {_text(width)} is outside 1 to {WIDTH}: {kept}.")
        widths.append(kept)
    if len(widths) > LAYERS:
        notes.append(f"{len(widths)} hidden layers asked for: the first {LAYERS} kept.")
    return widths[:LAYERS]


def _features(value: object, notes: list[str]) -> list[str]:
    kept = [name for name in FEATURES if isinstance(value, (list, tuple)) and name in value]
    unknown = [name for name in value if name not in FEATURES] if isinstance(value, (list, tuple)) else [value]
    if unknown:
        notes.append(f"Unknown input features left out: {_text(unknown)} (known: {', '.join(FEATURES)}).")
    if not kept:
        notes.append("No input feature chosen: x1 and x2.")
        return ["x1", "x2"]
    return kept


def _added(value: object, task: str, notes: list[str]) -> list[tuple[float, float, int]]:
    added: list[tuple[float, float, int]] = []
    classes = (-1, 1) if task == "binary" else (0, 1, 2) if task == "classes" else ()
    if not isinstance(value, (list, tuple)):
        notes.append(f"Added points {_text(value)!r} are not a list of (x1, x2, class): none added.")
    for point in value if isinstance(value, (list, tuple)) else []:
        x1, x2, label = (
            (*map(_number, point), None, None, None)[:3] if isinstance(point, (list, tuple)) else (None,) * 3
        )
        if x1 is None or x2 is None or label not in classes:
            notes.append(f"Added point {_text(point)} is not (x1, x2, class): left out.")
            continue
        added.append((min(PLANE, max(-PLANE, x1)), min(PLANE, max(-PLANE, x2)), int(label)))  # type: ignore[arg-type]
    if len(added) > EDITS:
        notes.append(f"{len(added)} added points: the first {EDITS} kept.")
    return added[:EDITS]


def _removed(value: object, size: int, notes: list[str]) -> list[int]:
    if not isinstance(value, (list, tuple)):
        notes.append(f"Removed points {_text(value)!r} are not a list of indexes: none removed.")
    indexes = [_number(i) for i in value] if isinstance(value, (list, tuple)) else []
    kept = sorted({int(i) for i in indexes if i is not None and i == int(i) and 0 <= i < size})
    if len(kept) != len(indexes):
        notes.append("Removed points that are not in the set are left out.")
    return kept


def clean_settings(raw: dict[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
    """The settings the page sent, every field checked and clamped, and a sentence for each change made.

    Anything unreadable falls back to its default; a number out of range is clamped to it; a loss the data set
    cannot train with is replaced by one it can. Nothing here can make a step recurse deeper or run longer than
    the largest model the limits allow.
    """
    raw = dict(raw) if isinstance(raw, dict) else {}
    notes: list[str] = []
    settings = dict(DEFAULTS)
    settings["data"] = _choice(raw, "data", DATASETS, DEFAULTS["data"], notes)
    task = TASKS[settings["data"]]
    for key in NUMBERS:
        value = _clamped(raw, key, notes)
        settings[key] = int(value) if NUMBERS[key][2] else value
    settings["features"] = _features(raw.get("features", DEFAULTS["features"]), notes)
    settings["layers"] = _layers(raw.get("layers", DEFAULTS["layers"]), notes)
    settings["activation"] = _choice(raw, "activation", ACTIVATIONS, DEFAULTS["activation"], notes)
    losses = LOSSES[task]
    loss = raw.get("loss", DEFAULTS["loss"])
    if loss not in losses:
        if "loss" in raw and task == "binary":
            notes.append(f"Loss {_text(loss)!r} is not one of {', '.join(losses)}: {losses[0]} instead.")
        loss = losses[0]
    settings["loss"] = loss
    settings["reg"] = _choice(raw, "reg", REGULARISERS, DEFAULTS["reg"], notes)
    settings["added"] = _added(raw.get("added", []), task, notes)
    settings["removed"] = _removed(raw.get("removed", []), settings["size"], notes)
    return settings, notes

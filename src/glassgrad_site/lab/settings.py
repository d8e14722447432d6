"""The lab's settings: their defaults and limits, and `clean_settings`, which checks and clamps what a page sends."""

from __future__ import annotations

import math
from typing import Any

from glassgrad_site.lab.data import DATASETS

LOSSES = ("hinge", "cross-entropy", "mse")
DEFAULTS: dict[str, Any] = {
    "data": "moons",
    "size": 100,
    "noise": 0.1,
    "seed": 0,
    "layers": [8, 8],
    "loss": "hinge",
    "l2": 1e-4,
    "rate": 0.5,
    "decay": 0.0,
    "batch": 100,
    "added": [],
    "removed": [],
}
LIMITS = {"size": (4, 400), "noise": (0.0, 0.5), "layer": (1, 32), "layers": (0, 4), "batch": (1, 800)}


def _number(value: object, low: float, high: float, default: float) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default
    return min(high, max(low, number)) if math.isfinite(number) else default


def clean_settings(raw: dict[str, Any] | None) -> dict[str, Any]:
    """The settings the page sent, each checked and clamped (anything unreadable falls back to its default)."""
    raw = dict(raw or {})
    settings = dict(DEFAULTS)
    settings["data"] = raw.get("data") if raw.get("data") in DATASETS else DEFAULTS["data"]
    settings["loss"] = raw.get("loss") if raw.get("loss") in LOSSES else DEFAULTS["loss"]
    settings["size"] = int(_number(raw.get("size", DEFAULTS["size"]), *LIMITS["size"], DEFAULTS["size"]))
    settings["noise"] = _number(raw.get("noise", DEFAULTS["noise"]), *LIMITS["noise"], DEFAULTS["noise"])
    settings["seed"] = int(_number(raw.get("seed", 0), 0, 2**31 - 1, 0))
    layers = raw.get("layers", DEFAULTS["layers"])
    if not isinstance(layers, (list, tuple)):
        layers = DEFAULTS["layers"]
    settings["layers"] = [int(_number(width, *LIMITS["layer"], 8)) for width in layers][: int(LIMITS["layers"][1])]
    settings["l2"] = _number(raw.get("l2", DEFAULTS["l2"]), 0.0, 1.0, DEFAULTS["l2"])
    settings["rate"] = _number(raw.get("rate", DEFAULTS["rate"]), 1e-6, 10.0, DEFAULTS["rate"])
    settings["decay"] = _number(raw.get("decay", DEFAULTS["decay"]), 0.0, 1.0, DEFAULTS["decay"])
    settings["batch"] = int(_number(raw.get("batch", DEFAULTS["batch"]), *LIMITS["batch"], DEFAULTS["batch"]))
    added = []
    for point in raw.get("added") or []:
        if isinstance(point, (list, tuple)) and len(point) == 3 and point[2] in (-1, 1):
            x1, x2 = _number(point[0], -10, 10, math.nan), _number(point[1], -10, 10, math.nan)
            if math.isfinite(x1) and math.isfinite(x2):
                added.append((x1, x2, int(point[2])))
    settings["added"] = added[:400]
    removed = raw.get("removed") or []
    settings["removed"] = sorted({int(i) for i in removed if isinstance(i, (int, float)) and 0 <= i < 800})
    return settings

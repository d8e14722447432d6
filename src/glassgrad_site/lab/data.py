"""The lab's data sets: points in the plane with their labels, each point drawn on its own from a seeded generator.

Every point's place is random (not spaced along its curve), so the test points, drawn from the same generator
after the training points, are other points than the training ones, whatever the noise, 0 included.
Labels: -1 and +1 for the two-class sets, 0, 1 and 2 for the three-class set, a number for regression.
"""

from __future__ import annotations

import math
import random

TASKS = {
    "moons": "binary",
    "circles": "binary",
    "xor": "binary",
    "spiral": "binary",
    "blobs": "classes",
    "wave": "regression",
}
"""Each data set and its task: two classes, three classes (softmax cross-entropy) or regression (squared error)."""
DATASETS = tuple(TASKS)
CLASSES = 3  # the classes of the three-class set
VIEWS = {"moons": (-1.6, 2.6, -1.2, 1.7), "spiral": (-3.6, 3.6, -3.6, 3.6)}  # x from, x to, y from, y to
VIEW = (-1.6, 1.6, -1.6, 1.6)

Label = int | float
Points = tuple[list[tuple[float, float]], list[Label]]


def view_of(name: str) -> tuple[float, float, float, float]:
    """The part of the plane the page draws for the data set `name`."""
    return VIEWS.get(name, VIEW)


def _point(name: str, rng: random.Random, k: int) -> tuple[float, float, Label]:
    """The `k`-th point of the set `name` before noise: its place and its label."""
    if name == "blobs":  # three clusters around the origin, a third of a turn apart
        label = k % CLASSES
        t = 2.0 * math.pi * label / CLASSES + 0.5
        return 0.9 * math.cos(t) + rng.gauss(0.0, 0.25), 0.9 * math.sin(t) + rng.gauss(0.0, 0.25), label
    if name == "wave":  # a smooth surface over the plane
        x1, x2 = rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)
        return x1, x2, math.sin(2.0 * x1) * math.cos(1.5 * x2)
    label = -1 if k % 2 == 0 else 1
    if name == "moons":  # two interleaved half circles
        t = rng.uniform(0.0, math.pi)
        if label == -1:
            return math.cos(t), math.sin(t), label
        return 1.0 - math.cos(t), 0.5 - math.sin(t), label
    if name == "circles":  # an outer ring of radius 1 around an inner one of radius 0.5
        t = rng.uniform(0.0, 2.0 * math.pi)
        radius = 1.0 if label == -1 else 0.5
        return radius * math.cos(t), radius * math.sin(t), label
    if name == "xor":  # the sign of x1 * x2: two opposite quadrants against the other two
        x1, x2 = rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0)
        if rng.random() < 0.5:
            x1, x2 = -x1, -x2
        return (-x1 if label == -1 else x1), x2, label
    # spiral: two arms, half a turn apart, 1.75 turns each, out to a radius of 3 (where sin x1 and sin x2 help)
    share = rng.random()
    r = 3.0 * (0.05 + 0.95 * share)
    t = 1.75 * 2.0 * math.pi * share + (0.0 if label == -1 else math.pi)
    return r * math.sin(t), r * math.cos(t), label


def make_points(name: str, size: int, noise: float, seed: int) -> Points:
    """`size` points of the data set `name` with Gaussian `noise`, each drawn on its own from a generator seeded
    with `seed` (classes take turns, so any run of points is balanced)."""
    rng = random.Random(seed)
    points: list[tuple[float, float]] = []
    labels: list[Label] = []
    for k in range(size):
        x1, x2, label = _point(name, rng, k)
        points.append((x1 + rng.gauss(0.0, noise), x2 + rng.gauss(0.0, noise)))
        labels.append(label)
    return points, labels


def split(data: Points, ratio: float) -> tuple[Points, Points]:
    """The first `ratio` of the points for training, the rest for testing (at least one of each)."""
    points, labels = data
    cut = min(len(points) - 1, max(1, round(ratio * len(points))))
    return (points[:cut], labels[:cut]), (points[cut:], labels[cut:])

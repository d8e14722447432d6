"""The lab's data sets: points in the plane with their labels, each drawn from a private seeded generator."""

from __future__ import annotations

import math
import random

from glassgrad.data import make_moons

DATASETS = ("moons", "circles", "xor", "spiral")
VIEWS = {"moons": (-1.6, 2.6, -1.2, 1.7)}  # x from, x to, y from, y to: the plane the page draws
VIEW = (-1.6, 1.6, -1.6, 1.6)


def view_of(name: str) -> tuple[float, float, float, float]:
    """The part of the plane the page draws for the data set `name`."""
    return VIEWS.get(name, VIEW)


def make_points(name: str, size: int, noise: float, seed: int) -> tuple[list[tuple[float, float]], list[int]]:
    """`size` points of the data set `name` with Gaussian `noise`, from a private generator seeded with `seed`."""
    if name == "moons":
        return make_moons(size, noise=noise, seed=seed)
    rng = random.Random(seed)
    samples: list[tuple[float, float, int]] = []
    half = size // 2
    for i in range(size):
        label = -1 if i < half else 1
        j, count = (i, half) if label == -1 else (i - half, size - half)
        if name == "circles":  # an outer ring of radius 1 around an inner one of radius 0.5
            t = 2.0 * math.pi * j / count
            radius = 1.0 if label == -1 else 0.5
            x1, x2 = radius * math.cos(t), radius * math.sin(t)
        elif name == "xor":  # the sign of x1 * x2: two opposite quadrants against the other two
            x1, x2 = rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0)
            if rng.random() < 0.5:
                x1, x2 = -x1, -x2
            if label == -1:
                x1 = -x1
        else:  # spiral: two arms, half a turn apart
            r = 0.05 + 0.95 * j / count
            t = 1.75 * 2.0 * math.pi * j / count + (0.0 if label == -1 else math.pi)
            x1, x2 = r * math.sin(t), r * math.cos(t)
        samples.append((x1 + rng.gauss(0.0, noise), x2 + rng.gauss(0.0, noise), label))
    rng.shuffle(samples)
    return [(x1, x2) for x1, x2, _ in samples], [label for _, _, label in samples]

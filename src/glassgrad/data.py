"""Small seeded toy data sets for training demos: generated in pure Python, nothing downloaded.

Examples:
    >>> points, labels = make_moons(6, noise=0.0, seed=0)
    >>> len(points), sorted(set(labels))
    (6, [-1, 1])
"""

from __future__ import annotations

import math
import random


def make_moons(n: int = 100, noise: float = 0.1, seed: int = 0) -> tuple[list[tuple[float, float]], list[int]]:
    """Two interleaved half-moons in the plane, labelled -1 and +1 (ready for a hinge loss).

    The same shapes as scikit-learn's ``make_moons``: the upper moon is the half circle
    ``(cos t, sin t)`` for t in [0, π], labelled -1; the lower moon is ``(1 - cos t, 0.5 - sin t)``,
    labelled +1. Gaussian noise of standard deviation `noise` is added to both coordinates,
    and the points are shuffled. The same arguments always give the same list.

    Args:
        n: number of points; the upper moon gets ``n // 2``, the lower one the rest.
        noise: standard deviation of the noise added to each coordinate (0 for exact curves).
        seed: seed of the private `random.Random` (the global generator is not touched).

    Returns:
        ``(points, labels)``: `n` pairs ``(x1, x2)`` and `n` labels in {-1, +1}, in the same order.

    Raises:
        ValueError: if `n` is smaller than 2 or `noise` is negative.

    Examples:
        >>> points, labels = make_moons(4, noise=0.0, seed=0)
        >>> sorted(zip(labels, ((round(a, 3), round(b, 3)) for a, b in points)))
        [(-1, (-1.0, 0.0)), (-1, (1.0, 0.0)), (1, (0.0, 0.5)), (1, (2.0, 0.5))]
    """
    if n < 2:
        raise ValueError(f"make_moons needs at least 2 points, got n={n}")
    if noise < 0:
        raise ValueError(f"make_moons: noise is a standard deviation and cannot be negative, got {noise}")
    rng = random.Random(seed)
    n_upper = n // 2
    n_lower = n - n_upper
    samples: list[tuple[float, float, int]] = []
    for count, label in ((n_upper, -1), (n_lower, 1)):
        for i in range(count):
            # Evenly spaced angles including both ends, as numpy.linspace(0, pi, count).
            t = math.pi * i / (count - 1) if count > 1 else 0.0
            if label == -1:
                x1, x2 = math.cos(t), math.sin(t)
            else:
                x1, x2 = 1.0 - math.cos(t), 0.5 - math.sin(t)
            samples.append((x1 + rng.gauss(0.0, noise), x2 + rng.gauss(0.0, noise), label))
    rng.shuffle(samples)
    return [(x1, x2) for x1, x2, _ in samples], [label for _, _, label in samples]

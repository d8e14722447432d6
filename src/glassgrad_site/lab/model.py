"""The recipe of a training step (the exported script repeats these functions from their source) and `Lab`, one run."""

from __future__ import annotations

import math
from typing import Any

from glassgrad import Value, backward
from glassgrad.nn import MLP
from glassgrad_site.lab.data import make_points
from glassgrad_site.lab.graph import name_loss_nodes
from glassgrad_site.lab.settings import clean_settings


def example_loss(loss: str, score: Value, label: int) -> Value:
    """One example's loss: hinge, cross-entropy (the logistic loss) or squared error, for a label of -1 or +1."""
    if loss == "hinge":
        return (1 - label * score).relu()
    if loss == "cross-entropy":
        return -(label * score).sigmoid().log()
    error = score - label
    return error * error


def float_loss(loss: str, score: float, label: int) -> float:
    """`example_loss` on plain numbers, for the curves (no graph); the same formulas."""
    if loss == "hinge":
        return max(0.0, 1.0 - label * score)
    if loss == "cross-entropy":
        margin = label * score  # log(1 + exp(-margin)) without overflow
        return math.log1p(math.exp(-margin)) if margin > 0 else -margin + math.log1p(math.exp(margin))
    return (score - label) ** 2


def batch_of(step: int, batch: int, count: int) -> list[int]:
    """The examples of step `step` (from 0): the whole set, or `batch` of them in turn, wrapping around."""
    if batch >= count:
        return list(range(count))
    return [(step * batch + i) % count for i in range(batch)]


def learning_rate(step: int, rate: float, decay: float) -> float:
    """The step size of step `step` (from 0): `rate`, divided by ``1 + decay·step``."""
    return rate / (1.0 + decay * step)


class Lab:
    """One training run: the data, the model, the step count and every loss so far."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        self.settings = clean_settings(settings)
        s = self.settings
        points, labels = make_points(s["data"], s["size"], s["noise"], s["seed"])
        removed = set(s["removed"])
        kept = [i for i in range(len(points)) if i not in removed]
        self.points = [points[i] for i in kept] + [(x1, x2) for x1, x2, _ in s["added"]]
        # Where each point came from: its index among the generated points, or -1-k for the k-th added one.
        self.origins = kept + [-1 - k for k in range(len(s["added"]))]
        self.labels = [labels[i] for i in kept] + [label for _, _, label in s["added"]]
        self.test_points, self.test_labels = make_points(s["data"], s["size"], s["noise"], s["seed"] + 1)
        self.model = MLP(2, [*s["layers"], 1], rng=s["seed"])
        self.parameters = self.model.parameters()
        self.steps = 0
        self.losses: list[float] = []
        self.updates = [0.0] * len(self.parameters)

    # The step: build the batch's loss, backward, update (what the script repeats).
    def loss(self, step: int) -> Value:
        s = self.settings
        batch = batch_of(step, s["batch"], len(self.points))
        terms = [example_loss(s["loss"], self.model(self.points[i]), self.labels[i]) for i in batch]  # type: ignore[arg-type]
        total = sum(terms) / len(terms)
        if s["l2"]:
            total = total + s["l2"] * sum(p * p for p in self.parameters)
        return total  # type: ignore[return-value]

    def step(self) -> float:
        loss = self.loss(self.steps)
        backward(loss, record=False)
        rate = learning_rate(self.steps, self.settings["rate"], self.settings["decay"])
        for i, p in enumerate(self.parameters):
            update = -(rate * p.grad)
            p.data -= rate * p.grad
            self.updates[i] = update
        self.steps += 1
        self.losses.append(loss.data)
        return float(loss.data)

    def metrics(self) -> dict[str, float]:
        """Data loss (no L2) and accuracy on the training and the test points, at the current weights."""
        out = {}
        for name, points, labels in (("train", self.points, self.labels), ("test", self.test_points, self.test_labels)):
            scores = [self.model.evaluate(point) for point in points]
            losses = [float_loss(self.settings["loss"], s, y) for s, y in zip(scores, labels)]  # type: ignore[arg-type]
            out[f"{name}_loss"] = sum(losses) / len(losses) if losses else 0.0
            out[f"{name}_accuracy"] = (
                sum((s > 0) == (y > 0) for s, y in zip(scores, labels)) / len(labels) if labels else 0.0  # type: ignore[operator]
            )
        return out

    def weights(self) -> list[float]:
        """Every parameter's number, layer by layer, neuron by neuron: its weights, then its bias."""
        return [p.data for p in self.parameters]

    def state(self) -> dict[str, Any]:
        return {
            "step": self.steps,
            "loss": self.losses[-1] if self.losses else None,
            "weights": self.weights(),
            "grads": [p.grad for p in self.parameters],
            "updates": list(self.updates),
            **self.metrics(),
        }

    # One example's graph, for Inspect.
    def example(self, index: int) -> Value:
        """The loss of training example `index` alone, its inputs as leaves x1 and x2 (no L2, no averaging)."""
        (a, b), label = self.points[index], self.labels[index]
        score = self.model([Value(a, "x1"), Value(b, "x2")])
        loss = example_loss(self.settings["loss"], score, label)  # type: ignore[arg-type]
        name_loss_nodes(loss, score)  # type: ignore[arg-type]
        loss.label = "loss"
        return loss

"""The recipe of a training step (the exported script repeats these functions from their source) and `Lab`, one run."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from glassgrad import Value, backward
from glassgrad.nn import MLP, softmax_cross_entropy, weighted_sum
from glassgrad_site.lab.data import CLASSES, TASKS, Label, make_points, split
from glassgrad_site.lab.graph import name_loss_nodes
from glassgrad_site.lab.settings import clean_settings

# --- the recipe: the script repeats these lines exactly ---------------------------------------------


def features_of(names: Sequence[str], x1: float, x2: float) -> list[float]:
    """The network's inputs for the point (x1, x2): the chosen features, in the order of `names`."""
    table = {
        "x1": x1,
        "x2": x2,
        "x1^2": x1 * x1,
        "x2^2": x2 * x2,
        "x1x2": x1 * x2,
        "sin x1": math.sin(x1),
        "sin x2": math.sin(x2),
    }
    return [table[name] for name in names]


def example_loss(loss: str, score: Any, label: Any) -> Value:
    """One example's loss: hinge or cross-entropy (the logistic loss) for a label of -1 or +1, squared error for a
    number, softmax cross-entropy for a class (the scores are a list then)."""
    if loss == "softmax":
        return softmax_cross_entropy(score, label)
    if loss == "hinge":
        return (1 - label * score).relu()
    if loss == "cross-entropy":
        return -(label * score).sigmoid().log()
    error = score - label
    return error * error


def mean(terms: list[Value]) -> Value:
    """The average of `terms`, as one flat node: no chain of additions that a bigger batch would make deeper."""
    return weighted_sum(terms, [1.0 / len(terms)] * len(terms), Value(0.0))


def penalty(reg: str, parameters: list[Value]) -> Value:
    """The regularisation term, one flat node: L2 is the sum of every parameter squared, L1 of their sizes."""
    if reg == "l2":
        return weighted_sum(parameters, parameters, Value(0.0))
    signs = [float((p.data > 0) - (p.data < 0)) for p in parameters]  # |p| = sign(p)·p
    return weighted_sum(parameters, signs, Value(0.0))


def batch_of(step: int, batch: int, count: int) -> list[int]:
    """The examples of step `step` (from 0): the whole set, or `batch` of them in turn, wrapping around."""
    if batch >= count:
        return list(range(count))
    return [(step * batch + i) % count for i in range(batch)]


def learning_rate(step: int, rate: float, decay: float) -> float:
    """The step size of step `step` (from 0): `rate`, divided by ``1 + decay·step``."""
    return rate / (1.0 + decay * step)


# --- on plain numbers, for the curves -----------------------------------------------------------------


def float_loss(loss: str, score: Any, label: Any) -> float:
    """`example_loss` on plain numbers (no graph): the same formulas."""
    if loss == "softmax":
        top = max(score)
        return math.log(sum(math.exp(s - top) for s in score)) + top - score[label]
    if loss == "hinge":
        return max(0.0, 1.0 - label * score)
    if loss == "cross-entropy":
        margin = label * score  # log(1 + exp(-margin)) without overflow
        return math.log1p(math.exp(-margin)) if margin > 0 else -margin + math.log1p(math.exp(margin))
    return float((score - label) ** 2)


def right(task: str, score: Any, label: Label) -> bool:
    """Whether the model's output puts the point in its class (the sign of a score, the highest of three)."""
    if task == "classes":
        return max(range(len(score)), key=score.__getitem__) == label
    return (score > 0) == (label > 0)


class Lab:
    """One training run: the data, the model, the step count and every loss so far."""

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        self.settings, self.notes = clean_settings(settings)
        s = self.settings
        self.task = TASKS[s["data"]]
        (points, labels), (self.test_points, self.test_labels) = split(
            make_points(s["data"], s["size"], s["noise"], s["seed"]), s["ratio"]
        )
        removed = set(s["removed"])
        kept = [i for i in range(len(points)) if i not in removed] or [0]
        self.points = [points[i] for i in kept] + [(x1, x2) for x1, x2, _ in s["added"]]
        # Where each point came from: its index among the generated points, or -1-k for the k-th added one.
        self.origins = kept + [-1 - k for k in range(len(s["added"]))]
        self.labels: list[Label] = [labels[i] for i in kept] + [label for _, _, label in s["added"]]
        self.inputs = [features_of(s["features"], x1, x2) for x1, x2 in self.points]
        self.test_inputs = [features_of(s["features"], x1, x2) for x1, x2 in self.test_points]
        self.outputs = CLASSES if self.task == "classes" else 1
        self.model = MLP(len(s["features"]), [*s["layers"], self.outputs], rng=s["seed"], activation=s["activation"])
        self.parameters = self.model.parameters()
        self.steps = 0
        self.losses: list[float] = []
        self.parts = (0.0, 0.0)  # the last step's data loss and regularisation term
        self.updates = [0.0] * len(self.parameters)

    # The step: build the batch's loss, backward, update (what the script repeats).
    def loss(self, step: int) -> tuple[Value, Value, Value | None]:
        """Step `step`'s loss, its data loss (the batch's mean) and its regularisation term (None without one)."""
        s = self.settings
        batch = batch_of(step, s["batch"], len(self.points))
        data = mean([example_loss(s["loss"], self.model(self.inputs[i]), self.labels[i]) for i in batch])
        if s["reg"] == "none" or not s["reg_rate"]:
            return data, data, None
        reg = penalty(s["reg"], self.parameters)
        return data + s["reg_rate"] * reg, data, reg

    def step(self) -> float:
        loss, data, reg = self.loss(self.steps)
        backward(loss, record=False)
        rate = learning_rate(self.steps, self.settings["rate"], self.settings["decay"])
        for i, p in enumerate(self.parameters):
            update = -(rate * p.grad)
            p.data -= rate * p.grad
            self.updates[i] = update
        self.steps += 1
        self.losses.append(loss.data)
        self.parts = (data.data, 0.0 if reg is None else self.settings["reg_rate"] * reg.data)
        return float(loss.data)

    def metrics(self) -> dict[str, float | None]:
        """Data loss (no regularisation) and accuracy (classification) on the training and the test points."""
        out: dict[str, float | None] = {}
        loss = self.settings["loss"]
        for name, inputs, labels in (("train", self.inputs, self.labels), ("test", self.test_inputs, self.test_labels)):
            scores = [self.model.evaluate(x) for x in inputs]
            out[f"{name}_loss"] = sum(float_loss(loss, s, y) for s, y in zip(scores, labels)) / len(labels)
            hits = sum(right(self.task, s, y) for s, y in zip(scores, labels))
            out[f"{name}_accuracy"] = None if self.task == "regression" else hits / len(labels)
        return out

    def weights(self) -> list[float]:
        """Every parameter's number, layer by layer, neuron by neuron: its weights, then its bias."""
        return [p.data for p in self.parameters]

    def state(self) -> dict[str, Any]:
        return {
            "step": self.steps,
            "loss": self.losses[-1] if self.losses else None,
            "data_loss": self.parts[0] if self.losses else None,
            "reg_loss": self.parts[1] if self.losses else None,
            "weights": self.weights(),
            "grads": [p.grad for p in self.parameters],
            "updates": list(self.updates),
            **self.metrics(),
        }

    # One example's graph, for Inspect.
    def example(self, index: int) -> Value:
        """The loss of training example `index` alone, its inputs as leaves named by feature (no regularisation)."""
        names = [name.replace("^2", "²") for name in self.settings["features"]]
        leaves = [Value(x, name) for x, name in zip(self.inputs[index], names)]
        score = self.model(leaves)
        loss = example_loss(self.settings["loss"], score, self.labels[index])
        name_loss_nodes(loss, score)
        loss.label = "loss"
        return loss

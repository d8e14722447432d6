"""Training with glassgrad agrees with PyTorch step by step; the decision-boundary figure; the training page.

PyTorch (float64) is the oracle: each test runs its own PyTorch mirror of the training loop from the
same initial numbers (independently of the page's code) and compares every loss.
"""

from __future__ import annotations

import math
import re

import pytest

from glassgrad import Value
from glassgrad.data import make_moons
from glassgrad.examples import SIGMOID_INPUTS
from glassgrad.nn import MLP, train

torch = pytest.importorskip("torch")


def relative_gap(ours: list[float], theirs: list[float]) -> float:
    """Largest |a - b| / max(|a|, |b|, tiny) over two lists of the same length."""
    assert len(ours) == len(theirs)
    return max(abs(a - b) / max(abs(a), abs(b), 1e-300) for a, b in zip(ours, theirs))


def test_sigmoid_neuron_descent_matches_pytorch() -> None:
    """Chapter 3's neuron trained for 25 steps: every loss and the final w, b agree with PyTorch."""
    w, b = Value(SIGMOID_INPUTS["w"], "w"), Value(SIGMOID_INPUTS["b"], "b")
    x, y = SIGMOID_INPUTS["x"], SIGMOID_INPUTS["y"]
    losses = train([w, b], lambda: ((w * x + b).sigmoid() - y) ** 2, steps=25, learning_rate=0.8, progress=False)

    tw = torch.tensor(SIGMOID_INPUTS["w"], dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(SIGMOID_INPUTS["b"], dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.SGD([tw, tb], lr=0.8)
    torch_losses = []
    for _ in range(25):
        optimizer.zero_grad()
        loss = (torch.sigmoid(tw * x + tb) - y) ** 2
        loss.backward()
        optimizer.step()
        torch_losses.append(loss.item())

    assert losses[0] == 0.25  # chapter 3's loss at the start
    assert relative_gap(losses, torch_losses) < 1e-9
    assert relative_gap([w.data, b.data], [tw.item(), tb.item()]) < 1e-9
    assert losses[-1] < losses[0] / 10


def torch_layers(model: MLP) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """Each layer's weights and biases as a (nout, nin) matrix and a vector, copied from the model."""
    layers = []
    for layer in model.layers:
        W = torch.tensor([[w.data for w in neuron.w] for neuron in layer.neurons], dtype=torch.float64)
        bias = torch.tensor([neuron.b.data for neuron in layer.neurons], dtype=torch.float64)
        layers.append((W.requires_grad_(), bias.requires_grad_()))
    return layers


def torch_scores(layers: list[tuple[torch.Tensor, torch.Tensor]], X: torch.Tensor) -> torch.Tensor:
    """ReLU on every layer but the last, as `MLP` does; one score per row of X."""
    h = X
    for i, (W, bias) in enumerate(layers):
        h = h @ W.T + bias
        if i < len(layers) - 1:
            h = torch.relu(h)
    return h[:, 0]


@pytest.mark.parametrize("seed", [0, 5])
def test_mlp_on_moons_matches_pytorch_step_by_step(seed: int) -> None:
    """Hinge loss + L2, decaying rate: the losses and the trained parameters agree with PyTorch."""
    points, labels = make_moons(40, noise=0.1, seed=seed)
    model = MLP(2, [8, 8, 1], rng=seed)
    layers = torch_layers(model)
    steps, alpha = 12, 1e-4

    def loss_fn() -> Value:
        hinge = [(1 - label * model(point)).relu() for point, label in zip(points, labels)]
        return sum(hinge) / len(hinge) + alpha * sum(p * p for p in model.parameters())

    def rate(step: int) -> float:
        return 1.0 - 0.9 * step / steps

    losses = train(model.parameters(), loss_fn, steps=steps, learning_rate=rate, progress=False)

    X = torch.tensor(points, dtype=torch.float64)
    Y = torch.tensor(labels, dtype=torch.float64)
    tensors = [t for pair in layers for t in pair]
    optimizer = torch.optim.SGD(tensors, lr=1.0)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, rate)  # lr = 1.0 × rate(step)
    torch_losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = torch.relu(1 - Y * torch_scores(layers, X)).mean() + alpha * sum((t * t).sum() for t in tensors)
        loss.backward()
        optimizer.step()
        schedule.step()
        torch_losses.append(loss.item())

    assert relative_gap(losses, torch_losses) < 1e-9
    trained = [p.data for p in model.parameters()]
    torch_trained = torch.cat([torch.cat([W, bias[:, None]], dim=1).flatten() for W, bias in layers]).tolist()
    assert relative_gap(trained, torch_trained) < 1e-9
    assert losses[-1] < losses[0]


def test_training_is_reproducible_bit_for_bit() -> None:
    """Same seed, same data, same steps: the same losses, to the last bit."""

    def run() -> list[float]:
        points, labels = make_moons(20, noise=0.2, seed=3)
        model = MLP(2, [4, 1], rng=3)
        return train(
            model.parameters(),
            lambda: sum((1 - label * model(point)).relu() for point, label in zip(points, labels)) / len(points),
            steps=5,
            learning_rate=0.5,
            progress=False,
        )

    assert run() == run()


# --- decision_boundary -----------------------------------------------------------------------------

plot = pytest.importorskip("glassgrad.viz.plot")
pytest.importorskip("matplotlib")


def test_boundary_rings_exactly_the_misclassified_points() -> None:
    points = [(-1.0, 0.0), (1.0, 0.0), (0.5, 0.0), (-0.5, 0.0)]
    labels = [-1, 1, -1, 1]  # the last two are on the wrong side of score = x1
    figure = plot.boundary_figure(lambda a, b: a, points, labels, resolution=10)
    assert figure.glassgrad_misclassified == [(0.5, 0.0), (-0.5, 0.0)]
    assert "2 of 4 points misclassified (ringed)." in str(plot.to_html(figure))
    plotted = {line.get_label(): line.get_xydata().tolist() for line in figure.axes[0].lines}
    assert plotted["label −1"] == [[-1.0, 0.0], [0.5, 0.0]] and plotted["label +1"] == [[1.0, 0.0], [-0.5, 0.0]]


def test_boundary_zero_line_follows_the_score() -> None:
    """For score = x1 - 0.3 the zero contour is the vertical line x1 = 0.3."""
    figure = plot.boundary_figure(lambda a, b: a - 0.3, [(-1.0, -1.0), (1.0, 1.0)], [-1, 1], resolution=21)
    (contour,) = [
        c for c in figure.axes[0].collections if getattr(c, "levels", None) is not None and list(c.levels) == [0]
    ]
    xs = [x for path in contour.get_paths() for x, _ in path.vertices]
    assert xs and all(abs(x - 0.3) < 1e-9 for x in xs)


def test_boundary_without_a_sign_change_has_no_line() -> None:
    figure = plot.boundary_figure(lambda a, b: 1.0 + a * a, [(0.0, 0.0), (1.0, 1.0)], [1, 1], resolution=6)
    assert not figure.axes[0].collections  # no regions, no zero line
    assert figure.glassgrad_misclassified == []


def test_boundary_is_deterministic_and_escaped() -> None:
    points, labels = make_moons(30, noise=0.1, seed=2)
    model = MLP(2, [4, 1], rng=2)

    def draw() -> str:
        return str(
            plot.decision_boundary(
                lambda a, b: model([a, b]).data,
                points,
                labels,
                resolution=12,
                class_names=("<script>alert(1)</script>", "b&c"),
                title='"quoted"',
            )
        )

    first = draw()
    assert first == draw()
    assert "<script>" not in first and "&lt;script&gt;alert(1)&lt;/script&gt;" in first and "b&amp;c" in first
    assert set(re.findall(r"https?://[^\"' )]+", first)) <= {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
    }


def test_boundary_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="2 points but 1 labels"):
        plot.decision_boundary(lambda a, b: a, [(0, 0), (1, 1)], [1])
    with pytest.raises(ValueError, match="-1 or \\+1"):
        plot.decision_boundary(lambda a, b: a, [(0, 0)], [0])
    with pytest.raises(ValueError, match="at least 2"):
        plot.decision_boundary(lambda a, b: a, [(0, 0)], [1], resolution=1)


def test_boundary_survives_nan_scores() -> None:
    figure = plot.boundary_figure(
        lambda a, b: math.nan if a > 0 else a + 2, [(0.0, 0.0), (1.0, 1.0)], [1, 1], resolution=8
    )
    assert figure.glassgrad_misclassified == [(1.0, 1.0)]  # a nan score is on no side


# --- the built pages -------------------------------------------------------------------------------


@pytest.mark.site
def test_reference_page_has_an_entry_for_every_public_name(built_site) -> None:
    """Each public module of the API reference, and each public name in it, has its anchor (links can point at it)."""
    import importlib

    from helpers import page_html, parse, public_names

    html = page_html(built_site, "reference/")
    anchors = parse(html).anchors
    # glassgrad re-exports value, ops, autograd and checks: their names are documented under glassgrad.
    modules = [
        "glassgrad",
        "glassgrad.examples",
        "glassgrad.nn",
        "glassgrad.data",
        "glassgrad.torch_reference",
        "glassgrad.viz",
        "glassgrad.scratch",
        "glassgrad.exercises",
    ]
    missing = [
        f"{name}.{public}"
        for name in modules
        for public in public_names(importlib.import_module(name))
        if f"{name}.{public}" not in anchors
    ] + [name for name in modules if name not in anchors]
    assert missing == []
    assert "&gt;&gt;&gt;" in html  # doctest examples shown as code, not as block quotes
    assert "<blockquote>" not in html

"""The explorers' numbers (glassgrad_site.explore): every precomputed frame against PyTorch (float64), the
settings the build does not precompute, and the errors a reader's setting can meet."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from glassgrad.viz.graph import walk  # noqa: E402
from glassgrad_site.explore import EXAMPLES, GRID_POINTS, compute, frames, grid, run  # noqa: E402

Tensors = dict[str, Any]


def linear(t: Tensors) -> Tensors:
    t["m"] = t["w"] * t["x"]
    t["a"] = t["m"] + t["b"]
    t["e"] = t["a"] - t["y"]
    t["L"] = t["e"] ** 2
    return t


def neuron(t: Tensors) -> Tensors:
    t["m"] = t["w"] * t["x"]
    t["z"] = t["m"] + t["b"]
    t["s"] = torch.sigmoid(t["z"])
    t["e"] = t["s"] - t["y"]
    t["L"] = t["e"] ** 2
    return t


TWINS: dict[str, Callable[[Tensors], Tensors]] = {"linear": linear, "neuron": neuron, "forward": linear}


def pytorch_numbers(name: str, leaves: Mapping[str, float]) -> list[float]:
    """Every number explorer `name` shows, in its order, from PyTorch: data, grads (forward mode: tangents, from
    `torch.func.jvp` with the moving leaf at speed 1), locals and the steps' five."""
    root, steps = run(name, leaves)  # only for the order and the step log's (output, parent) pairs
    order, moving = walk(root), EXAMPLES[name].moving
    values = {**EXAMPLES[name].defaults, **leaves}
    t = TWINS[name](
        {leaf: torch.tensor(value, dtype=torch.float64, requires_grad=True) for leaf, value in values.items()}
    )
    local = {
        (node.label, k): torch.autograd.grad(t[node.label], t[link.value.label], retain_graph=True)[0].item()
        for node in order
        for k, link in enumerate(node.parents)
    }
    if moving is None:  # each value's ∂L/∂value
        for tensor in t.values():
            if not tensor.is_leaf:
                tensor.retain_grad()
        t["L"].backward()
        slope = {node.label: t[node.label].grad.item() for node in order}
    else:  # each value's ∂value/∂moving

        def every_value(*leaf_tensors: Any) -> tuple[Any, ...]:
            twin = TWINS[name](dict(zip(values, leaf_tensors, strict=True)))
            return tuple(twin[node.label] for node in order)

        primals = tuple(torch.tensor(value, dtype=torch.float64) for value in values.values())
        speeds = tuple(torch.tensor(float(leaf == moving), dtype=torch.float64) for leaf in values)
        tangents = torch.func.jvp(every_value, primals, speeds)[1]
        slope = {node.label: tangent.item() for node, tangent in zip(order, tangents, strict=True)}
    numbers = [t[node.label].item() for node in order] + [slope[node.label] for node in order]
    numbers += [local[node.label, k] for node in order for k in range(len(node.parents))]
    links_done: dict[str, int] = {}
    accumulated: dict[str, float] = {}
    for step in steps:
        out, parent = step.output.label, step.parent.label
        k = links_done.get(out, 0)
        links_done[out] = k + 1
        # Backward carries out's grad into parent; forward mode carries parent's tangent into out.
        carried, into = (slope[out], parent) if moving is None else (slope[parent], out)
        before = accumulated.get(into, 0.0)
        accumulated[into] = after = before + carried * local[out, k]
        numbers += [carried, local[out, k], carried * local[out, k], before, after]
    return numbers


def agrees(shown: str, oracle: float) -> bool:
    """A number as the page prints it (6 significant digits) equals PyTorch's."""
    return math.isclose(float(shown), oracle, rel_tol=1e-5, abs_tol=1e-12)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_precomputed_frame_equals_pytorch(name: str) -> None:
    precomputed = frames(name)
    assert set(precomputed) == set(EXAMPLES[name].defaults)
    for leaf, default in EXAMPLES[name].defaults.items():
        positions = grid(default)
        assert len(precomputed[leaf]) == len(positions) == GRID_POINTS and default in positions
        for position, frame in zip(positions, precomputed[leaf], strict=True):
            expected_numbers = pytorch_numbers(name, {leaf: position})
            assert len(frame) == len(expected_numbers)
            wrong = [
                (q, shown, expected)
                for q, (shown, expected) in enumerate(zip(frame, expected_numbers))
                if not agrees(shown, expected)
            ]
            assert not wrong, f"{name}, {leaf} = {position}: (slot, shown, PyTorch) {wrong[:3]}"


def test_chapter_two_numbers_the_issue_names() -> None:
    root, steps = run("linear", {})
    order = [node.label for node in walk(root)]
    loss, w_grad = order.index("L"), len(order) + order.index("w")
    for leaves, expected in (({"w": 2.5}, ("2.25", "-9")), ({"w": 2.5, "b": 0}, ("6.25", "-15"))):
        numbers = compute("linear", leaves)["numbers"]
        assert (numbers[loss], numbers[w_grad]) == expected
        assert all(agrees(shown, oracle) for shown, oracle in zip(numbers, pytorch_numbers("linear", leaves)))


@pytest.mark.parametrize("name", ["neuron", "forward"])
def test_two_leaves_off_the_grid_equal_pytorch(name: str) -> None:
    leaves = {"w": -1.234, "x": 0.77, "b": 12.0, "y": -3.5}
    numbers = compute(name, leaves)["numbers"]
    assert all(agrees(shown, expected) for shown, expected in zip(numbers, pytorch_numbers(name, leaves), strict=True))


def test_forward_mode_shows_each_values_tangent_and_the_same_slope() -> None:
    root, _ = run("forward", {})
    order = [node.label for node in walk(root)]
    numbers = compute("forward", {"x": 4.0})["numbers"]
    tangents = dict(zip(order, numbers[len(order) : 2 * len(order)], strict=True))
    assert tangents == {"w": "1", "x": "0", "m": "4", "b": "0", "a": "4", "y": "0", "e": "4", "L": "-8"}
    w_grad = compute("linear", {"x": 4.0})["numbers"][len(order) + order.index("w")]
    assert tangents["L"] == w_grad  # forward mode's tangent of L is backward's ∂L/∂w


@pytest.mark.parametrize(
    ("name", "leaves", "message"),
    [
        ("linear", {"w": 1e200}, "too large: L overflows (inf)"),
        ("linear", {"x": math.inf}, "x must be a finite number"),
        ("linear", {"y": math.nan}, "y must be a finite number"),
        ("neuron", {"w": 1e308, "x": 10.0}, "too large: m overflows (inf)"),
    ],
)
def test_a_setting_the_engine_cannot_compute_is_named(name: str, leaves: dict[str, float], message: str) -> None:
    assert compute(name, leaves) == {"error": message}


def test_an_unknown_leaf_is_named() -> None:
    with pytest.raises(ValueError, match="linear has no leaf 'q'; its leaves are w, x, b, y"):
        compute("linear", {"q": 1.0})

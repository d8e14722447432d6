"""The "Going further" pages: their numerical claims hold for the engine, and the built pages show them."""

from __future__ import annotations

import inspect
import math
import sys

import pytest
import torch
from helpers import flat_text, page_html, run_glassgrad, run_torch

from glassgrad import backward, examples, gradcheck, ops, torch_reference

mpmath = pytest.importorskip("mpmath")

EXP_OVERFLOW = -math.log(sys.float_info.max)
"""Below this z, exp(-z) is inf in float64."""


def atomic(z: float) -> tuple[float, float]:
    """(σ(z), dσ/dz) through the four atomic nodes."""
    value, (grad,) = run_glassgrad(lambda u: ops.reciprocal(ops.plus_one(ops.exponential(ops.negate(u)))), (z,))
    return value, grad


def fused(z: float) -> tuple[float, float]:
    """(σ(z), dσ/dz) through glassgrad's fused sigmoid node."""
    value, (grad,) = run_glassgrad(ops.sigmoid, (z,))
    return value, grad


def torch_atomic(z: float) -> tuple[float, float]:
    """(σ(z), dσ/dz) through PyTorch's atomic ops in float64."""
    value, (grad,) = run_torch(lambda t: torch.reciprocal(1 + torch.exp(-t)), (z,))
    return value, grad


def exact_slope(z: float):
    """σ'(z) to 50 digits."""
    with mpmath.workdps(50):
        s = 1 / (1 + mpmath.exp(-mpmath.mpf(z)))
        return s * (1 - s)


def page_text(site, page: str) -> str:
    """The page's visible text, whitespace collapsed."""
    return flat_text(page_html(site, page))


# --- stability: the engine facts the page is built on --------------------------------------


@pytest.mark.parametrize("z", [EXP_OVERFLOW - 0.01, -745.0, -800.0])
def test_atomic_gradient_is_nan_once_exp_overflows_and_pytorch_agrees(z):
    value, grad = atomic(z)
    torch_value, torch_grad = torch_atomic(z)
    assert value == 0.0 == torch_value
    assert math.isnan(grad) and math.isnan(torch_grad)


def test_atomic_gradient_is_finite_just_inside_the_overflow_threshold():
    _, grad = atomic(EXP_OVERFLOW + 0.01)
    assert grad == 0.0  # s² has already underflowed here: wrong (the slope is about 1e-308), but not nan


def test_atomic_gradient_underflows_to_zero_where_the_true_slope_is_representable():
    _, grad = atomic(-500.0)
    assert grad == 0.0  # the true slope, about 7e-218, is a normal float64
    assert torch_atomic(-500.0)[1] == 0.0


def test_fused_sigmoid_never_gives_nan_and_its_value_is_within_two_ulps():
    for z in [float(z) for z in range(-800, 801)] + [EXP_OVERFLOW, -745.5, 36.7]:
        value, grad = fused(z)
        assert math.isfinite(value) and math.isfinite(grad), z
        with mpmath.workdps(50):
            exact = 1 / (1 + mpmath.exp(-mpmath.mpf(z)))
            assert abs(mpmath.mpf(value) - exact) <= 2 * math.ulp(float(exact)), z


def test_fused_local_derivative_cancels_for_large_positive_z():
    assert fused(36.0)[1] > 0.0 and fused(37.0)[1] == 0.0  # 1 - s rounds to 0 once exp(-z) < 2**-53 (z > 36.7)
    # The atomic form keeps the slope there: q/d² with d = 1 is just q = exp(-z).
    assert math.isclose(atomic(37.0)[1], float(exact_slope(37.0)), rel_tol=1e-15)


def test_neuron_far_left_matches_pytorch_node_by_node_including_nan():
    far = {"b": -801.0}
    atomic_nodes = examples.sigmoid_neuron(False, **far)
    backward(atomic_nodes["L"])
    torch_reference.compare(atomic_nodes, torch_reference.sigmoid_neuron(False, **far))
    assert math.isnan(atomic_nodes["w"].grad)
    fused_nodes = examples.sigmoid_neuron(True, **far)
    backward(fused_nodes["L"])
    torch_reference.compare(fused_nodes, torch_reference.sigmoid_neuron(True, **far))
    assert fused_nodes["w"].grad == 0.0


# --- gradient checking (each op against central differences: tests/engine/test_ops.py) ----------------


def test_relu_corner_fails_the_check_with_half_a_slope():
    assert gradcheck(ops.relu, [0.0]) == 0.5
    assert gradcheck(ops.relu, [1e-3]) < 1e-9


def test_central_difference_error_is_smallest_between_1e_6_and_1e_5():
    steps = [10 ** (-k / 4) for k in range(4, 53)]
    errors = [gradcheck(lambda v: v.exp(), [1.0], eps=eps) for eps in steps]
    best = steps[min(range(len(steps)), key=errors.__getitem__)]
    assert 1e-6 <= best <= 1e-5
    # Both ends are far worse: truncation on the right, rounding on the left.
    assert errors[0] > 1e6 * min(errors) and errors[-1] > 1e3 * min(errors)


# --- the built pages ---------------------------------------------------------------------------


@pytest.mark.site
def test_stability_page_shows_its_plots_and_computed_counts(built_site):
    page = page_html(built_site, "beyond/stability/")
    assert page.count('class="gg gg-plot"') == 2
    text = page_text(built_site, "beyond/stability/")
    grid = [float(z) for z in range(-800, 801)]
    nan_count = sum(math.isnan(atomic(z)[1]) for z in grid)
    assert nan_count == sum(z < EXP_OVERFLOW for z in grid)
    assert f"Both give nan at the same {nan_count} points" in text
    assert f"{EXP_OVERFLOW:.2f}".replace("-", "") in text
    assert "compare passed for both graphs" in text
    assert "Traceback" not in text


@pytest.mark.site
def test_gradcheck_page_shows_every_op_and_the_step_size_plot(built_site):
    page = page_html(built_site, "beyond/gradcheck/")
    assert page.count('class="gg gg-plot"') == 1
    text = page_text(built_site, "beyond/gradcheck/")
    public = [
        name
        for name, obj in vars(ops).items()
        if inspect.isfunction(obj) and obj.__module__ == ops.__name__ and not name.startswith("_")
    ]
    for name in public:
        assert name in text
    assert f"{gradcheck(lambda u: ops.power(u, 2.5), [1.7]):.1e}" in text
    assert f"All {len(public)} operations pass" in text
    assert "Difference-quotient error against step size" in text

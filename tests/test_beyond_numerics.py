"""The "Going further" pages: their numerical claims hold for the engine, and the built pages show them."""

from __future__ import annotations

import html
import inspect
import math
import re
import sys

import pytest
import torch

from glassgrad import ParentLink, Value, backward, examples, gradcheck, ops, torch_reference
from conftest import page_html

mpmath = pytest.importorskip("mpmath")

EXP_OVERFLOW = -math.log(sys.float_info.max)
"""Below this z, exp(-z) is inf in float64."""


def atomic(z: float) -> tuple[float, float]:
    """(σ(z), dσ/dz) through the four atomic nodes."""
    leaf = Value(z)
    s = ops.reciprocal(ops.plus_one(ops.exponential(ops.negate(leaf))))
    backward(s, record=False)
    return s.data, leaf.grad


def fused(z: float) -> tuple[float, float]:
    """(σ(z), dσ/dz) through glassgrad's fused sigmoid node."""
    leaf = Value(z)
    s = ops.sigmoid(leaf)
    backward(s, record=False)
    return s.data, leaf.grad


def torch_atomic(z: float) -> tuple[float, float]:
    """(σ(z), dσ/dz) through PyTorch's atomic ops in float64."""
    leaf = torch.tensor(z, dtype=torch.float64, requires_grad=True)
    s = torch.reciprocal(1 + torch.exp(-leaf))
    s.backward()
    return s.item(), leaf.grad.item()


def exact_slope(z: float):
    """σ'(z) to 50 digits."""
    with mpmath.workdps(50):
        s = 1 / (1 + mpmath.exp(-mpmath.mpf(z)))
        return s * (1 - s)


def page_text(site, page: str) -> str:
    """The page's visible text: tags removed, entities decoded, whitespace collapsed."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", page_html(site, page)))
    return re.sub(r"\s+", " ", text)


# --- stability: the engine facts the page is built on --------------------------------------


@pytest.mark.parametrize("z", [EXP_OVERFLOW - 0.01, -745.0, -800.0])
def test_atomic_gradient_is_nan_once_exp_overflows_and_pytorch_agrees(z):
    value, grad = atomic(z)
    torch_value, torch_grad = torch_atomic(z)
    assert value == 0.0 == torch_value
    assert math.isnan(grad) and math.isnan(torch_grad)


def test_atomic_gradient_is_finite_just_inside_the_overflow_threshold():
    _, grad = atomic(EXP_OVERFLOW + 0.01)
    assert grad == 0.0  # s² has already underflowed here: wrong, but not nan
    assert exact_slope(EXP_OVERFLOW + 0.01) > 0


def test_atomic_gradient_underflows_to_zero_where_the_true_slope_is_representable():
    _, grad = atomic(-500.0)
    assert grad == 0.0 and float(exact_slope(-500.0)) > 0.0
    assert torch_atomic(-500.0)[1] == 0.0


def test_fused_sigmoid_never_gives_nan_and_its_value_is_within_two_ulps():
    for z in [float(z) for z in range(-800, 801)] + [EXP_OVERFLOW, -745.5, 36.7]:
        value, grad = fused(z)
        assert math.isfinite(value) and math.isfinite(grad), z
        with mpmath.workdps(50):
            exact = 1 / (1 + mpmath.exp(-mpmath.mpf(z)))
            assert abs(mpmath.mpf(value) - exact) <= 2 * math.ulp(float(exact)), z


def test_fused_local_derivative_cancels_for_large_positive_z():
    saved_one = 53 * math.log(2)
    assert fused(36.0)[1] > 0.0 and fused(37.0)[1] == 0.0
    assert 36.0 < saved_one < 37.0
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


# --- gradient checking -------------------------------------------------------------------------

OP_POINTS = {
    "multiply": (1.5, -2.25),
    "add": (0.7, -1.3),
    "subtract": (0.7, -1.3),
    "square": (-1.7,),
    "negate": (0.4,),
    "exponential": (0.9,),
    "plus_one": (0.4,),
    "reciprocal": (-1.6,),
    "sigmoid": (0.8,),
    "tanh": (0.6,),
    "relu": (1.3,),
    "log": (2.2,),
    "power": (1.7,),
    "divide": (1.3, -0.7),
}


def test_every_public_op_has_a_gradcheck_point():
    public = {
        name
        for name, obj in vars(ops).items()
        if inspect.isfunction(obj) and obj.__module__ == ops.__name__ and not name.startswith("_")
    }
    assert public == set(OP_POINTS)


@pytest.mark.parametrize("name", sorted(OP_POINTS))
def test_every_op_passes_gradcheck(name):
    fn = (lambda u: ops.power(u, 2.5)) if name == "power" else getattr(ops, name)
    assert gradcheck(fn, OP_POINTS[name]) < 1e-9


def test_a_wrong_local_derivative_is_caught():
    def buggy_sigmoid(u):
        s = ops.sigmoid(u).data
        return Value(s, "s", (ParentLink(u, s),), "σ")

    assert gradcheck(buggy_sigmoid, [0.8]) > 0.1


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
    for name in OP_POINTS:
        assert name in text
    fn = lambda u: ops.power(u, 2.5)  # noqa: E731
    assert f"{gradcheck(fn, OP_POINTS['power']):.1e}" in text
    assert f"All {len(OP_POINTS)} operations pass" in text
    assert "Difference-quotient error against step size" in text


@pytest.mark.site
def test_beyond_pages_are_in_the_navigation_and_load_nothing_remote(built_site):
    home = page_html(built_site, "")
    assert "Going further" in home
    assert "beyond/stability/" in home and "beyond/gradcheck/" in home
    for page in ("beyond/stability/", "beyond/gradcheck/"):
        figures = re.findall(r'<figure class="gg gg-plot".*?</figure>', page_html(built_site, page), re.S)
        assert figures
        for figure in figures:
            assert set(re.findall(r"https?://[^\"' )]+", figure)) <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}

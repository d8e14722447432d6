"""The "Reuse the engine" page's new operation (softplus, written on the page) passes gradcheck and matches PyTorch.

The test loads the very file the page shows (`docs/snippets/reuse/softplus.py`), so the code a
reader copies is the code that is tested, here on many more points than the page checks.
"""

from __future__ import annotations

import functools
import math

import pytest
from helpers import run_snippets
from hypothesis import given
from hypothesis import strategies as st

from glassgrad import Value, backward, gradcheck


def softplus(*args: object) -> Value:
    """The page's softplus (its snippet runs when a test first calls it, not at collection)."""
    return _page()["softplus"](*args)


@functools.cache
def _page() -> dict:
    return run_snippets("docs/snippets/reuse/softplus.py")


# PyTorch's softplus returns u itself above u = 20 (its `threshold`), so exact agreement holds up to 20.
reals = st.floats(min_value=-60.0, max_value=20.0, allow_nan=False)


@given(reals)
def test_softplus_passes_gradcheck(u: float) -> None:
    """The saved local derivative agrees with central differences, inside a larger expression."""
    assert gradcheck(lambda a: softplus(a * 0.5 + 1.0) * a, [u]) < 1e-6


@given(reals)
def test_softplus_matches_pytorch(u: float) -> None:
    """Value and gradient equal torch.nn.functional.softplus in float64 (relative 1e-12)."""
    torch = pytest.importorskip("torch")
    leaf = Value(u)
    out = softplus(leaf)
    backward(out)
    tu = torch.tensor(u, dtype=torch.float64, requires_grad=True)
    tout = torch.nn.functional.softplus(tu)
    tout.backward()
    assert math.isclose(out.data, tout.item(), rel_tol=1e-12, abs_tol=1e-300)
    assert math.isclose(leaf.grad, tu.grad.item(), rel_tol=1e-12, abs_tol=1e-300)


def test_softplus_is_one_node_with_one_link() -> None:
    """A new op is an ordinary Value: one ParentLink (local = σ(u)), its symbol, and numbers wrapped as leaves."""
    u = Value(0.0, "u")
    out = softplus(u, "s")
    assert (out.label, out.op, out.data) == ("s", "softplus", math.log(2.0))
    [link] = out.parents
    assert link.value is u and link.local_grad == 0.5
    constant = softplus(1.0)
    assert constant.parents[0].value.data == 1.0


def test_softplus_stays_finite_far_out() -> None:
    """The stable form never overflows: softplus(1000) = 1000 and softplus(-1000) = 0, with gradients 1 and 0."""
    big, small = Value(1000.0), Value(-1000.0)
    high, low = softplus(big), softplus(small)
    backward(high)
    backward(low)
    assert (high.data, big.grad) == (1000.0, 1.0)
    assert (low.data, small.grad) == (0.0, 0.0)

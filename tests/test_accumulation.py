"""The accumulation page's PyTorch side: its written-out zeroing is what `optimizer.zero_grad()` does.

The page empties PyTorch's buffers with a loop (`p.grad = None` per parameter) instead of building an
optimizer, whose construction imports PyTorch's compiler stack (`torch._dynamo`, seconds of build time).
These tests hold the page to that claim by running real optimizers on the page's own graph.
"""

from __future__ import annotations

import runpy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

TWINS = Path(__file__).resolve().parents[1] / "docs" / "snippets" / "accumulation" / "twins.py"
LEAVES = ("w", "x", "b", "y")


@pytest.fixture
def twins() -> Iterator[dict[str, Any]]:
    """The page's snippet (`torch_linear_loss`, `torch_state`), with torch's default dtype restored afterwards."""
    default_dtype = torch.get_default_dtype()
    try:
        yield runpy.run_path(str(TWINS))  # the snippet switches the default dtype to float64, as the page does
    finally:
        torch.set_default_dtype(default_dtype)


def accumulated_twice(twins: dict[str, Any]) -> dict[str, Any]:
    """The page's PyTorch graph after two `backward(retain_graph=True)` calls, as on the page."""
    tensors = twins["torch_linear_loss"]()
    for _ in range(2):
        tensors["L"].backward(retain_graph=True)
    return tensors


def test_written_out_zeroing_matches_optimizer_zero_grad(twins: dict[str, Any]) -> None:
    """The page's loop and SGD's zero_grad() leave every buffer, leaf and non-leaf, in the same state."""
    by_loop, by_optimizer = accumulated_twice(twins), accumulated_twice(twins)
    for name in LEAVES:
        by_loop[name].grad = None  # the page's loop
    torch.optim.SGD([by_optimizer[name] for name in LEAVES], lr=0.1).zero_grad()
    loop_state, optimizer_state = twins["torch_state"](by_loop), twins["torch_state"](by_optimizer)
    assert loop_state == optimizer_state
    assert all(optimizer_state[name] is None for name in LEAVES)
    assert all(optimizer_state[name] is not None for name in ("m", "a", "e", "L"))  # non-leaves are not parameters


def test_zero_grad_without_set_to_none_writes_zeros_like_zero_(twins: dict[str, Any]) -> None:
    """The alternative the page names: `zero_grad(set_to_none=False)` keeps tensors of zeros, as `grad.zero_()` does."""
    by_method, by_optimizer = accumulated_twice(twins), accumulated_twice(twins)
    for name in LEAVES:
        by_method[name].grad.zero_()
    torch.optim.SGD([by_optimizer[name] for name in LEAVES], lr=0.1).zero_grad(set_to_none=False)
    method_state, optimizer_state = twins["torch_state"](by_method), twins["torch_state"](by_optimizer)
    assert method_state == optimizer_state
    assert all(optimizer_state[name] == 0.0 for name in LEAVES)


def test_page_zeroes_without_building_an_optimizer() -> None:
    """No executed code on the page constructs a torch.optim optimizer (the import it triggers costs seconds)."""
    page = (TWINS.parents[2] / "beyond" / "accumulation.md").read_text(encoding="utf-8")
    assert "torch.optim.SGD(" not in page and "optim.Adam" not in page
    assert "zero_grad" in page  # the prose still names PyTorch's call

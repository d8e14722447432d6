import math

import torch


def torch_sweep(sigmoid_form):
    """(σ, dσ/dz) at every grid z from PyTorch float64, all points in one tensor."""
    z = torch.tensor(Z_GRID, dtype=torch.float64, requires_grad=True)
    s = sigmoid_form(z)
    # Elementwise ops: entry i of z.grad is dσ/dz at point i alone (the sum passes 1 back to every entry).
    s.sum().backward()
    return list(zip(s.tolist(), z.grad.tolist()))


def ulp_gap(mine, theirs):
    """How many ulps apart two results are (0 if both are nan, inf if one is)."""
    if mine != mine or theirs != theirs:
        return 0.0 if (mine != mine and theirs != theirs) else math.inf
    if mine == theirs:
        return 0.0
    return abs(mine - theirs) / math.ulp(max(abs(mine), abs(theirs)))


torch_atomic = torch_sweep(lambda z: torch.reciprocal(1 + torch.exp(-z)))
torch_fused = torch_sweep(torch.sigmoid)
atomic_gaps = [
    max(ulp_gap(a, b) for a, b in zip(mine, theirs))  # worst of value and gradient
    for mine, theirs in zip(results["atomic"], torch_atomic)
]

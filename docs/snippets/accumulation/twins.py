import torch

from glassgrad.examples import LINEAR_INPUTS, linear_loss

torch.set_default_dtype(torch.float64)


def torch_linear_loss():
    """Chapter 1's graph in PyTorch, every non-leaf keeping its .grad (retain_grad)."""
    t = {name: torch.tensor(LINEAR_INPUTS[name], requires_grad=True) for name in "wxby"}
    t["m"] = t["w"] * t["x"]
    t["a"] = t["m"] + t["b"]
    t["e"] = t["a"] - t["y"]
    t["L"] = t["e"] ** 2
    for name in "maeL":
        t[name].retain_grad()
    return {name: t[name] for name in ("w", "x", "m", "b", "a", "y", "e", "L")}


def glassgrad_state(nodes):
    """{name: .grad} of glassgrad's nodes."""
    return {name: node.grad for name, node in nodes.items()}


def torch_state(tensors):
    """{name: .grad as a float, or None} of PyTorch's tensors."""
    return {name: None if t.grad is None else t.grad.item() for name, t in tensors.items()}

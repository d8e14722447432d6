import torch

from glassgrad.examples import SIGMOID_INPUTS


def torch_neuron(fused):
    """The tutorial's neuron in PyTorch: torch.sigmoid, or -z, exp, 1 + q, reciprocal."""
    t = {name: torch.tensor(SIGMOID_INPUTS[name], requires_grad=True) for name in "wxby"}
    t["m"] = t["w"] * t["x"]
    t["z"] = t["m"] + t["b"]
    if fused:
        t["s"] = torch.sigmoid(t["z"])
    else:
        t["n"] = -t["z"]
        t["q"] = torch.exp(t["n"])
        t["d"] = 1 + t["q"]
        t["s"] = torch.reciprocal(t["d"])
    t["e"] = t["s"] - t["y"]
    t["L"] = t["e"] ** 2
    return t

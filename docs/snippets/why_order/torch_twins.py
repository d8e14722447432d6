import torch

from glassgrad.torch_reference import linear_loss as torch_linear_loss
from glassgrad.torch_reference import sigmoid_neuron as torch_sigmoid_neuron


def leaf(number):
    return torch.tensor(number, dtype=torch.float64, requires_grad=True)


def torch_doubling_chain():
    a = leaf(1.0)
    b = a + a
    c = b + b
    return {"a": a, "b": b, "c": c}


def torch_skip_connection():
    x = leaf(2.0)
    a = x ** 2
    c = a ** 2
    d = a + c
    return {"x": x, "a": a, "c": c, "d": d}


def torch_grads(graph_name):
    """PyTorch's gradient of every named node of one graph of GRAPHS, by label."""
    if graph_name.startswith("tutorial"):
        reference = (torch_linear_loss() if graph_name.endswith("linear")
                     else torch_sigmoid_neuron(fused=graph_name.endswith("fused sigmoid")))
        return {name: grad for name, (value, grad) in reference.items()}
    named = torch_doubling_chain() if graph_name == "doubling chain" else torch_skip_connection()
    *_, root = named.values()
    for tensor in named.values():
        if not tensor.is_leaf:
            tensor.retain_grad()  # keep non-leaf grads too, to compare every node
    root.backward()
    return {name: tensor.grad.item() for name, tensor in named.items()}

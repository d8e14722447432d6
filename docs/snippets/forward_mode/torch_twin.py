import torch


def linear_values(w, x, b, y):
    """Chapter 2's graph in PyTorch, returning every value it computes."""
    m = w * x
    a = m + b
    e = a - y
    L = e ** 2
    return m, a, e, L


def f64(*numbers):
    return tuple(torch.tensor(n, dtype=torch.float64) for n in numbers)


inputs = f64(2.0, 3.0, 1.0, 10.0)      # w, x, b, y
directions = f64(1.0, 0.0, 0.0, 0.0)   # only w moves
values, torch_tangents = torch.func.jvp(linear_values, inputs, directions)
print("PyTorch's tangents of m, a, e, L:", [t.item() for t in torch_tangents])

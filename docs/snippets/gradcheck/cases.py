import torch

from glassgrad import ops

# (op, glassgrad function, the same function in PyTorch, input values)
CASES = [
    ("multiply", ops.multiply, lambda u, v: u * v, (1.5, -2.25)),
    ("add", ops.add, lambda u, v: u + v, (0.7, -1.3)),
    ("subtract", ops.subtract, lambda u, v: u - v, (0.7, -1.3)),
    ("square", ops.square, lambda u: u**2, (-1.7,)),
    ("negate", ops.negate, lambda u: -u, (0.4,)),
    ("exponential", ops.exponential, torch.exp, (0.9,)),
    ("plus_one", ops.plus_one, lambda u: 1 + u, (0.4,)),
    ("reciprocal", ops.reciprocal, torch.reciprocal, (-1.6,)),
    ("sigmoid", ops.sigmoid, torch.sigmoid, (0.8,)),
    ("tanh", ops.tanh, torch.tanh, (0.6,)),
    ("relu", ops.relu, torch.relu, (1.3,)),
    ("log", ops.log, torch.log, (2.2,)),
    ("power", lambda u: ops.power(u, 2.5), lambda u: u**2.5, (1.7,)),
    ("divide", ops.divide, lambda u, v: u / v, (1.3, -0.7)),
]


def breakdown(fn, torch_fn, inputs, eps=1e-6):
    """Per input: (engine gradient, central difference, gradcheck's error, PyTorch gradient)."""
    leaves = [Value(x) for x in inputs]
    backward(fn(*leaves), record=False)
    tensors = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in inputs]
    torch_fn(*tensors).backward()
    rows = []
    for i, (leaf, tensor) in enumerate(zip(leaves, tensors)):
        up = [x + eps if j == i else x for j, x in enumerate(inputs)]
        down = [x - eps if j == i else x for j, x in enumerate(inputs)]
        numerical = (fn(*map(Value, up)).data - fn(*map(Value, down)).data) / (2.0 * eps)
        error = abs(leaf.grad - numerical) / max(1.0, abs(leaf.grad), abs(numerical))
        rows.append((leaf.grad, numerical, error, tensor.grad.item()))
    return rows

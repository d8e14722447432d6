import torch

from glassgrad import Value, backward

CASES = {
    "x.relu() ** 0.5 + x": (lambda x: x.relu() ** 0.5 + x, -1.0),
    "x.log().exp()": (lambda x: x.log().exp(), 5e-324),
    "x * -0.0": (lambda x: x * -0.0, 2.0),
}


def glassgrad_grad(expression, x):
    leaf = Value(x, "x")
    steps = backward(expression(leaf))
    return leaf.grad, steps


def pytorch_grad(expression, x):
    leaf = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    expression(leaf).backward()
    return leaf.grad.item()


answers = {}
for name, (expression, x) in CASES.items():
    ours, steps = glassgrad_grad(expression, x)
    theirs = pytorch_grad(expression, x)
    answers[name] = (ours, theirs, steps)
    print(f"{name:20} at x = {x!r:7}  glassgrad: x.grad = {ours!r:5}  PyTorch: {theirs!r}")

import random

import torch

from glassgrad import dependency_safe_order
from glassgrad.nn import MLP
from glassgrad.torch_graph import walk

model = MLP(2, [8, 8, 1], rng=0)  # 2 inputs, 8, 8, 1 output: 105 parameters


def glassgrad_loss(points, targets):
    """Sum of squared errors, one scalar operation at a time."""
    errors = [(model(point) - target) ** 2
              for point, target in zip(points, targets)]
    return sum(errors[1:], errors[0])


# The same network in PyTorch: per layer, one weight matrix and one bias
# vector, copied from the model.
def parameter(numbers):
    return torch.tensor(numbers, dtype=torch.float64, requires_grad=True)


layers = [(parameter([[w.data for w in neuron.w] for neuron in layer.neurons]),
           parameter([neuron.b.data for neuron in layer.neurons]))
          for layer in model.layers]


def torch_loss(points, targets):
    """The same loss, one tensor operation at a time for the whole batch."""
    h = torch.tensor(points, dtype=torch.float64)
    for i, (weights, bias) in enumerate(layers):
        h = torch.nn.functional.linear(h, weights, bias)  # h @ weightsᵀ + b
        if i < len(layers) - 1:
            h = torch.relu(h)
    targets = torch.tensor(targets, dtype=torch.float64)
    return ((h[:, 0] - targets) ** 2).sum()


draw = random.Random(0)
counts = {}
for batch in (1, 8, 64):
    points = [[draw.uniform(-1, 1), draw.uniform(-1, 1)] for _ in range(batch)]
    targets = [draw.uniform(-1, 1) for _ in range(batch)]
    ours, theirs = glassgrad_loss(points, targets), torch_loss(points, targets)
    counts[batch] = (len(dependency_safe_order(ours)), len(walk(theirs).nodes))
    print(f"batch of {batch:2}: glassgrad {counts[batch][0]:5,} values,",
          f"PyTorch {counts[batch][1]} nodes")

import torch

# The same initial numbers, as a weight matrix and a bias per layer.
flat = iter(initial)  # neuron by neuron: its weights, then its bias
layers = []
for layer in model.layers:
    size = len(layer.neurons[0].w) + 1
    rows = torch.tensor([[next(flat) for _ in range(size)]
                         for _ in layer.neurons], dtype=torch.float64)
    W = rows[:, :-1].clone().requires_grad_()
    bias = rows[:, -1].clone().requires_grad_()
    layers.append((W, bias))
tensors = [t for pair in layers for t in pair]

X = torch.tensor(points, dtype=torch.float64)
Y = torch.tensor(labels, dtype=torch.float64)
torch_moons_losses = []
for step in range(STEPS):
    h = X
    for i, (W, bias) in enumerate(layers):
        h = h @ W.T + bias
        if i < len(layers) - 1:
            h = torch.relu(h)
    hinge = torch.relu(1 - Y * h[:, 0])
    penalty = sum((t * t).sum() for t in tensors)
    loss = hinge.mean() + ALPHA * penalty
    for t in tensors:
        t.grad = None
    loss.backward()
    with torch.no_grad():
        for t in tensors:
            t -= learning_rate(step) * t.grad
    torch_moons_losses.append(loss.item())

import torch


def pytorch_neuron(fused):
    """The same neuron in PyTorch (float64): {name: (value, grad)} per node."""
    w, x, b, y = (torch.tensor(v, dtype=torch.float64, requires_grad=True)
                  for v in (0.5, 2.0, -1.0, 1.0))
    m = w * x
    z = m + b
    if fused:
        s = torch.sigmoid(z)
        inside = {}
    else:
        n = -z
        q = torch.exp(n)
        d = 1 + q
        s = 1 / d
        inside = {"n": n, "q": q, "d": d}
    e = s - y
    L = e ** 2
    nodes = {"w": w, "x": x, "m": m, "b": b, "z": z, **inside,
             "s": s, "y": y, "e": e, "L": L}
    for node in nodes.values():
        node.retain_grad()
    L.backward()
    return {name: (node.item(), node.grad.item())
            for name, node in nodes.items()}


for graph, is_fused in ((fused, True), (atomic, False)):
    reference = pytorch_neuron(is_fused)
    assert set(reference) == set(graph)
    for name, node in graph.items():
        torch_value, torch_grad = reference[name]
        close = dict(rel_tol=1e-12, abs_tol=1e-15)
        assert math.isclose(node.data, torch_value, **close), name
        assert math.isclose(node.grad, torch_grad, **close), name

print("✓ fused, atomic and PyTorch agree at every node")

import torch
from glassgrad import gradcheck
from glassgrad.torch_reference import compare

points = [-30.0, -2.5, -0.1, 0.0, 0.7, 3.0, 30.0]

# 1. The saved derivative against central differences, in an expression.
worst = max(gradcheck(lambda u: softplus(u * u - 1.0) * u, [point])
            for point in points)
assert worst < 1e-8, worst
print(f"gradcheck at {len(points)} points: worst error below 1e-8")

# 2. Values and gradients against PyTorch (float64), node by node.
for point in points:
    u = Value(point, "u")
    s = softplus(u, "s")
    L = s * s
    backward(L)
    tu = torch.tensor(point, dtype=torch.float64, requires_grad=True)
    ts = torch.nn.functional.softplus(tu)
    tL = ts * ts
    for t in (ts, tL):
        t.retain_grad()
    tL.backward()
    reference = {name: (t.item(), t.grad.item())
                 for name, t in {"u": tu, "s": ts, "L": tL}.items()}
    compare({"u": u, "s": s, "L": L}, reference)  # raises on mismatch
print(f"PyTorch's softplus at {len(points)} points: all values and grads match")

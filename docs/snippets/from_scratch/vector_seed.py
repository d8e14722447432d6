v = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
out = v * 3.0                           # a vector output: no single "dL/dL = 1"
try:
    out.backward()
except RuntimeError as error:
    print("PyTorch:", error)
out.backward(torch.tensor([1.0, 1.0], dtype=torch.float64))   # an explicit upstream seed
print("with seed [1, 1]: v.grad =", v.grad.tolist())

def outputs_of(inputs):
    w, x, b = inputs
    return torch.stack([w * x + b, (w + b) ** 2])


at = torch.tensor([2.0, 3.0, 1.0], dtype=torch.float64)
print("torch.func.jacrev:", torch.func.jacrev(outputs_of)(at).tolist())
print("torch.func.jacfwd:", torch.func.jacfwd(outputs_of)(at).tolist())

from glassgrad.torch_reference import linear_loss as pytorch_linear_loss

torch_reference = pytorch_linear_loss()   # chapter 1's table: {name: (value, grad)}, float64

scratch_nodes = {"w": sw, "x": sx, "m": sm, "b": sb,
                 "a": sa, "y": sy, "e": se, "L": sL}

for name, node in scratch_nodes.items():
    torch_value, torch_grad = torch_reference[name]
    assert node.data == torch_value, (name, node.data, torch_value)
    assert node.grad == torch_grad, (name, node.grad, torch_grad)

print("✓ Every value and gradient matches PyTorch.")

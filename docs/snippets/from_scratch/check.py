# Chapter 1's table: what PyTorch computed for each node, (value, gradient)
torch_reference = {
    "w": (2, -18), "x": (3, -12), "m": (6, -6), "b": (1, -6),
    "a": (7, -6), "y": (10, 6), "e": (-3, -6), "L": (9, 1),
}
scratch_nodes = {"w": sw, "x": sx, "m": sm, "b": sb,
                 "a": sa, "y": sy, "e": se, "L": sL}

for name, node in scratch_nodes.items():
    torch_value, torch_grad = torch_reference[name]
    assert node.data == torch_value, (name, node.data, torch_value)
    assert node.grad == torch_grad, (name, node.grad, torch_grad)

print("✓ Every value and gradient matches PyTorch.")

import torch
from glassgrad.examples import LINEAR_INPUTS, linear_loss

nodes = linear_loss()  # chapter 1's graph
L, w = nodes["L"], nodes["w"]
backward(L)
once = w.grad
backward(L)  # cleared, then filled again
twice = w.grad
backward(L, accumulate=True)  # added to what was there
accumulated = w.grad

t = {name: torch.tensor(v, dtype=torch.float64, requires_grad=True) for name, v in LINEAR_INPUTS.items()}
tL = (t["w"] * t["x"] + t["b"] - t["y"]) ** 2
tL.backward(retain_graph=True)
tL.backward()  # PyTorch adds the second call's gradient
print("glassgrad, backward twice:        w.grad =", twice)
print("glassgrad, then accumulate=True:  w.grad =", accumulated)
print("PyTorch, backward twice:          w.grad =", t["w"].grad.item())
assert twice == once and accumulated == 2 * once == t["w"].grad.item()

steps = backward(L, record=False)
print("steps logged with record=False:", len(steps))
print("intermediate e.grad, kept:", nodes["e"].grad)

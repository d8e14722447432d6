import torch
from glassgrad.examples import linear_loss

nodes = linear_loss()  # chapter 1's graph: w=2, x=3, b=1, y=10
L, w = nodes["L"], nodes["w"]
backward(L)
backward(L)  # cleared, then filled again
twice = w.grad
backward(L, accumulate=True)  # added to what was there
accumulated = w.grad

tw = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
tL = (tw * 3.0 + 1.0 - 10.0) ** 2
tL.backward(retain_graph=True)
tL.backward()  # PyTorch adds the second call's gradient
print("glassgrad, backward twice:        w.grad =", twice)
print("glassgrad, then accumulate=True:  w.grad =", accumulated)
print("PyTorch, backward twice:          w.grad =", tw.grad.item())
assert twice == -18.0 and accumulated == tw.grad.item() == -36.0

steps = backward(L, record=False)
print("steps logged with record=False:", len(steps))
print("intermediate e.grad, kept:", nodes["e"].grad)

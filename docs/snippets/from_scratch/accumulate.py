nodes = linear_loss()
backward(nodes["L"])
backward(nodes["L"])                    # glassgrad's default: clear, then recompute
print("glassgrad, twice:           w.grad =", nodes["w"].grad)

backward(nodes["L"], accumulate=True)   # opt in to PyTorch's behaviour
print("glassgrad, accumulate=True: w.grad =", nodes["w"].grad)

tw = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
tL = (tw * 3.0 + 1.0 - 10.0) ** 2
tL.backward(retain_graph=True)
tL.backward()                           # PyTorch adds into .grad
print("PyTorch, twice:             w.grad =", tw.grad.item())

from glassgrad import gradcheck
from glassgrad.nn import MLP

# Methods for the usual functions; plain numbers mix with Values.
z = (w * 0.5 - 1.0).tanh() + x.exp().log() / 3
z.backward()  # the method form: same gradients, no step log
print("z =", round(z.data, 6), "| dz/dw =", round(w.grad, 6))

# Gradients against central differences: the worst error.
worst = gradcheck(lambda a, c: (a * c).sigmoid() * a, [0.3, -1.2])
print("gradcheck error below 1e-8:", worst < 1e-8)

# micrograd's networks; rng= fixes the weights (by default they come from Python's global random).
model = MLP(3, [4, 4, 1], rng=0)
out = model([1.0, -2.0, 0.5])
out.backward()
print(len(model.parameters()), "parameters:", model.layers[-1])

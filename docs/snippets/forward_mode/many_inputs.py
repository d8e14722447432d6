from glassgrad import backward, dependency_safe_order, trace_jvp
from glassgrad.nn import MLP

# n inputs, one output: a network's loss on one point; n = its parameters.
model = MLP(3, [4, 4, 1], rng=0)
loss = (model([0.5, -1.0, 2.0]) - 1.0) ** 2
params = model.parameters()
links = sum(len(node.parents) for node in dependency_safe_order(loss))

forward_passes = [trace_jvp(loss, {p: 1.0}) for p in params]  # one per input
reverse_passes = [backward(loss)]                              # one for all

print(f"n = {len(params)} parameters, one loss, {links} saved links")
print(f"forward mode: {len(forward_passes)} passes,",
      f"{sum(map(len, forward_passes))} link updates")
print(f"reverse mode: {len(reverse_passes)} pass,",
      f"{sum(map(len, reverse_passes))} link updates")

from glassgrad import Value, backward, dependency_safe_order, trace_jvp
from glassgrad.nn import MLP

# One input, m outputs: eight outputs that share the hidden layers.
x = Value(0.7, "x")
outputs = MLP(1, [4, 4, 8], rng=0)([x])
values = {node for y in outputs for node in dependency_safe_order(y)}
links = sum(len(node.parents) for node in values)

forward_passes = [trace_jvp(outputs, {x: 1.0})]  # one for all outputs
reverse_passes, reverse_derivatives = [], []
for y in outputs:                                # one per output
    reverse_passes.append(backward(y))
    reverse_derivatives.append(x.grad)

print(f"one input, m = {len(outputs)} outputs, {links} saved links")
print(f"forward mode: {len(forward_passes)} pass,",
      f"{sum(map(len, forward_passes))} link updates")
print(f"reverse mode: {len(reverse_passes)} passes,",
      f"{sum(map(len, reverse_passes))} link updates")

from glassgrad import Value, backward, dependency_safe_order

# Leaves: a number and a display label (labels never change numbers).
w, x = Value(2.0, "w"), Value(3.0, "x")
b, y = Value(1.0, "b"), Value(10.0, "y")

# Operators compute and build the graph; a result links to its operands.
L = (w * x + b - y) ** 2
print("L =", L.data)
print("L's links (operand, local derivative):",
      [(link.value.data, link.local_grad) for link in L.parents])

# backward fills every .grad and logs each chain-rule step.
steps = backward(L)
print("grads of w, x, b, y:", w.grad, x.grad, b.grad, y.grad)
first = steps[0]
print(f"first step: upstream {first.upstream:g} × local {first.local:g}"
      f" = {first.contribution:g}")
# Dependency-safe order; unlabelled results show their operation.
print([node.label or node.op for node in dependency_safe_order(L)])

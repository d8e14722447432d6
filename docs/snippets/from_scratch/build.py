sw = Value(2.0, label="w")
sx = Value(3.0, label="x")
sb = Value(1.0, label="b")
sy = Value(10.0, label="y")

sm = multiply(sw, sx, "m")
sa = add(sm, sb, "a")
se = subtract(sa, sy, "e")
sL = square(se, "L")

print("What m = wx stored during forward:")
for link in sm.parents:
    name = link.value.label
    print(f"  parent {name}: local ∂m/∂{name} = {link.local_grad:g}")

safe_order = dependency_safe_order(sL)
forward_names = [node.label for node in safe_order]
print("\nDependency-first order:", " → ".join(forward_names))
print("Backward will process: ", " → ".join(reversed(forward_names)))

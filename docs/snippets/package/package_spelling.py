from glassgrad import Value, backward

w, x = Value(2.0, "w"), Value(3.0, "x")
b, y = Value(1.0, "b"), Value(10.0, "y")
L = (w * x + b - y) ** 2
steps = backward(L)
print(f"L = {L.data:g}, w.grad = {w.grad:g}, x.grad = {x.grad:g}")
print(f"{len(steps)} steps")

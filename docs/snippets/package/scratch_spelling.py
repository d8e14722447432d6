import glassgrad.scratch as scratch

w, x = scratch.Value(2.0, "w"), scratch.Value(3.0, "x")
b, y = scratch.Value(1.0, "b"), scratch.Value(10.0, "y")
m = scratch.multiply(w, x, "m")
a = scratch.add(m, b, "a")
e = scratch.subtract(a, y, "e")
L = scratch.square(e, "L")
steps = scratch.backward(L)
print(f"L = {L.data:g}, w.grad = {w.grad:g}, x.grad = {x.grad:g}")
print(f"{len(steps)} steps")

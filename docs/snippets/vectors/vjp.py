from glassgrad import Value, backward

w, x, b = Value(2.0, "w"), Value(3.0, "x"), Value(1.0, "b")
p = w * x + b        # first output
q = (w + b) ** 2     # second output

backward([p, q], gradient=[1.0, 10.0])  # p.grad = 1, q.grad = 10, one pass
print("vᵀJ =", [w.grad, x.grad, b.grad])

def loss_and_slope(w, x=3.0, b=1.0, y=10.0):
    """L and ∂L/∂w of the graph above, built afresh at these inputs."""
    w = Value(w, "w")
    m = multiply(w, Value(x, "x"), "m")
    e = subtract(add(m, Value(b, "b"), "a"), Value(y, "y"), "e")
    L = square(e, "L")
    backward(L)
    return L.data, w.grad


assert loss_and_slope(2.0) == (9, -18)
assert loss_and_slope(2.5) == (2.25, -9)
assert loss_and_slope(2.5, b=0.0) == (6.25, -15)

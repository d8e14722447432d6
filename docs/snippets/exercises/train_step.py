from glassgrad.scratch import Value, add, backward, multiply, sigmoid, square, subtract


def train_step(w, b, x, y, lr):
    """One gradient-descent step for L = (σ(w·x + b) - y)²; return the new w and b (numbers)."""
    wv, bv = Value(w, "w"), Value(b, "b")
    z = add(multiply(wv, Value(x, "x"), "m"), bv, "z")
    L = square(subtract(sigmoid(z, "s"), Value(y, "y"), "e"), "L")
    backward(L)
    new_w = w - lr * wv.grad   # step against the gradient
    new_b = b - lr * bv.grad
    return new_w, new_b

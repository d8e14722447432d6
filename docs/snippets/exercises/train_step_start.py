from glassgrad.scratch import Value, add, backward, multiply, sigmoid, square, subtract


def train_step(w, b, x, y, lr):
    """One gradient-descent step for L = (σ(w·x + b) - y)²; return the new w and b (numbers)."""
    wv, bv = Value(w, "w"), Value(b, "b")
    # build L from wv, bv, x and y, run backward, then step
    new_w, new_b = w, b
    return new_w, new_b

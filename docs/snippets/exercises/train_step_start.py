from glassgrad.scratch import Value, add, backward, multiply, sigmoid, square, subtract


def train_step(w, b, x, y, lr):
    """One gradient-descent step for L = (σ(w·x + b) - y)²; return the new w and b (numbers)."""
    wv, bv = Value(w, "w"), Value(b, "b")
    # 1. build L from wv, bv, x and y (make x and y Values too)
    # 2. run backward(L)
    # 3. step w and b against their gradients, with learning rate lr
    new_w, new_b = wv.data, bv.data
    return new_w, new_b

def neuron(fused, w=0.5, x=2.0, b=-1.0, y=1.0):
    """L = (σ(wx + b) - y)², with the sigmoid as one operation or as four."""
    w, x = Value(w, "w"), Value(x, "x")
    b, y = Value(b, "b"), Value(y, "y")
    m = multiply(w, x, "m")
    z = add(m, b, "z")
    if fused:
        s = sigmoid(z, "s")
    else:
        n = negate(z, "n")
        q = exponential(n, "q")
        d = plus_one(q, "d")
        s = reciprocal(d, "s")
    e = subtract(s, y, "e")
    L = square(e, "L")
    return {node.label: node for node in dependency_safe_order(L)}


fused = neuron(fused=True)
atomic = neuron(fused=False)

fused_steps = backward(fused["L"])
atomic_steps = backward(atomic["L"])

print("fused: ", len(fused), "values,", len(fused_steps), "reverse edges")
print("atomic:", len(atomic), "values,", len(atomic_steps), "reverse edges")

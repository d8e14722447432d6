from glassgrad.scratch import Value, backward, multiply

w = Value(2.0, "w")

L = multiply(w, w, "L")   # one object, used as both operands

steps = backward(L)

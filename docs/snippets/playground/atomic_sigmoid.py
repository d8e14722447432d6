from glassgrad.scratch import (Value, add, backward, exponential, multiply, negate,
                               plus_one, reciprocal, square, subtract)

w = Value(0.5, "w")
x = Value(2.0, "x")
b = Value(-1.0, "b")
y = Value(1.0, "y")

m = multiply(w, x, "m")
z = add(m, b, "z")
n = negate(z, "n")
q = exponential(n, "q")
d = plus_one(q, "d")
s = reciprocal(d, "s")
e = subtract(s, y, "e")
L = square(e, "L")

steps = backward(L)

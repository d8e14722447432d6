# The first figures draw chapter 1's graph, built with this engine and differentiated
# once.
from glassgrad.scratch import Value, add, backward, multiply, square, subtract

w, x = Value(2.0, "w"), Value(3.0, "x")
b, y = Value(1.0, "b"), Value(10.0, "y")
m = multiply(w, x, "m")
a = add(m, b, "a")
e = subtract(a, y, "e")
L = square(e, "L")
backward(L)

from glassgrad.scratch import Value, add, backward, multiply, square, subtract

w = Value(2.0, "w")
x = Value(3.0, "x")
b = Value(1.0, "b")
y = Value(10.0, "y")

m = multiply(w, x, "m")
a = add(m, b, "a")
e = subtract(a, y, "e")
L = square(e, "L")

steps = backward(L)

from glassgrad.scratch import Value, add, backward, multiply, sigmoid, square, subtract

w = Value(0.5, "w")
x = Value(2.0, "x")
b = Value(-1.0, "b")
y = Value(1.0, "y")

m = multiply(w, x, "m")
z = add(m, b, "z")
s = sigmoid(z, "s")
e = subtract(s, y, "e")
L = square(e, "L")

steps = backward(L)

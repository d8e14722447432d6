from glassgrad.scratch import Value, add, backward, square

# The skip connection: a reaches the output twice, directly and through c.
x = Value(2.0, "x")
a = square(x, "a")
c = square(a, "c")
L = add(a, c, "L")   # d on the page; the Playground draws the value named L

steps = backward(L)

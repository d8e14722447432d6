from glassgrad.scratch import Value, add, backward, multiply

# The diamond of exercise 5: one input, x, feeds two branches that meet again in L.

x = Value(2.0, "x")
a = Value(3.0, "a")
b = Value(1.0, "b")

p = multiply(x, a, "p")   # x feeds two branches...
q = add(x, b, "q")
L = multiply(p, q, "L")   # ...that meet again in L

steps = backward(L)

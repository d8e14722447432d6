from glassgrad.scratch import Value, add, multiply

x = Value(2.0, "x")
a = Value(3.0, "a")
b = Value(1.0, "b")
p = multiply(x, a, "p")   # x feeds two branches...
q = add(x, b, "q")
L = multiply(p, q, "L")   # ...that meet again in L

order = [x, a, p, b, q, L]   # every Value of the graph, each one after its parents

p = Value(1.0, label="p")
q = multiply(p, 2.0, "q")
p.parents = (ParentLink(q, 1.0),)   # p now depends on q, which depends on p

try:
    backward(q)
except CycleError as error:
    print("CycleError:", error)

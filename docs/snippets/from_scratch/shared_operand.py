w = Value(2.0, label="w")
r = multiply(w, w, "r")      # one object, used as both operands

print("links saved by r:", len(r.parents))
print("nodes in the schedule:", [node.label for node in dependency_safe_order(r)])

square_steps = backward(r)
print("w.grad =", w.grad)     # two contributions of 2 each

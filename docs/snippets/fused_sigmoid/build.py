fused = sigmoid_neuron(fused=True)      # s = sigmoid(z): one operation
atomic = sigmoid_neuron(fused=False)    # n = -z, q = exp(n), d = 1 + q, s = 1/d

fused_steps = backward(fused["L"])
atomic_steps = backward(atomic["L"])

print("fused: ", len(fused), "values,", len(fused_steps), "reverse edges")
print("atomic:", len(atomic), "values,", len(atomic_steps), "reverse edges")

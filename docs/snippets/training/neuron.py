from glassgrad import Value
from glassgrad.nn import train

# Chapter 3's neuron. w and b are parameters: training moves them.
w = Value(0.5, "w")
b = Value(-1.0, "b")
# x and y are one training example: data, so plain numbers.
x, y = 2.0, 1.0


def neuron_loss():
    s = (w * x + b).sigmoid()
    return (s - y) ** 2


# Each step: build the graph, backward, then p.data -= learning_rate * p.grad.
neuron_losses = train([w, b], neuron_loss, steps=40, learning_rate=1.0)

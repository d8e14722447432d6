from glassgrad import Value
from glassgrad.examples import SIGMOID_INPUTS
from glassgrad.nn import train

# Chapter 3's neuron. w and b are parameters: training moves them.
w = Value(SIGMOID_INPUTS["w"], "w")
b = Value(SIGMOID_INPUTS["b"], "b")
# x and y are one training example: data, so plain numbers.
x, y = SIGMOID_INPUTS["x"], SIGMOID_INPUTS["y"]


def neuron_loss():
    s = (w * x + b).sigmoid()
    return (s - y) ** 2


# Each step: build the graph, backward, then p.data -= learning_rate * p.grad.
neuron_losses = train([w, b], neuron_loss, steps=40, learning_rate=1.0)

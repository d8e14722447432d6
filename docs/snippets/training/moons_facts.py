# Facts about the run above, checked before the prose states them.
from glassgrad.nn import Neuron

assert (len(points), labels.count(-1), labels.count(1)) == (60, 30, 30)
assert [len(layer.neurons) for layer in model.layers] == [8, 8, 1]
parameter_count = len(model.parameters())
assert parameter_count == (2 + 1) * 8 + (8 + 1) * 8 + (8 + 1) * 1 == 105


def unfused_score(point):
    """The same model as a chain of separate × and + nodes (micrograd's way), for counting nodes."""
    out = point
    for layer in model.layers:
        values = []
        for neuron in layer.neurons:
            total = neuron.b
            for weight, x_i in zip(neuron.w, out):
                total = add(total, multiply(weight, x_i))
            values.append(total.relu() if neuron.nonlin else total)
        out = values
    return out[0]


fused_loss = moons_loss()
unfused_loss = sum((1 - label * unfused_score(point)).relu() for point, label in zip(points, labels)) / len(points)
unfused_loss = unfused_loss + ALPHA * sum(p * p for p in model.parameters())
assert fused_loss.data == unfused_loss.data  # same sums in the same order: the same bits
fused_nodes = len(dependency_safe_order(fused_loss))
unfused_nodes = len(dependency_safe_order(unfused_loss))
backward(unfused_loss, record=False)
unfused_grads = [p.grad for p in model.parameters()]
backward(fused_loss, record=False)
assert max_relative_gap([p.grad for p in model.parameters()], unfused_grads) < 1e-12

predictions = [1 if model(point).data > 0 else -1 for point in points]
correct = sum(prediction == label for prediction, label in zip(predictions, labels))
assert moons_losses[-1] < moons_losses[0] / 10

assert (parameter_count, len(points), fused_nodes, unfused_nodes, STEPS) == (105, 60, 2_662, 13_162, 40)
assert (round(moons_losses[0], 3), round(moons_losses[-1], 3), correct) == (0.653, 0.038, 59)
rises = [step for step in range(1, STEPS) if moons_losses[step] > moons_losses[step - 1]]
assert {1, 14, 15} <= set(rises) and (round(moons_losses[1], 3), round(moons_losses[15], 3)) == (0.826, 0.389)
assert max(moons_losses[step] - moons_losses[step - 1] for step in rises if step > 20) < 0.05
assert learning_rate(21) < 0.55 and all(moons_losses[step] < 0.2 for step in range(21, STEPS))

# The figure of one neuron: the first hidden neuron, on the first point where its ReLU is active,
# with its trained numbers copied into a neuron whose labels are short (w0, w1, b, z, h).
first_neuron = model.layers[0].neurons[0]
active = next(i for i, point in enumerate(points) if first_neuron(point).data > 0)
shown = Neuron(2)
for copy, trained_parameter in zip(shown.parameters(), first_neuron.parameters()):
    copy.data = trained_parameter.data
x0, x1 = Value(points[active][0], "x0"), Value(points[active][1], "x1")
neuron_output = shown([x0, x1])
assert neuron_output.data == first_neuron(points[active]).data
backward(neuron_output)
# A phone's column is too narrow for the whole neuron left to right (and its five inputs side by side, top
# to bottom); there it is drawn up to its weighted sum z, the part the text is about.
(relu_link,) = neuron_output.parents
weighted_sum = relu_link.value
assert weighted_sum.op == "Σ" and relu_link.local_grad == 1 and neuron_output.data == weighted_sum.data
neuron_caption = f"The first neuron of the first hidden layer, trained, on point {active}"
one_neuron_figure = wide_or_narrow(
    draw_graph(neuron_output, caption_text=f"{neuron_caption}."),
    draw_graph(weighted_sum, caption_text=f"{neuron_caption}, up to its weighted sum z; "
               "then h = ReLU(z) = z, with ∂h/∂z = 1."),
)


def trained_score(a, b):
    """model([a, b]).data in plain floats: weighted_sum's additions in its order, then ReLU, but no graph
    (the boundary figure asks for the score about 5,000 times)."""
    out = [a, b]
    for layer in model.layers:
        values = []
        for neuron in layer.neurons:
            total = neuron.b.data
            for weight, x_i in zip(neuron.w, out):
                total += weight.data * x_i
            values.append(max(total, 0.0) if neuron.nonlin else total)
        out = values
    return out[0]


assert [trained_score(*point) for point in points] == [model(point).data for point in points]
boundary_figure = decision_boundary(
    trained_score, points, labels, title="Two moons: the trained model's decision regions"
)

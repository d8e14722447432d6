# Small graphs where a value is reused, plus the tutorial's graphs, each built fresh on every call.
from glassgrad import Value, add, square
from glassgrad.examples import linear_loss, sigmoid_neuron

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def doubling_chain(levels=2):
    """a = 1, b = a + a, c = b + b, ...: every level uses the previous value twice."""
    node = Value(1.0, "a")
    for level in range(1, levels + 1):
        name = LETTERS[level] if level < len(LETTERS) else f"v{level}"
        node = add(node, node, name)
    return node


def skip_connection():
    """x = 2, a = x², c = a², d = a + c: a reaches d twice, directly and through c."""
    x = Value(2.0, "x")
    a = square(x, "a")
    c = square(a, "c")
    return add(a, c, "d")


GRAPHS = {
    "doubling chain": doubling_chain,
    "skip connection": skip_connection,
    "tutorial: linear": lambda: linear_loss()["L"],
    "tutorial: fused sigmoid": lambda: sigmoid_neuron(fused=True)["L"],
    "tutorial: atomic sigmoid": lambda: sigmoid_neuron(fused=False)["L"],
}

import math

from glassgrad import Value, add, square


def diamond():
    """x = 2, a = x², c = a², d = a + c: a reaches d directly and via c."""
    x = Value(2.0, "x")
    a = square(x, "a")
    c = square(a, "c")
    return add(a, c, "d"), x


def every_path(node, leaf):
    """Every path from `leaf` up to `node`: its (output, link) pairs."""
    if node is leaf:
        return [[]]
    return [path + [(node, link)]
            for link in node.parents
            for path in every_path(link.value, leaf)]


d, x = diamond()
paths = every_path(d, x)
for path in paths:
    names = " → ".join([x.label] + [output.label for output, _ in path])
    local_grads = [link.local_grad for _, link in path]
    factors = " · ".join(f"{local:g}" for local in local_grads)
    print(f"{names:14} {factors:10} = {math.prod(local_grads):g}")

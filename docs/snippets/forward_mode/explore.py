def tangents_at(**inputs):
    """Every value's tangent on chapter 2's graph at these inputs, w moving at speed 1."""
    nodes = linear_loss(**inputs)
    return {node.label: t for node, t in trace_jvp(nodes["L"], {nodes["w"]: 1.0}).tangents.items()}


assert tangents_at() == {"w": 1, "x": 0, "m": 3, "b": 0, "a": 3, "y": 0, "e": 3, "L": -18}
assert tangents_at(x=4.0) == {"w": 1, "x": 0, "m": 4, "b": 0, "a": 4, "y": 0, "e": 4, "L": -8}
assert linear_loss(x=4.0)["e"].data == -1
assert linear_loss(y=6.0)["e"].data == 1 and tangents_at(y=6.0)["L"] == 2 * 1 * 3 == 6

from glassgrad.scratch import dependency_safe_order


def tangents(root, seeds):
    """Every value's tangent when the leaves move as seeds says."""
    tangent = {}
    for node in dependency_safe_order(root):   # parents first
        if not node.parents:
            tangent[node] = seeds.get(node, 0.0)   # a leaf: its seed
        else:
            tangent[node] = 0.0   # fill in: push tangents along the links
    return tangent

from glassgrad import dependency_safe_order


def forward_tangents(root, seeds):
    """Every value's tangent when the leaves move as `seeds` says."""
    tangent = {}
    for node in dependency_safe_order(root):  # parents first, not reversed
        if not node.parents:  # a leaf: its seed, or 0 if it stays still
            tangent[node] = seeds.get(node, 0.0)
        else:  # every saved link: parent's tangent × local derivative
            tangent[node] = sum(tangent[link.value] * link.local_grad
                                for link in node.parents)
    return tangent

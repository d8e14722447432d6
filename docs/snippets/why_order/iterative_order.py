def iterative_dependency_safe_order(root):
    """append_after_parents' walk, with a list as the stack instead of nested calls."""
    safe_order = []
    seen = {id(root)}
    stack = [(root, 0)]  # (a node being visited, the index of its next link to follow)
    while stack:
        node, k = stack.pop()
        if k < len(node.parents):
            stack.append((node, k + 1))  # come back to this node for its next link
            parent = node.parents[k].value
            if id(parent) not in seen:
                seen.add(id(parent))
                stack.append((parent, 0))  # visit the parent first, as the recursive call did
        else:
            safe_order.append(node)  # all of node's parents are in the list by now
    return safe_order

def recursive_dependency_safe_order(root):
    """The seed's version: append_after_parents calls itself once per level of depth."""
    safe_order = []
    seen = set()

    def append_after_parents(node):
        if id(node) in seen:
            return
        seen.add(id(node))
        for link in node.parents:
            append_after_parents(link.value)
        safe_order.append(node)

    append_after_parents(root)
    return safe_order

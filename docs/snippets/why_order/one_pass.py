from collections import deque

from glassgrad import BackwardStep, dependency_safe_order


def backward_in_order(root, order):
    """(b) One pass over `order`: each node sends its current .grad to its parents."""
    steps = []
    root.grad = 1.0
    for output in order:
        upstream = output.grad  # whatever has arrived so far
        for link in output.parents:
            parent = link.value
            contribution = upstream * link.local_grad
            before = parent.grad
            parent.grad += contribution
            steps.append(BackwardStep(output, parent, upstream, link.local_grad,
                                      contribution, before, parent.grad))
    return steps


def forward_order(root):
    """The dependency-safe order without `reversed`: leaves first."""
    return dependency_safe_order(root)


def breadth_first_order(root):
    """Level by level from the root, each node listed when first seen."""
    order, seen, queue = [], {root}, deque([root])
    while queue:
        node = queue.popleft()
        order.append(node)
        for link in node.parents:
            if link.value not in seen:
                seen.add(link.value)
                queue.append(link.value)
    return order

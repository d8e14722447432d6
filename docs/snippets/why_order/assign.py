from glassgrad import BackwardStep, dependency_safe_order


def backward_assign(root):
    """(c) The right order, but `parent.grad = contribution` instead of `+=`."""
    steps = []
    root.grad = 1.0
    for output in reversed(dependency_safe_order(root)):
        upstream = output.grad
        for link in output.parents:
            parent = link.value
            contribution = upstream * link.local_grad
            before = parent.grad
            parent.grad = contribution  # the bug: replaces what other links added
            steps.append(BackwardStep(output, parent, upstream, link.local_grad,
                                      contribution, before, parent.grad))
    return steps

from glassgrad import BackwardStep


def backward_every_path(root):
    """(a) Push each gradient on the moment it arrives, recursively, along every path."""
    steps = []
    root.grad = 1.0

    def push(output, upstream):
        for link in output.parents:
            parent = link.value
            contribution = upstream * link.local_grad
            before = parent.grad
            parent.grad += contribution
            steps.append(BackwardStep(output, parent, upstream, link.local_grad,
                                      contribution, before, parent.grad))
            push(parent, contribution)  # forward this piece at once, before others arrive

    push(root, 1.0)
    return steps

from glassgrad.scratch import dependency_safe_order


def backward(root):
    safe_order = dependency_safe_order(root)
    for node in safe_order:
        node.grad = 0.0
    root.grad = 1.0
    for output in reversed(safe_order):   # output.grad is complete by now
        for link in output.parents:
            contribution = output.grad * link.local_grad
            link.value.grad = contribution   # fix: two links may point to one Value

import torch

from glassgrad.examples import LINEAR_INPUTS

torch.set_default_dtype(torch.float64)

w, x, b, y = (torch.tensor(LINEAR_INPUTS[name], requires_grad=True) for name in "wxby")
m = w * x
a = m + b
e = a - y
L = e ** 2


def name_of(fn):
    return type(fn).__name__ if fn is not None else "None"


# Follow the first input all the way down, printing each node's next_functions.
fn = L.grad_fn
while fn is not None:
    entries = [(name_of(parent), slot) for parent, slot in fn.next_functions]
    print(f"{name_of(fn):<15} next_functions = {entries}")
    fn = fn.next_functions[0][0] if fn.next_functions else None
print("w.grad_fn =", w.grad_fn, "| is the AccumulateGrad's variable w?",
      m.grad_fn.next_functions[0][0].variable is w)

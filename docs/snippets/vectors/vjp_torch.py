import torch


def f64(number, requires_grad=False):
    return torch.tensor(number, dtype=torch.float64,
                        requires_grad=requires_grad)


w_t, x_t, b_t = f64(2.0, True), f64(3.0, True), f64(1.0, True)
p_t = w_t * x_t + b_t
q_t = (w_t + b_t) ** 2

torch_vjp = torch.autograd.grad([p_t, q_t], [w_t, x_t, b_t],
                                grad_outputs=[f64(1.0), f64(10.0)])
print("PyTorch:", [g.item() for g in torch_vjp])

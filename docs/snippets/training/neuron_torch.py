import torch

tw = torch.tensor(SIGMOID_INPUTS["w"], dtype=torch.float64, requires_grad=True)
tb = torch.tensor(SIGMOID_INPUTS["b"], dtype=torch.float64, requires_grad=True)
torch_neuron_losses = []
for step in range(40):
    loss = (torch.sigmoid(tw * x + tb) - y) ** 2
    tw.grad = tb.grad = None  # PyTorch adds into .grad: clear it
    loss.backward()
    with torch.no_grad():
        tw -= 1.0 * tw.grad
        tb -= 1.0 * tb.grad
    torch_neuron_losses.append(loss.item())

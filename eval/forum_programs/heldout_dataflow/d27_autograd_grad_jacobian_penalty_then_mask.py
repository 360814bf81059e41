# Contractive-autoencoder style penalty: torch.autograd.grad of the tanh code w.r.t. the input with
# create_graph; the code is then masked in place before the total loss backward
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Linear(4, 3)
dec = nn.Linear(3, 4)
x = torch.randn(5, 4, requires_grad=True)
z = torch.tanh(enc(x))
(jac,) = torch.autograd.grad(z.sum(), x, create_graph=True)
keep = torch.tensor([1.0, 1.0, 0.0])
z.mul_(keep)  # culprit
recon = dec(z)
loss = (recon - x.detach()).pow(2).mean() + 0.1 * jac.pow(2).sum()
loss.backward()
print(enc.weight.grad.norm().item())

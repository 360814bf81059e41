# source: custom autograd.Function with a hand-written backward that reuses the saved tensor's buffer (x.mul_ in backward)
# Gated MLP using a custom squared-gate Function; its backward scales the saved sigmoid gate in place to form 2*x.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SquaredGate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, gate):
        ctx.save_for_backward(gate)
        return gate * gate

    @staticmethod
    def backward(ctx, grad_out):
        gate, = ctx.saved_tensors
        return grad_out * gate.mul_(2.0)  # culprit


class GatedMLP(nn.Module):
    def __init__(self, dim=16, hidden=32, n_out=3):
        super().__init__()
        self.inp = nn.Linear(dim, hidden)
        self.gate_fc = nn.Linear(dim, hidden)
        self.out = nn.Linear(hidden, n_out)

    def forward(self, x):
        h = F.silu(self.inp(x))
        gate = torch.sigmoid(self.gate_fc(x))
        return self.out(h * SquaredGate.apply(gate))


model = GatedMLP()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    x, y = torch.randn(12, 16), torch.randint(0, 3, (12,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())

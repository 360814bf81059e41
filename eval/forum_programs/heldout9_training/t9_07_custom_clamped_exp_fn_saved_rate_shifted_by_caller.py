# source: Poisson-regression forum thread -- custom autograd.Function for a clamped exp link, caller adds eps to the rate in place
# Count model with a custom exp Function that saves its output; the training loop adds an epsilon to that output before the loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ClampedExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, max_log=8.0):
        out = x.clamp(max=max_log).exp()
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        out, = ctx.saved_tensors
        return grad_out * out, None


class PoissonRegressor(nn.Module):
    def __init__(self, in_dim=10, hidden=24):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hidden), nn.SiLU())
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        return ClampedExp.apply(self.head(self.body(x)).squeeze(-1))


model = PoissonRegressor()
opt = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
eps = 1e-6

for step in range(4):
    x = torch.randn(32, 10)
    counts = torch.poisson(torch.full((32,), 3.0))
    rate = model(x)
    rate.add_(eps)  # culprit
    loss = F.poisson_nll_loss(rate, counts, log_input=False)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())

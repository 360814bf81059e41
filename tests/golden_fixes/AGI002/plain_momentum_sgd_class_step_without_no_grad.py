"""A hand-written momentum SGD without a base class (it keeps ``self.params = list(params)``, with
``step`` and ``zero_grad``, as course exercises write it): ``step`` updates each parameter with
``p -= lr * buf`` outside ``torch.no_grad()``, an in-place write to a leaf that requires grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MomentumSGD:
    def __init__(self, params, lr=0.01, momentum=0.9):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [torch.zeros_like(p) for p in self.params]

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.zero_()

    def step(self):
        for p, buf in zip(self.params, self.bufs):
            if p.grad is None:
                continue
            buf.mul_(self.momentum).add_(p.grad)
            with torch.no_grad():
                p -= self.lr * buf  # expect: AGI002


def run():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = MomentumSGD(model.parameters(), lr=0.05)
    x = torch.randn(16, 3)
    loss = F.mse_loss(model(x), x[:, :1])
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


if __name__ == "__main__":
    print(run())

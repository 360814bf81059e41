"""A hand-written optimizer whose ``step`` forgot ``@torch.no_grad()``: ``self.param_groups`` holds the
model's parameters, leaves that require grad, and ``p.add_`` on one with grad on is refused at once."""
import torch
from torch import nn


class SignSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01):
        super().__init__(params, dict(lr=lr))

    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                with torch.no_grad():
                    p.add_(p.grad.sign(), alpha=-group["lr"])  # expect: AGI002


def run():
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    opt = SignSGD(model.parameters())
    loss = model(torch.randn(3, 4)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


if __name__ == "__main__":
    print(run())

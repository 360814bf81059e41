"""``p.add_(p.grad, alpha=-lr)`` over ``named_parameters()`` without ``no_grad`` (the optimizer's own
update, copied out of it): in-place on a leaf that requires grad."""
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def run():
    torch.manual_seed(0)
    model = MLP()
    out = model(torch.randn(3, 4))
    out.pow(2).mean().backward()
    for name, p in model.named_parameters():
        if p.grad is not None:
            with torch.no_grad():
                p.add_(p.grad, alpha=-0.01)  # expect: AGI002
    return out


if __name__ == "__main__":
    print(run())

"""A helper taking the model: it iterates ``model.parameters()`` (leaves that require grad) and updates
them in place without ``no_grad``, so the first update raises."""
import torch
from torch import nn


def sgd_step(model, lr):
    for p in model.parameters():
        with torch.no_grad():
            p.sub_(lr * p.grad)  # expect: AGI002


def run():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    x, y = torch.randn(5, 2), torch.randn(5, 1)
    pred = model(x)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    sgd_step(model, 0.1)
    return pred


if __name__ == "__main__":
    print(run())

"""Magnitude pruning: the rows to prune are picked and kept as a list of views of the weight under
``no_grad``, and zeroed after each optimizer step -- with grad mode on. Each row is a view made under
no_grad of a parameter: torch refuses the write at once."""
import torch
from torch import nn


def train(steps=3):
    torch.manual_seed(0)
    model = nn.Linear(8, 6)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(16, 8), torch.randn(16, 6)
    with torch.no_grad():
        norms = model.weight.norm(dim=1)
        pruned = [model.weight[i] for i in norms.argsort()[:2].tolist()]
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        for row in pruned:
            row.zero_()  # expect: AGI004
    return model


def run():
    return train().weight


if __name__ == "__main__":
    print(run())

"""Clamping predictions in place for a metric after ``F.mse_loss`` saved them: backward raises."""
import torch
import torch.nn.functional as F
from torch import nn


def run():
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(4, 2), torch.rand(4, 1)
    opt.zero_grad()
    pred = model(x)
    loss = F.mse_loss(pred, y)
    pred = pred.clamp(0.0, 1.0)  # expect: AGI001
    accuracy = ((pred - y).abs() < 0.25).float().mean()
    loss.backward()
    opt.step()
    return pred, accuracy


if __name__ == "__main__":
    print(run())

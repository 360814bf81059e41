"""A training step that backpropagates an auxiliary loss through the same graph after ``opt.step()``:
the second layer saved its weight (its input requires grad), the step changed it in place."""
import torch
from torch import nn


def run():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(8, 3), torch.randn(8, 1)
    for _ in range(2):
        opt.zero_grad()
        pred = model(x)
        loss = nn.functional.mse_loss(pred, y)
        aux = pred.abs().mean()
        loss.backward(retain_graph=True)
        opt.step()  # expect: AGI001
        aux.backward()
    return pred


if __name__ == "__main__":
    print(run())

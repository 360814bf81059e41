"""Manual SGD over the trainable parameters, collected by a list comprehension and handed to a helper
that updates them without ``torch.no_grad()``: each is a leaf that requires grad."""
import torch
from torch import nn


def sgd_update(params, lr):
    for p in params:
        with torch.no_grad():
            p.sub_(lr * p.grad)  # expect: AGI002


def run():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    trainable = [p for p in model.parameters() if p.requires_grad]
    loss = model(torch.randn(5, 4)).pow(2).mean()
    loss.backward()
    sgd_update(trainable, 0.1)
    return loss


if __name__ == "__main__":
    print(run())

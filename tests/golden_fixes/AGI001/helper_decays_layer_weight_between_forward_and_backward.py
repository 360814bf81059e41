"""A training step that applies decoupled weight decay to the classifier head through a helper,
``decay_(model.head, wd)``, after the forward but before the backward. The head's Linear saved its
weight (its input requires grad through the backbone), so ``layer.weight.mul_()`` under no_grad still
bumps the weight's version and ``loss.backward()`` raises."""
import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


def decay_(layer, wd):
    with torch.no_grad():
        layer.weight.mul_(1.0 - wd)  # expect: AGI001


def run():
    torch.manual_seed(0)
    model = Classifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(8, 6), torch.randint(0, 3, (8,))
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    decay_(model.head, 1e-2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return logits


if __name__ == "__main__":
    print(run())

"""A classifier that returns probabilities (softmax saves its result); the training step clamps them in
place before ``log`` and ``F.nll_loss``, so backward finds softmax's saved output changed. (``F.nll_loss``
returns one tensor, though the ATen op behind it returns two.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProbabilityClassifier(nn.Module):
    def __init__(self, features, classes):
        super().__init__()
        self.hidden = nn.Linear(features, 16)
        self.out = nn.Linear(16, classes)

    def forward(self, x):
        return F.softmax(self.out(torch.relu(self.hidden(x))), dim=-1)


def training_step(model, optimizer, x, y):
    probs = model(x)
    probs = probs.clamp(min=1e-6)  # expect: AGI001
    loss = F.nll_loss(torch.log(probs), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss


def run():
    torch.manual_seed(0)
    model = ProbabilityClassifier(8, 3)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    return training_step(model, optimizer, torch.randn(5, 8), torch.randint(0, 3, (5,)))


if __name__ == "__main__":
    print(run().item())

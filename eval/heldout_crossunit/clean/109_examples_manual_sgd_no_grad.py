# Source: pytorch/examples PR #779 (p.add_ on a parameter outside no_grad; the manual update is
# legal once it runs under torch.no_grad()).
# Clean look-alike of hazard/011: the helper updates the parameters under no_grad.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 10))


def sgd_update(model, lr):
    with torch.no_grad():
        for p in model.parameters():
            p.add_(p.grad, alpha=-lr)


def train_batch(data, target, lr=0.5):
    model.zero_grad()
    loss = nn.functional.cross_entropy(model(data), target)
    loss.backward()
    sgd_update(model, lr)
    return loss.item()


train_batch(torch.randint(0, 10, (2, 3)), torch.tensor([1, 2]))
print("done")

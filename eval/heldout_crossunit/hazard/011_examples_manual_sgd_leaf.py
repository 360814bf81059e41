# Source: pytorch/examples PR #779 ([word_language_model] p.add_(-lr, p.grad) throws "a leaf
# Variable that requires grad is being used in an in-place operation").
# Unit kind: function -- the manual SGD update lives in its own helper.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 10))


def sgd_update(model, lr):
    for p in model.parameters():
        p.add_(p.grad, alpha=-lr)  # culprit


def train_batch(data, target, lr=0.5):
    model.zero_grad()
    loss = nn.functional.cross_entropy(model(data), target)
    loss.backward()
    sgd_update(model, lr)
    return loss.item()


train_batch(torch.randint(0, 10, (2, 3)), torch.tensor([1, 2]))
print("done")

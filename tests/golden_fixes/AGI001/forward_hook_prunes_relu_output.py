"""Activation pruning with a forward hook that the model registers on its own ReLU: the hook zeroes the
weakest channels of the ReLU's output in place, but ReLU saved that output (its backward reads the
result), so the training step's backward raises."""
import torch
import torch.nn as nn


def prune_weak_channels(module, inputs, output):
    output = output.clone()
    weak = output.mean(dim=0) < 0.1
    output[:, weak] = 0  # expect: AGI001
    return output


class PrunedMlp(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.hidden = nn.Linear(8, width)
        self.act = nn.ReLU()
        self.head = nn.Linear(width, 3)
        self.act.register_forward_hook(prune_weak_channels)

    def forward(self, x):
        return self.head(self.act(self.hidden(x)))


def train_step(model, optimizer, x, y):
    optimizer.zero_grad()
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    return logits


def run():
    torch.manual_seed(0)
    model = PrunedMlp()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))
    return train_step(model, optimizer, x, y)


if __name__ == "__main__":
    print(run())

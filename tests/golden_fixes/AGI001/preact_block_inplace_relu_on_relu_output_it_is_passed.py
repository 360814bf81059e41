"""A pre-activation residual block applies its ``nn.ReLU(inplace=True)`` to the tensor it is passed, and
the network hands it the output of ``F.relu``, which relu saved for backward: the block's in-place ReLU
overwrites it (a no-op numerically, but its version moves) and backward raises."""
import torch
import torch.nn.functional as F
from torch import nn


class PreActBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.act = nn.ReLU()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.fc(self.act(x))  # expect: AGI001


class Student(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(10, 16)
        self.block = PreActBlock(16)
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        h = F.relu(self.stem(x))
        return self.head(self.block(h))


def run():
    torch.manual_seed(0)
    model = Student()
    logits = model(torch.randn(8, 10))
    F.cross_entropy(logits, torch.randint(0, 5, (8,))).backward()
    return logits


if __name__ == "__main__":
    print(run())

"""``batch_norm`` saves its *input* (not its output): an in-place ReLU on the input after the norm breaks
backward, while one on the output would be fine."""
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        h = self.fc(x)
        y = self.bn(h)
        h = F.relu(h)  # expect: AGI001
        return y * h


def run():
    torch.manual_seed(0)
    net = Net()
    out = net(torch.randn(5, 3))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())

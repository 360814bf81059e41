"""A timm-style block that takes its layers as classes (``act_layer=nn.ReLU``, ``gate_layer=nn.Sigmoid``)
and builds the activation with ``inplace=True``: applied to the sigmoid gate's output, it overwrites the
tensor the sigmoid saved for its backward."""
import torch
from torch import nn


class GatedMlp(nn.Module):
    def __init__(self, dim, hidden, act_layer=nn.ReLU, gate_layer=nn.Sigmoid):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.gate = gate_layer()
        self.act = act_layer()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        g = self.gate(self.fc1(x))
        h = self.act(g)  # expect: AGI001
        return self.fc2(h)


def run():
    torch.manual_seed(0)
    model = GatedMlp(6, 12)
    out = model(torch.randn(4, 6))
    out.pow(2).mean().backward()
    return out


if __name__ == "__main__":
    print(run())

"""Per-layer activations kept in a ModuleList built by a generator expression, each built in place, and
applied after a sigmoid: the in-place activation overwrites the result the sigmoid saved."""
import torch
from torch import nn


class GatedStack(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.gates = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])
        self.acts = nn.ModuleList(nn.Hardtanh(0.0, 0.9) for _ in range(depth))

    def forward(self, x):
        for gate, act in zip(self.gates, self.acts):
            x = torch.sigmoid(gate(x))
            x = act(x)  # expect: AGI001
        return x


def run():
    torch.manual_seed(0)
    model = GatedStack(4, 2)
    out = model(torch.randn(3, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())

# intended: AGI001
# A gated residual unit returns both its output and its gate (for an auxiliary
# gate-usage loss). The caller rescales the returned gate in place; sigmoid saved it as its
# result and the gating multiplication saved it as an operand.
import torch
import torch.nn as nn


def gated(x, gate_layer):
    g = torch.sigmoid(gate_layer(x))
    return x * g, g


class GatedNet(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.inp = nn.Linear(d, d)
        self.gate = nn.Linear(d, d)
        self.out = nn.Linear(d, 1)

    def forward(self, x, target_usage=0.3):
        h = torch.relu(self.inp(x))
        y, g = gated(h, self.gate)
        g -= target_usage  # culprit
        return self.out(y + h), g.pow(2).mean()


def main():
    torch.manual_seed(0)
    net = GatedNet(6)
    x = torch.randn(10, 6)
    pred, aux = net(x)
    loss = (pred - 1).pow(2).mean() + 0.01 * aux
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()

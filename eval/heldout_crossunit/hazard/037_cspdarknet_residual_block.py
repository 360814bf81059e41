# Source: argusswift/YOLOv4-pytorch#247 (activate='relu' in CSPDarknet53.py; fixed by changing
# out += residual to out = out + residual).
# Unit kind: class -- Convolutional picks its activation from a table; CSPStage adds the residual.
import torch
import torch.nn as nn

torch.manual_seed(0)
ACTIVATIONS = {"relu": nn.ReLU, "leaky": nn.LeakyReLU}


class Convolutional(nn.Module):
    def __init__(self, cin, cout, k, activate="relu"):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = ACTIVATIONS[activate]()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class CSPStage(nn.Module):
    def __init__(self, c, n=2):
        super().__init__()
        self.blocks = nn.ModuleList(
            [nn.Sequential(Convolutional(c, c, 1), Convolutional(c, c, 3)) for _ in range(n)])

    def forward(self, x):
        for block in self.blocks:
            residual = x
            out = block(x)
            out += residual  # culprit
            x = out
        return x


CSPStage(4)(torch.randn(2, 4, 5, 5)).sum().backward()
print("done")

import torch.nn as nn

from activations import ACTIVATE


class Convolutional(nn.Module):
    def __init__(self, cin, cout, k, activate="mish"):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=False)
        self.norm = nn.BatchNorm2d(cout)
        self.act = ACTIVATE[activate]()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))   # ReLU saves its result

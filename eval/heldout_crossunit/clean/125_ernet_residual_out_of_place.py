# Source: iMED-Lab/ER-Net PR #3 ("replace out+=residual with out=out+residual").
# Clean look-alike of hazard/036.
# Unit kind: class.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvBnRelu(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv3d(cin, cout, 3, padding=1)
        self.bn = nn.BatchNorm3d(cout)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class ResEncoder(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = ConvBnRelu(cin, cout)
        self.conv2 = ConvBnRelu(cout, cout)
        self.conv1x1 = nn.Conv3d(cin, cout, 1)

    def forward(self, x):
        residual = self.conv1x1(x)
        out = self.conv2(self.conv1(x))
        out = out + residual
        return out


ResEncoder(1, 2)(torch.randn(2, 1, 4, 4, 4)).sum().backward()
print("done")

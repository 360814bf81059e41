# Source: iMED-Lab/ER-Net PR #3 ("out+=residual is a inplace operation" -> "output 0 of
# ReluBackward0, is at version 1; expected version 0").
# Unit kind: class -- ConvBnRelu ends with F.relu (saves its result), ResEncoder adds into it.
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
        out += residual  # culprit
        return out


ResEncoder(1, 2)(torch.randn(2, 1, 4, 4, 4)).sum().backward()
print("done")

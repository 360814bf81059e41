# Source: https://github.com/osmr/imgclsmob/issues/13 (Inplace ReLU's are unnecessary and wrong: `self.activ = nn.ReLU(inplace=True)` ... `x = self.activ(x)` modifies the old copy of x; removing inplace=True fixes it)
# Unit kind: cross-class
import torch
import torch.nn as nn

torch.manual_seed(0)


class TanhGate(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 1)

    def forward(self, x):
        return torch.tanh(self.conv(x))         # tanh saves its result


class PreActConvBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.activ = nn.Hardtanh(-0.5, 0.5, inplace=True)  # culprit
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return self.conv(self.activ(x))


class XceptionUnit(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.gate = TanhGate(ch)
        self.body = PreActConvBlock(ch)

    def forward(self, x):
        return self.body(self.gate(x)) + x


unit = XceptionUnit(3)
out = unit(torch.randn(2, 3, 6, 6))
out.mean().backward()
print("ok", tuple(out.shape))

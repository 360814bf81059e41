# source: https://github.com/osmr/imgclsmob/blob/master/pytorch/pytorchcv/models/xception.py (XceptionUnit after the fix: identity = x.clone())
# Xception middle-flow units (no identity conv): the body's leading inplace ReLU runs on x, the skip uses a clone.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DwsConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels, activate):
        super().__init__()
        self.activate = activate
        if self.activate:
            self.activ = nn.ReLU(inplace=True)
        self.dw_conv = nn.Conv2d(in_channels, in_channels, 3, padding=1, groups=in_channels, bias=False)
        self.pw_conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        if self.activate:
            x = self.activ(x)
        return self.bn(self.pw_conv(self.dw_conv(x)))


class XceptionUnit(nn.Module):
    def __init__(self, channels, reps=3):
        super().__init__()
        self.body = nn.Sequential(*[DwsConvBlock(channels, channels, activate=True) for _ in range(reps)])

    def forward(self, x):
        identity = x.clone()
        x = self.body(x)
        x = x + identity
        return x


class MiddleFlow(nn.Module):
    def __init__(self, channels=16, units=3, num_classes=5):
        super().__init__()
        self.entry = nn.Sequential(nn.Conv2d(3, channels, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(channels))
        self.units = nn.Sequential(*[XceptionUnit(channels) for _ in range(units)])
        self.activ = nn.ReLU(inplace=True)
        self.output = nn.Linear(channels, num_classes)

    def forward(self, x):
        x = self.activ(self.units(self.entry(x)))
        return self.output(F.adaptive_avg_pool2d(x, 1).flatten(1))


def main():
    torch.manual_seed(0)
    net = MiddleFlow()
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    x, y = torch.randn(2, 3, 16, 16), torch.tensor([1, 4])
    for step in range(2):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()

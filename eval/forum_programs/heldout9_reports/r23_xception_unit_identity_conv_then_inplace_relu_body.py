# source: https://github.com/osmr/imgclsmob/issues/13 (pytorchcv Xception: DwsConvBlock pre-activation nn.ReLU(inplace=True))
# Xception entry-flow unit: the 1x1 identity conv reads x, then the body's leading inplace ReLU rewrites the same x.
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
            x = self.activ(x)  # culprit
        return self.bn(self.pw_conv(self.dw_conv(x)))


class XceptionUnit(nn.Module):
    def __init__(self, in_channels, out_channels, stride, reps, start_with_relu=True):
        super().__init__()
        self.resize_identity = (in_channels != out_channels) or (stride != 1)
        if self.resize_identity:
            self.identity_conv = nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False),
                                               nn.BatchNorm2d(out_channels))
        self.body = nn.Sequential()
        for i in range(reps):
            self.body.add_module("block{}".format(i + 1), DwsConvBlock(
                in_channels if i == 0 else out_channels, out_channels,
                activate=start_with_relu if i == 0 else True))
        if stride != 1:
            self.body.add_module("pool", nn.MaxPool2d(kernel_size=3, stride=stride, padding=1))

    def forward(self, x):
        if self.resize_identity:
            identity = self.identity_conv(x)
        else:
            identity = x
        x = self.body(x)
        return x + identity


def main():
    torch.manual_seed(0)
    stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, bias=False), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
    stage1 = XceptionUnit(8, 16, stride=2, reps=2, start_with_relu=False)
    stage2 = XceptionUnit(16, 32, stride=2, reps=2, start_with_relu=True)
    head = nn.Linear(32, 5)
    params = [p for m in (stem, stage1, stage2, head) for p in m.parameters()]
    opt = torch.optim.SGD(params, lr=0.01)
    x, y = torch.randn(2, 3, 33, 33), torch.tensor([1, 4])
    feats = stage2(stage1(stem(x)))
    loss = F.cross_entropy(head(feats.mean((2, 3))), y)
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()

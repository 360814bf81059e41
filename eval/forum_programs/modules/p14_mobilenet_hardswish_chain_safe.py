# MobileNetV3-style inverted residual, activations built from a class with inplace=True
import torch
import torch.nn as nn


class InvertedResidual(nn.Module):
    def __init__(self, cin, cexp, cout, act_layer=nn.Hardswish, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.use_res = cin == cout
        self.expand = nn.Sequential(nn.Conv2d(cin, cexp, 1, bias=False), norm_layer(cexp), act_layer(inplace=True))
        self.dw = nn.Conv2d(cexp, cexp, 3, padding=1, groups=cexp, bias=False)
        self.bn_dw = norm_layer(cexp)
        self.act = act_layer(inplace=True)
        self.project = nn.Sequential(nn.Conv2d(cexp, cout, 1, bias=False), norm_layer(cout))

    def forward(self, x):
        out = self.expand(x)
        out = self.dw(out)
        out = self.bn_dw(out)
        out = self.act(out)
        out = self.project(out)
        if self.use_res:
            out += x
        return out


def main():
    torch.manual_seed(0)
    net = nn.Sequential(InvertedResidual(4, 16, 4), InvertedResidual(4, 16, 8, act_layer=nn.ReLU6))
    x = torch.randn(2, 4, 8, 8, requires_grad=True)
    net(x).sum().backward()
    print(x.grad.norm())


if __name__ == "__main__":
    main()

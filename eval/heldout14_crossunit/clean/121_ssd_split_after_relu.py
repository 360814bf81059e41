# Source: https://github.com/zhangkaij/ssd512/issues/2 (zhangkaij/ssd512#2: the in-place ReLUs of ssd.py's VGG base)
# Unit kind: cross-class
# Look-alike of hazard/022: the split index taps conv4_3 after its in-place ReLU, so
# L2Norm saves the ReLU's result and the next VGG layer (max-pool) writes nothing.
import torch
import torch.nn as nn

torch.manual_seed(0)


def vgg(cfg, in_ch=3):
    layers = []
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(2))
        else:
            layers += [nn.Conv2d(in_ch, v, 3, padding=1), nn.ReLU(inplace=True)]
            in_ch = v
    return layers


class L2Norm(nn.Module):
    def __init__(self, ch, scale=20.0):
        super().__init__()
        self.weight = nn.Parameter(torch.full((ch,), scale))

    def forward(self, x):
        norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + 1e-10
        return self.weight.view(1, -1, 1, 1) * x / norm


class SSD(nn.Module):
    def __init__(self, cfg, split):
        super().__init__()
        self.vgg = nn.ModuleList(vgg(cfg))
        self.l2norm = L2Norm(cfg[-2] if cfg[-1] == "M" else cfg[-1])
        self.split = split
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        for k in range(self.split):
            x = self.vgg[k](x)
        source = self.l2norm(x)
        for k in range(self.split, len(self.vgg)):
            x = self.vgg[k](x)
        return self.head(source).sum() + x.sum()


SSD([4, "M", 8, "M"], split=5)(torch.randn(1, 3, 8, 8)).backward()
print("done")

# intended: safe
# Feature pyramid top-down pathway: lateral 1x1 conv outputs are updated in place with the
# upsampled coarser level. Conv saves its input, nearest upsampling saves only sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyFPN(nn.Module):
    def __init__(self, chans=(8, 16, 32), out=16):
        super().__init__()
        self.stem = nn.Conv2d(3, chans[0], 3, stride=2, padding=1)
        self.down1 = nn.Conv2d(chans[0], chans[1], 3, stride=2, padding=1)
        self.down2 = nn.Conv2d(chans[1], chans[2], 3, stride=2, padding=1)
        self.lat = nn.ModuleList([nn.Conv2d(c, out, 1) for c in chans])
        self.smooth = nn.ModuleList([nn.Conv2d(out, out, 3, padding=1) for _ in chans])

    def forward(self, x):
        c3 = F.relu(self.stem(x))
        c4 = F.relu(self.down1(c3))
        c5 = F.relu(self.down2(c4))
        p5 = self.lat[2](c5)
        p4 = self.lat[1](c4)
        p4 += F.interpolate(p5, size=p4.shape[-2:], mode="nearest")
        p3 = self.lat[0](c3)
        p3 += F.interpolate(p4, size=p3.shape[-2:], mode="nearest")
        return [s(p) for s, p in zip(self.smooth, (p3, p4, p5))]


def main():
    torch.manual_seed(0)
    fpn = TinyFPN()
    x = torch.randn(2, 3, 32, 32)
    feats = fpn(x)
    loss = sum(f.pow(2).mean() for f in feats)
    loss.backward()
    print([tuple(f.shape) for f in feats], loss.item())


if __name__ == "__main__":
    main()

# source: timm NF-ResNet / ResNetV2 pre-activation bottleneck built from act_layer / norm_layer config
# description: with norm_layer=Identity (normalizer-free) the inplace act_layer overwrites x after the downsample conv saved it
from functools import partial
import torch
import torch.nn as nn


class PreActBlock(nn.Module):
    def __init__(self, in_chs, out_chs, stride=1, act_layer=nn.ReLU, norm_layer=nn.BatchNorm2d):
        super().__init__()
        self.norm1 = norm_layer(in_chs) if norm_layer is not nn.Identity else nn.Identity()
        self.act1 = act_layer()
        self.downsample = None
        if stride != 1 or in_chs != out_chs:
            self.downsample = nn.Conv2d(in_chs, out_chs, 1, stride=stride, bias=False)
        self.conv1 = nn.Conv2d(in_chs, out_chs, 3, stride=stride, padding=1, bias=False)
        self.norm2 = norm_layer(out_chs) if norm_layer is not nn.Identity else nn.Identity()
        self.act2 = act_layer()
        self.conv2 = nn.Conv2d(out_chs, out_chs, 3, padding=1, bias=False)

    def forward(self, x):
        shortcut = x
        if self.downsample is not None:
            shortcut = self.downsample(x)
        out = self.act1(self.norm1(x))  # culprit
        out = self.conv1(out)
        out = self.conv2(self.act2(self.norm2(out)))
        return out + shortcut


def build_stage(cfg):
    act = partial(nn.ReLU, inplace=True) if cfg["act_inplace"] else nn.ReLU
    norm = {"bn": nn.BatchNorm2d, "none": nn.Identity}[cfg["norm"]]
    return nn.Sequential(
        PreActBlock(cfg["in_chs"], cfg["out_chs"], stride=2, act_layer=act, norm_layer=norm),
        PreActBlock(cfg["out_chs"], cfg["out_chs"], act_layer=act, norm_layer=norm),
    )


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = dict(in_chs=4, out_chs=8, act_inplace=True, norm="none")
    stem = nn.Conv2d(3, 4, 3, padding=1)
    net = nn.Sequential(stem, build_stage(cfg), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
    x = torch.randn(2, 3, 8, 8)
    loss = nn.functional.cross_entropy(net(x), torch.tensor([0, 2]))
    loss.backward()

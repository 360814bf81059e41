# CBAM-style spatial attention; clamping the attention map in-place to keep a floor
import torch
import torch.nn as nn


class SpatialGate(nn.Module):
    def __init__(self, k=7, floor=0.1):
        super().__init__()
        self.conv = nn.Conv2d(2, 1, k, padding=k // 2, bias=False)
        self.floor = floor

    def forward(self, x):
        pooled = torch.cat([x.max(1, keepdim=True)[0], x.mean(1, keepdim=True)], dim=1)
        att = self.conv(pooled).sigmoid()
        att.clamp_(min=self.floor)  # culprit
        return x * att


def main():
    torch.manual_seed(0)
    stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True))
    gate = SpatialGate()
    y = gate(stem(torch.randn(2, 3, 8, 8)))
    y.mean().backward()
    print(gate.conv.weight.grad.norm())


if __name__ == "__main__":
    main()

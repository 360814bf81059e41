# source: https://github.com/zylo117/Yet-Another-EfficientDet-Pytorch/issues/503 (maintainer's fix: run the ReLU on self.weight.clone())
# Three-input BiFPN fast-normalised fusion node; the inplace ReLU now runs on a clone of the fusion weights.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryEfficientSwish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class FastFusion3(nn.Module):
    def __init__(self, channels, epsilon=1e-4):
        super().__init__()
        self.epsilon = epsilon
        self.p4_w2 = nn.Parameter(torch.ones(3, dtype=torch.float32), requires_grad=True)
        self.p4_w2_relu = nn.ReLU(inplace=True)
        self.swish = MemoryEfficientSwish()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, p4_in, p4_up, p3_out):
        p4_w2 = self.p4_w2_relu(self.p4_w2.clone())
        weight = p4_w2 / (torch.sum(p4_w2, dim=0) + self.epsilon)
        p3_down = F.max_pool2d(p3_out, 3, stride=2, padding=1)
        fused = weight[0] * p4_in + weight[1] * p4_up + weight[2] * p3_down
        return self.conv(self.swish(fused))


class BiFPNLayer(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.p3_conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.p4_conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.fusion = FastFusion3(ch)

    def forward(self, p3, p4):
        p4_up = self.p4_conv(p4)
        p3_out = self.p3_conv(p3 + F.interpolate(p4_up, scale_factor=2, mode="nearest"))
        p4_out = self.fusion(p4, p4_up, p3_out)
        return p3_out, p4_out


def main():
    torch.manual_seed(0)
    layer = BiFPNLayer()
    opt = torch.optim.AdamW(layer.parameters(), lr=1e-3)
    p3, p4 = torch.randn(2, 8, 16, 16), torch.randn(2, 8, 8, 8)
    for step in range(3):
        opt.zero_grad()
        p3_out, p4_out = layer(p3, p4)
        loss = p3_out.pow(2).mean() + p4_out.abs().mean()
        loss.backward()
        opt.step()
        print(step, loss.item(), layer.fusion.p4_w2.grad is not None)


if __name__ == "__main__":
    main()

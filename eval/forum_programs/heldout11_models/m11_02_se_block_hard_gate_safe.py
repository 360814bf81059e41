# source: squeeze-excitation block (timm SqueezeExcite / EfficientNet) with gate rescale
# description: sigmoid gate is rescaled out-of-place, and in-place ReLU sits on a 1x1 conv output; runs cleanly
import torch
import torch.nn as nn


class SqueezeExcite(nn.Module):
    def __init__(self, channels, rd_ratio=0.25, gate_scale=2.0):
        super().__init__()
        rd = max(1, int(channels * rd_ratio))
        self.conv_reduce = nn.Conv2d(channels, rd, 1)
        self.act = nn.ReLU(inplace=True)
        self.conv_expand = nn.Conv2d(rd, channels, 1)
        self.gate_scale = gate_scale

    def _gate(self, x_se):
        gate = torch.sigmoid(x_se)
        gate = gate.mul(self.gate_scale)
        return gate

    def forward(self, x):
        x_se = x.mean((2, 3), keepdim=True)
        x_se = self.conv_reduce(x_se)
        x_se = self.act(x_se)
        x_se = self.conv_expand(x_se)
        return x * self._gate(x_se)


if __name__ == "__main__":
    torch.manual_seed(0)
    block = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True), SqueezeExcite(8))
    x = torch.randn(2, 3, 8, 8)
    loss = block(x).pow(2).mean()
    loss.backward()

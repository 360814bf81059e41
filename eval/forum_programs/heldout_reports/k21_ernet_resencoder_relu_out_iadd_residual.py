# source: https://github.com/iMED-Lab/ER-Net/pull/3 (ResEncoder3d: out = relu(bn2(conv2(out))); out += residual)
import torch
import torch.nn as nn


class ResEncoder3d(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv1 = nn.Conv3d(in_channels, out_channels, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm3d(out_channels)
        self.conv2 = nn.Conv3d(out_channels, out_channels, kernel_size=3, padding=1)
        self.bn2 = nn.BatchNorm3d(out_channels)
        self.relu = nn.ReLU(inplace=False)
        self.conv1x1 = nn.Conv3d(in_channels, out_channels, kernel_size=1)

    def forward(self, x):
        residual = self.conv1x1(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out += residual  # culprit
        out = self.relu(out)
        return out


class ERNetEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc_input = ResEncoder3d(1, 4)
        self.encoder1 = ResEncoder3d(4, 8)
        self.down = nn.MaxPool3d(2, 2)
        self.final = nn.Conv3d(8, 2, kernel_size=1)

    def forward(self, x):
        enc_input = self.enc_input(x)
        down1 = self.down(enc_input)
        enc1 = self.encoder1(down1)
        return self.final(enc1)


torch.manual_seed(0)
net = ERNetEncoder()
x = torch.randn(1, 1, 4, 4, 4)
out = net(x)
loss = nn.functional.cross_entropy(out, torch.randint(0, 2, (1, 2, 2, 2)))
loss.backward()
print(loss.item())

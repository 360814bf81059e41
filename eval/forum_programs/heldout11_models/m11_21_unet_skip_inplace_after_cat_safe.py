# source: U-Net decoder (milesial Pytorch-UNet style) with concatenated skip connections
# description: upsampled features are centered in-place for an auxiliary head after being consumed only by torch.cat, which saves no tensors; runs cleanly
import torch
import torch.nn as nn
import torch.nn.functional as F


class Up(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.up = nn.ConvTranspose2d(cin, cin // 2, 2, stride=2)
        self.conv = nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    def forward(self, x1, skip):
        x1 = self.up(x1)
        x = torch.cat([skip, x1], dim=1)
        x1.sub_(x1.mean())
        return self.conv(x), x1


class UNetLite(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.inc = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(inplace=True))
        self.down = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.ReLU(inplace=True))
        self.up1 = Up(2 * ch, ch)
        self.outc = nn.Conv2d(ch, 2, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        y, aux = self.up1(x2, x1)
        return self.outc(y), aux


if __name__ == "__main__":
    torch.manual_seed(0)
    net = UNetLite()
    x = torch.randn(2, 1, 8, 8)
    target = torch.randint(0, 2, (2, 8, 8))
    logits, aux = net(x)
    loss = F.cross_entropy(logits, target) + 0.01 * aux.abs().mean()
    loss.backward()

# source: Attention U-Net (Oktay et al.) attention gate on encoder skip connections
# description: the skip tensor is gated in-place with `skip *= alpha` after the W_x conv saved it as input
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionGate(nn.Module):
    def __init__(self, f_g, f_l, f_int):
        super().__init__()
        self.W_g = nn.Sequential(nn.Conv2d(f_g, f_int, 1), nn.BatchNorm2d(f_int))
        self.W_x = nn.Conv2d(f_l, f_int, 1)
        self.psi = nn.Sequential(nn.Conv2d(f_int, 1, 1), nn.BatchNorm2d(1), nn.Sigmoid())

    def forward(self, g, skip):
        alpha = self.psi(F.relu(self.W_g(g) + self.W_x(skip)))
        skip *= alpha  # culprit
        return skip


class UNetLite(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.enc1 = nn.Conv2d(1, ch, 3, padding=1)
        self.enc2 = nn.Conv2d(ch, 2 * ch, 3, padding=1)
        self.up = nn.ConvTranspose2d(2 * ch, ch, 2, stride=2)
        self.gate = AttentionGate(ch, ch, ch)
        self.dec = nn.Conv2d(2 * ch, ch, 3, padding=1)
        self.head = nn.Conv2d(ch, 2, 1)

    def forward(self, x):
        s1 = self.enc1(x)
        b = F.relu(self.enc2(F.max_pool2d(F.relu(s1), 2)))
        u = self.up(b)
        s1 = self.gate(u, s1)
        return self.head(F.relu(self.dec(torch.cat([u, s1], dim=1))))


if __name__ == "__main__":
    torch.manual_seed(0)
    net = UNetLite()
    x = torch.randn(2, 1, 8, 8)
    target = torch.randint(0, 2, (2, 8, 8))
    loss = F.cross_entropy(net(x), target)
    loss.backward()

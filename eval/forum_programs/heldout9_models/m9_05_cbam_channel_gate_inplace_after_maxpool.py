# source: CBAM (Jongchan/attention-module cbam.py) ChannelGate + SpatialGate inside a ResNet BasicBlock, gates applied in place
# ResNet basic block with CBAM; the channel gate multiplies the BN output in place after max-pooling read it.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChannelGate(nn.Module):
    def __init__(self, ch, reduction=4):
        super().__init__()
        self.mlp = nn.Sequential(nn.Flatten(), nn.Linear(ch, ch // reduction), nn.ReLU(), nn.Linear(ch // reduction, ch))

    def forward(self, x):
        avg = self.mlp(F.adaptive_avg_pool2d(x, 1))
        mx = self.mlp(F.adaptive_max_pool2d(x, 1))
        scale = torch.sigmoid(avg + mx)[:, :, None, None]
        x *= scale  # culprit
        return x


class SpatialGate(nn.Module):
    def __init__(self, k=7):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(2, 1, k, padding=k // 2, bias=False), nn.BatchNorm2d(1))

    def forward(self, x):
        pooled = torch.cat([x.max(1, keepdim=True)[0], x.mean(1, keepdim=True)], dim=1)
        return x * torch.sigmoid(self.conv(pooled))


class BasicBlockCBAM(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)
        self.relu = nn.ReLU(inplace=True)
        self.cbam = nn.Sequential(ChannelGate(ch), SpatialGate())

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.cbam(out)
        out += x
        return self.relu(out)


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), BasicBlockCBAM(16), BasicBlockCBAM(16),
                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
x, y = torch.randn(4, 3, 16, 16), torch.randint(0, 5, (4,))
loss = F.cross_entropy(net(x), y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())

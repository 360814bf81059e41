# source: NFNet (deepmind nfnets / timm nfnet.py) NormFreeBlock whose SE uses a 2*sigmoid gate, gain applied in place
# Normalizer-free bottleneck with scaled-WS convs and an SE gate rescaled by 2 in place on the sigmoid output.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledStdConv2d(nn.Conv2d):
    def forward(self, x):
        w = F.batch_norm(self.weight.reshape(1, self.out_channels, -1), None, None, training=True, eps=1e-5)
        return F.conv2d(x, w.reshape_as(self.weight), self.bias, self.stride, self.padding)


class SqueezeExcite(nn.Module):
    def __init__(self, ch, rd_ratio=0.5, gain=2.0):
        super().__init__()
        self.fc1 = nn.Conv2d(ch, int(ch * rd_ratio), 1)
        self.fc2 = nn.Conv2d(int(ch * rd_ratio), ch, 1)
        self.gain = gain

    def forward(self, x):
        s = self.fc2(F.relu(self.fc1(x.mean((2, 3), keepdim=True))))
        s = torch.sigmoid(s)
        s *= self.gain  # culprit
        return x * s


class NormFreeBlock(nn.Module):
    def __init__(self, ch, alpha=0.2, beta=1.0):
        super().__init__()
        self.alpha, self.beta = alpha, beta
        self.conv1 = ScaledStdConv2d(ch, ch // 2, 1)
        self.conv2 = ScaledStdConv2d(ch // 2, ch // 2, 3, padding=1)
        self.conv3 = ScaledStdConv2d(ch // 2, ch, 1)
        self.se = SqueezeExcite(ch)
        self.skipinit_gain = nn.Parameter(torch.zeros(()))

    def forward(self, x):
        out = F.gelu(x) / self.beta
        out = self.conv3(F.gelu(self.conv2(F.gelu(self.conv1(out)))))
        out = self.se(out)
        return x + out * self.alpha * self.skipinit_gain


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), NormFreeBlock(16), NormFreeBlock(16),
                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, y = torch.randn(2, 3, 12, 12), torch.tensor([0, 3])
loss = F.cross_entropy(net(x), y)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())

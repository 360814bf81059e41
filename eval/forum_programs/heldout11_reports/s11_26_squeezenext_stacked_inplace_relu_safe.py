# source: https://github.com/osmr/imgclsmob/issues/5
# Fixed SqueezeNext unit: the second activation on the identity branch is applied out of place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvBlock(nn.Module):
    def __init__(self, cin, cout, k, padding=0):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=padding, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.activ = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.activ(self.bn(self.conv(x)))


class SqnxtUnit(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = ConvBlock(cin, cin // 2, 1)
        self.conv2 = ConvBlock(cin // 2, cin // 4, 1)
        self.conv3 = ConvBlock(cin // 4, cin // 2, 3, padding=1)
        self.conv4 = ConvBlock(cin // 2, cout, 1)
        self.identity_conv = ConvBlock(cin, cout, 1)
        self.activ = nn.ReLU(inplace=True)

    def forward(self, x):
        identity = self.identity_conv(x)
        identity = F.relu(identity, inplace=False)
        x = self.conv1(x)
        x = self.conv2(x)
        x = self.conv3(x)
        x = self.conv4(x)
        x = x + identity
        x = self.activ(x)
        return x


net = nn.Sequential(SqnxtUnit(8, 8), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 3))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(2, 8, 5, 5)
y = torch.tensor([0, 2])
loss = F.cross_entropy(net(x), y)
opt.zero_grad()
loss.backward()
opt.step()
print("done")

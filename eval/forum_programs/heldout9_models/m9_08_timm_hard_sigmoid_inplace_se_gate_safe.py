# source: timm layers/activations.py hard_sigmoid(inplace=True) used as the gate_layer of an SE module in a MobileNet block
# SE module whose gate is timm's in-place hard sigmoid chain (add_/clamp_/div_) on the fc2 conv output.
import torch
import torch.nn as nn
import torch.nn.functional as F


def hard_sigmoid(x, inplace: bool = False):
    if inplace:
        return x.add_(3.).clamp_(0., 6.).div_(6.)
    return F.relu6(x + 3.) / 6.


class HardSigmoid(nn.Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return hard_sigmoid(x, self.inplace)


class SqueezeExcite(nn.Module):
    def __init__(self, ch, rd_ch, gate_layer=HardSigmoid):
        super().__init__()
        self.conv_reduce = nn.Conv2d(ch, rd_ch, 1)
        self.act1 = nn.ReLU(inplace=True)
        self.conv_expand = nn.Conv2d(rd_ch, ch, 1)
        self.gate = gate_layer(inplace=True)

    def forward(self, x):
        x_se = x.mean((2, 3), keepdim=True)
        x_se = self.act1(self.conv_reduce(x_se))
        x_se = self.conv_expand(x_se)
        return x * self.gate(x_se)


class DepthwiseSeparable(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv_dw = nn.Conv2d(cin, cin, 3, padding=1, groups=cin, bias=False)
        self.bn1 = nn.BatchNorm2d(cin)
        self.act = nn.Hardswish(inplace=True)
        self.se = SqueezeExcite(cin, max(8, cin // 4))
        self.conv_pw = nn.Conv2d(cin, cout, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)

    def forward(self, x):
        x = self.act(self.bn1(self.conv_dw(x)))
        x = self.se(x)
        return self.bn2(self.conv_pw(x))


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), DepthwiseSeparable(16, 24), DepthwiseSeparable(24, 24),
                    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(24, 6))
opt = torch.optim.RMSprop(net.parameters(), lr=1e-3)
x, y = torch.randn(3, 3, 32, 32), torch.tensor([0, 5, 2])
for _ in range(2):
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())

# source: torchvision mobilenetv3.py InvertedResidual + SqueezeExcitation, large-model rows where SE follows Hardswish
# MobileNetV3 blocks whose SE gate (applied in place) always follows an in-place Hardswish after BN.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SqueezeExcitation(nn.Module):
    def __init__(self, ch, squeeze_ch):
        super().__init__()
        self.fc1 = nn.Conv2d(ch, squeeze_ch, 1)
        self.fc2 = nn.Conv2d(squeeze_ch, ch, 1)

    def forward(self, x):
        scale = x.mean((2, 3), keepdim=True)
        scale = F.hardsigmoid(self.fc2(F.relu(self.fc1(scale))))
        return x.mul_(scale)


def conv_bn_act(cin, cout, k, stride=1, groups=1, act=nn.ReLU):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), act(inplace=True))


class InvertedResidual(nn.Module):
    def __init__(self, cin, k, exp, cout, use_se, act, stride):
        super().__init__()
        act_layer = nn.Hardswish if act == "HS" else nn.ReLU
        self.use_res = stride == 1 and cin == cout
        layers = [] if exp == cin else [conv_bn_act(cin, exp, 1, act=act_layer)]
        layers.append(conv_bn_act(exp, exp, k, stride, groups=exp, act=act_layer))
        if use_se:
            layers.append(SqueezeExcitation(exp, max(8, exp // 4)))
        layers += [nn.Conv2d(exp, cout, 1, bias=False), nn.BatchNorm2d(cout)]
        self.block = nn.Sequential(*layers)

    def forward(self, x):
        out = self.block(x)
        return out + x if self.use_res else out


# (in, kernel, expanded, out, use_se, activation, stride) -- SE only on "HS" rows in this trimmed config
CFG = [(16, 3, 16, 16, False, "RE", 1), (16, 3, 64, 24, False, "RE", 2), (24, 5, 96, 40, True, "HS", 2),
       (40, 5, 240, 40, True, "HS", 1)]

torch.manual_seed(0)
stem = conv_bn_act(3, 16, 3, 2, act=nn.Hardswish)
model = nn.Sequential(stem, *[InvertedResidual(*c) for c in CFG], nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(40, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = torch.randn(2, 3, 32, 32), torch.tensor([1, 7])
for _ in range(2):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())

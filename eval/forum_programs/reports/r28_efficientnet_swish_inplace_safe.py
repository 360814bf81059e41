# intended: safe
# like: timm-style swish(x, inplace=True) = x.mul_(x.sigmoid()) in an EfficientNet MBConv block with SE
import torch
import torch.nn as nn
import torch.nn.functional as F


def swish(x, inplace: bool = False):
    return x.mul_(x.sigmoid()) if inplace else x.mul(x.sigmoid())


class Swish(nn.Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return swish(x, self.inplace)


class SqueezeExcite(nn.Module):
    def __init__(self, c, rd=4):
        super().__init__()
        self.conv_reduce = nn.Conv2d(c, rd, 1)
        self.act1 = Swish(inplace=True)
        self.conv_expand = nn.Conv2d(rd, c, 1)

    def forward(self, x):
        x_se = x.mean((2, 3), keepdim=True)
        x_se = self.act1(self.conv_reduce(x_se))
        return x * torch.sigmoid(self.conv_expand(x_se))


class MBConv(nn.Module):
    def __init__(self, c, expand=4):
        super().__init__()
        mid = c * expand
        self.conv_pw = nn.Conv2d(c, mid, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.act1 = Swish(inplace=True)
        self.conv_dw = nn.Conv2d(mid, mid, 3, padding=1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.act2 = Swish(inplace=True)
        self.se = SqueezeExcite(mid)
        self.conv_pwl = nn.Conv2d(mid, c, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(c)

    def forward(self, x):
        shortcut = x
        x = self.act1(self.bn1(self.conv_pw(x)))
        x = self.act2(self.bn2(self.conv_dw(x)))
        x = self.se(x)
        x = self.bn3(self.conv_pwl(x))
        return x + shortcut


class TinyEfficientNet(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.conv_stem = nn.Conv2d(3, 8, 3, 2, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.act1 = Swish(inplace=True)
        self.blocks = nn.Sequential(MBConv(8), MBConv(8))
        self.classifier = nn.Linear(8, num_classes)

    def forward(self, x):
        x = self.act1(self.bn1(self.conv_stem(x)))
        x = self.blocks(x)
        return self.classifier(x.mean((2, 3)))


def main():
    torch.manual_seed(0)
    model = TinyEfficientNet()
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3, alpha=0.9, eps=1e-3)
    x, y = torch.randn(4, 3, 16, 16), torch.randint(0, 3, (4,))
    for step in range(2):
        loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()

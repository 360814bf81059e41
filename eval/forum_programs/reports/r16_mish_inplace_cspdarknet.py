# intended: AGI001
# like: forum thread on a YOLOv4 CSPDarknet port, hand-rolled Mish(inplace=True) to save memory
import torch
import torch.nn as nn
import torch.nn.functional as F


def mish(x, inplace: bool = False):
    return x.mul_(F.softplus(x).tanh()) if inplace else x.mul(F.softplus(x).tanh())  # culprit


class Mish(nn.Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return mish(x, self.inplace)


class ConvBnAct(nn.Module):
    def __init__(self, c_in, c_out, k=3, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c_out)
        self.act = Mish(inplace=True)

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class CSPBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.split1 = ConvBnAct(c, c // 2, 1)
        self.split2 = ConvBnAct(c, c // 2, 1)
        self.res = nn.Sequential(ConvBnAct(c // 2, c // 2, 1), ConvBnAct(c // 2, c // 2, 3))
        self.fuse = ConvBnAct(c, c, 1)

    def forward(self, x):
        a = self.split1(x)
        b = self.split2(x)
        b = b + self.res(b)
        return self.fuse(torch.cat([a, b], 1))


class TinyCSPDarknet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.stem = ConvBnAct(3, 8, 3, 2)
        self.stage = CSPBlock(8)
        self.head = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.head(self.stage(self.stem(x)).mean((2, 3)))


def main():
    torch.manual_seed(0)
    model = TinyCSPDarknet()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = torch.randn(4, 3, 16, 16), torch.randint(0, 4, (4,))
    for step in range(2):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()

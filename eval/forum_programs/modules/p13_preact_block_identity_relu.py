# pre-activation block: in-place ReLU applied to the block input that the shortcut conv already consumed
import torch
import torch.nn as nn
import torch.nn.functional as F


class PreActBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.shortcut = nn.Conv2d(cin, cout, 1, bias=False)

    def forward(self, x):
        sc = self.shortcut(x)
        out = F.relu(x, inplace=True)  # culprit
        out = self.conv1(out)
        out = self.conv2(F.relu(self.bn2(out), inplace=True))
        return out + sc


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 4, 3, padding=1)
        self.block = PreActBlock(4, 8)

    def forward(self, x):
        x = self.stem(x)
        x = self.block(x)
        return x


def main():
    torch.manual_seed(0)
    net = Net()
    net(torch.randn(2, 3, 8, 8)).sum().backward()
    print("ok", net.stem.weight.grad.norm().item())


if __name__ == "__main__":
    main()

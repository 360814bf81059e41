# source: https://github.com/zylo117/Yet-Another-EfficientDet-Pytorch/issues/503
# BiFPN-style weighted feature fusion whose weight ReLU (built inplace=True) is applied straight to the nn.Parameter.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class Fusefeature(nn.Module):
    # replace concat with fusefeature
    def __init__(self, e=1e-4):
        super(Fusefeature, self).__init__()
        self.e = e
        self.weight = nn.Parameter(torch.ones(2, dtype=torch.float32), requires_grad=True)
        self.weight_relu = nn.ReLU(inplace=True)
        self.swish = Swish()

    def forward(self, x):
        weight = self.weight_relu(self.weight)  # culprit
        weight = weight / (torch.sum(weight, dim=0) + self.e)
        return self.swish(weight[0] * x[0] + weight[1] * x[1])


class TinyNeck(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.lateral = nn.Conv2d(4, ch, 1)
        self.down = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.fuse = Fusefeature()
        self.head = nn.Conv2d(ch, 3, 1)

    def forward(self, c3, c4):
        p3 = self.lateral(c3)
        p4 = self.lateral(c4)
        fused = self.fuse([self.down(p3), p4])
        return self.head(fused)


def main():
    torch.manual_seed(0)
    neck = TinyNeck()
    opt = torch.optim.SGD(neck.parameters(), lr=0.01)
    c3 = torch.randn(2, 4, 16, 16)
    c4 = torch.randn(2, 4, 8, 8)
    target = torch.randn(2, 3, 8, 8)
    for step in range(2):
        opt.zero_grad()
        out = neck(c3, c4)
        loss = F.mse_loss(out, target)
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()

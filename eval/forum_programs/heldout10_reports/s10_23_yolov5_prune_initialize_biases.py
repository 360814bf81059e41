# source: https://github.com/xhwNobody/yolov5_prune_sfp/issues/17
# yolov5 pruned Model.__init__ -> _initialize_biases(): b = mi.bias.view(na, -1); obj row edited as b[:, 4] += log(...) (the .data kept only on the cls row)
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Detect(nn.Module):
    stride = None

    def __init__(self, nc=80, anchors=(), ch=()):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.register_buffer('anchors', torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    def forward(self, x):
        for i in range(self.nl):
            x[i] = self.m[i](x[i])
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        return x


class Model(nn.Module):
    def __init__(self, nc=80):
        super().__init__()
        self.backbone = nn.ModuleList([Conv(3, 16, 3, 2), Conv(16, 32, 3, 2), Conv(32, 64, 3, 2), Conv(64, 64, 3, 2)])
        anchors = [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119]]
        self.head_self = Detect(nc=nc, anchors=anchors, ch=(64, 64))
        self.head_self.stride = torch.tensor([8., 16.])
        self._initialize_biases()  # only run once

    def forward(self, x):
        feats = []
        for i, m in enumerate(self.backbone):
            x = m(x)
            if i >= 2:
                feats.append(x)
        return self.head_self(feats)

    def _initialize_biases(self, cf=None):  # initialize biases into Detect(), cf is class frequency
        m = self.head_self  # Detect() module
        for mi, s in zip(m.m, m.stride):  # from
            b = mi.bias.view(m.na, -1)  # conv.bias(255) to (3,85)
            b[:, 4] += math.log(8 / (640 / s) ** 2)  # culprit
            b.data[:, 5:] += math.log(0.6 / (m.nc - 0.99)) if cf is None else torch.log(cf / cf.sum())  # cls
            mi.bias = torch.nn.Parameter(b.view(-1), requires_grad=True)


def compute_loss(preds):
    bce = nn.BCEWithLogitsLoss()
    lobj = sum(bce(p[..., 4], torch.zeros_like(p[..., 4])) for p in preds)
    lbox = sum(p[..., :4].sigmoid().pow(2).mean() for p in preds)
    return lobj + 0.05 * lbox


model_dst = Model(nc=80)
optimizer = torch.optim.SGD(model_dst.parameters(), lr=0.01, momentum=0.937, nesterov=True)
imgs = torch.randn(2, 3, 64, 64)
preds = model_dst(imgs)
loss = compute_loss(preds)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())

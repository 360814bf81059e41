# source: ultralytics YOLOv5 Detect head (inference-style decode reused in a training loss)
# y = x.sigmoid(); box xy/wh decoded by writing back into y[..., 0:4], then a box L1 + objectness loss is backpropagated
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvBNAct(nn.Module):
    def __init__(self, cin, cout, k=3, s=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = nn.SiLU(inplace=True)

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Detect(nn.Module):
    def __init__(self, nc, anchors, ch, strides):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.register_buffer("anchors", torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.stride = strides
        self.m = nn.ModuleList(nn.Conv2d(c, self.no * self.na, 1) for c in ch)

    def _make_grid(self, nx, ny, i):
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()
        anchor_grid = self.anchors[i].view(1, self.na, 1, 1, 2)
        return grid, anchor_grid

    def forward(self, feats):
        z = []
        for i, x in enumerate(feats):
            x = self.m[i](x)
            bs, _, ny, nx = x.shape
            x = x.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            grid, anchor_grid = self._make_grid(nx, ny, i)
            y = x.sigmoid()
            y[..., 0:4] = torch.cat(((y[..., 0:2] * 2 - 0.5 + grid) * self.stride[i], (y[..., 2:4] * 2) ** 2 * anchor_grid), -1)  # culprit
            z.append(y.view(bs, -1, self.no))
        return torch.cat(z, 1)


class TinyYOLO(nn.Module):
    def __init__(self, nc=3):
        super().__init__()
        self.b1 = nn.Sequential(ConvBNAct(3, 16, 3, 2), ConvBNAct(16, 16))
        self.b2 = ConvBNAct(16, 32, 3, 2)
        self.detect = Detect(nc, [[10, 13, 16, 30], [30, 61, 62, 45]], (16, 32), (2.0, 4.0))

    def forward(self, img):
        p3 = self.b1(img)
        p4 = self.b2(p3)
        return self.detect([p3, p4])


def decoded_box_loss(pred, tgt_boxes, tgt_obj):
    box_l1 = F.l1_loss(pred[..., :4], tgt_boxes, reduction="none").sum(-1)
    box_loss = (box_l1 * tgt_obj).sum() / tgt_obj.sum().clamp(min=1)
    obj_loss = F.binary_cross_entropy(pred[..., 4], tgt_obj)
    return box_loss * 0.05 + obj_loss


if __name__ == "__main__":
    model = TinyYOLO()
    model.train()
    img = torch.randn(2, 3, 32, 32)
    pred = model(img)
    tgt_boxes = torch.rand_like(pred[..., :4]) * 32
    tgt_obj = (torch.rand(pred.shape[:2]) < 0.1).float()
    loss = decoded_box_loss(pred, tgt_boxes, tgt_obj)
    loss.backward()
    print("loss", loss.item())

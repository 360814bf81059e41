# intended: AGI001
# like: YOLOv5 issue, calling the inference-time box decode of Detect during training to get an IoU loss
import torch
import torch.nn as nn
import torch.nn.functional as F


class Detect(nn.Module):
    def __init__(self, nc=2, anchors=((10, 13, 16, 30, 33, 23), (30, 61, 62, 45, 59, 119)), ch=(8, 16)):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.register_buffer("anchors", torch.tensor(anchors).float().view(self.nl, -1, 2))
        self.stride = [8.0, 16.0]
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    @staticmethod
    def _make_grid(nx, ny):
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        return torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()

    def forward(self, x):
        z = []
        for i in range(self.nl):
            x[i] = self.m[i](x[i])
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            grid = self._make_grid(nx, ny)
            anchor_grid = self.anchors[i].view(1, self.na, 1, 1, 2)
            y = x[i].sigmoid()
            y[..., 0:2] = (y[..., 0:2] * 2.0 - 0.5 + grid) * self.stride[i]  # culprit
            y[..., 2:4] = (y[..., 2:4] * 2) ** 2 * anchor_grid
            z.append(y.view(bs, -1, self.no))
        return torch.cat(z, 1), x


class TinyBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.SiLU())
        self.c2 = nn.Sequential(nn.Conv2d(8, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.SiLU())
        self.c3 = nn.Sequential(nn.Conv2d(8, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.SiLU())
        self.c4 = nn.Sequential(nn.Conv2d(8, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.SiLU())

    def forward(self, x):
        p3 = self.c3(self.c2(self.c1(x)))
        p4 = self.c4(p3)
        return [p3, p4]


def main():
    torch.manual_seed(0)
    backbone, head = TinyBackbone(), Detect()
    params = list(backbone.parameters()) + list(head.parameters())
    optimizer = torch.optim.SGD(params, lr=0.01, momentum=0.937, nesterov=True)
    imgs = torch.rand(2, 3, 32, 32)
    target_boxes = torch.rand(2, 3 * 16 + 3 * 4, 4) * 32
    target_obj = (torch.rand(2, 3 * 16 + 3 * 4) > 0.8).float()
    for it in range(2):
        pred, raw = head(backbone(imgs))
        lbox = F.smooth_l1_loss(pred[..., :4], target_boxes)
        lobj = F.binary_cross_entropy(pred[..., 4], target_obj)
        loss = 0.05 * lbox + lobj
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())


if __name__ == "__main__":
    main()

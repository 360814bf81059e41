# source: YOLO-style detection head rewrites (ultralytics/yolov5 Detect refactor to x.split((2, 2, nc + 1), 4)); users applying sigmoid_() to the split pieces get "... returns multiple views ..."
# xy is one of the views returned by split(); sigmoid_() on it is an in-place op on a multi-view output
import torch
import torch.nn as nn

torch.manual_seed(0)


class DetectHead(nn.Module):
    def __init__(self, in_ch=8, num_classes=3, anchors=((1.0, 1.5), (2.0, 1.0))):
        super().__init__()
        self.nc = num_classes
        self.no = num_classes + 5
        self.register_buffer("anchors", torch.tensor(anchors))
        self.na = len(anchors)
        self.conv = nn.Conv2d(in_ch, self.na * self.no, 1)

    @staticmethod
    def make_grid(nx, ny):
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        return torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()

    def forward(self, feat, stride=8):
        bs, _, ny, nx = feat.shape
        p = self.conv(feat).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2)
        xy, wh, conf = p.split((2, 2, self.nc + 1), dim=4)
        xy.sigmoid_()  # culprit
        xy = (xy * 2 - 0.5 + self.make_grid(nx, ny)) * stride
        wh = torch.exp(wh) * self.anchors.view(1, self.na, 1, 1, 2) * stride
        return torch.cat((xy, wh, conf.sigmoid()), dim=4).view(bs, -1, self.no)


backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.SiLU())
head = DetectHead()
images = torch.randn(2, 3, 8, 8)
preds = head(backbone(images))
target_boxes = torch.rand(2, preds.shape[1], 4) * 8
loss = (preds[..., :4] - target_boxes).abs().mean() + preds[..., 4].mean()
loss.backward()
print(preds.shape, loss.item())

# source: ultralytics/yolov3-style Detect decode (y = x.sigmoid(); y[..., 0:2] = ...; y[..., 2:4] = ...) and the forum advice to clone() the sigmoid output when decoding with grad enabled
# look-alike: the slice writes go into a clone of the sigmoid output, so SigmoidBackward0's saved result is untouched
import torch
import torch.nn as nn

torch.manual_seed(0)


class Detect(nn.Module):
    def __init__(self, in_ch=8, nc=2, anchors=((1.0, 2.0), (2.0, 1.0)), stride=4):
        super().__init__()
        self.nc, self.no, self.na, self.stride = nc, nc + 5, len(anchors), stride
        self.register_buffer("anchor_grid", torch.tensor(anchors).view(1, self.na, 1, 1, 2) * stride)
        self.m = nn.Conv2d(in_ch, self.na * self.no, 1)

    def _make_grid(self, nx, ny):
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        return torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()

    def forward(self, x):
        bs, _, ny, nx = x.shape
        x = self.m(x).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        grid = self._make_grid(nx, ny)
        y = x.sigmoid().clone()
        y[..., 0:2] = (y[..., 0:2] * 2.0 - 0.5 + grid) * self.stride
        y[..., 2:4] = (y[..., 2:4] * 2) ** 2 * self.anchor_grid
        return y.view(bs, -1, self.no)


def box_loss(pred, target):
    return (pred[..., :4] - target).abs().mean() + nn.functional.binary_cross_entropy(
        pred[..., 4], torch.ones_like(pred[..., 4]))


backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.SiLU(inplace=True))
detect = Detect()
params = list(backbone.parameters()) + list(detect.parameters())
opt = torch.optim.SGD(params, lr=0.01)
images = torch.randn(2, 3, 8, 8)
for step in range(2):
    pred = detect(backbone(images))
    loss = box_loss(pred, torch.rand(2, pred.shape[1], 4) * 8)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, pred.shape, loss.item())

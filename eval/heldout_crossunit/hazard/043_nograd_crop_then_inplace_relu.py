# Source: ccarliu/m3ae#15 and pytorch/pytorch PR #103185 ("A view was created in no_grad mode and
# is being modified inplace with grad mode enabled").
# Unit kind: class -- RoICrop cuts the view under no_grad; Refine's in-place ReLU writes it.
import torch
import torch.nn as nn

torch.manual_seed(0)


class RoICrop(nn.Module):
    def __init__(self, box):
        super().__init__()
        self.box = box

    def forward(self, feat):
        y0, y1, x0, x1 = self.box
        with torch.no_grad():
            return feat[:, :, y0:y1, x0:x1]


class Refine(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.act = nn.ReLU(inplace=True)  # culprit
        self.conv = nn.Conv2d(c, c, 3, padding=1)

    def forward(self, x):
        return self.conv(self.act(x))


backbone = nn.Conv2d(3, 4, 3, padding=1)
crop, refine = RoICrop((1, 5, 1, 5)), Refine(4)
feat = backbone(torch.randn(1, 3, 8, 8))
refine(crop(feat)).sum().backward()
print("done")

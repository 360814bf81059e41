# source: FCOS head (mmdetection fcos_head.py forward_single) with norm_on_bbox=True: bbox_pred.clamp(min=0), *= stride only at test time
# FCOS-style head with normalised regression targets: Scale output clamped in place, stride multiplied in place at inference.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Scale(nn.Module):
    def __init__(self, init=1.0):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(init))

    def forward(self, x):
        return x * self.scale


class FCOSHead(nn.Module):
    def __init__(self, in_ch=16, n_classes=3, strides=(8, 16)):
        super().__init__()
        self.strides = strides
        tower = lambda: nn.Sequential(nn.Conv2d(in_ch, in_ch, 3, padding=1), nn.GroupNorm(4, in_ch), nn.ReLU(inplace=True))
        self.cls_tower, self.reg_tower = tower(), tower()
        self.conv_cls = nn.Conv2d(in_ch, n_classes, 3, padding=1)
        self.conv_reg = nn.Conv2d(in_ch, 4, 3, padding=1)
        self.conv_centerness = nn.Conv2d(in_ch, 1, 3, padding=1)
        self.scales = nn.ModuleList([Scale(1.0) for _ in strides])

    def forward_single(self, x, scale, stride):
        cls_feat, reg_feat = self.cls_tower(x), self.reg_tower(x)
        bbox_pred = scale(self.conv_reg(reg_feat)).float()
        bbox_pred.clamp_(min=0)
        if not self.training:
            bbox_pred *= stride
        return self.conv_cls(cls_feat), bbox_pred, self.conv_centerness(reg_feat)

    def forward(self, feats):
        return [self.forward_single(f, s, st) for f, s, st in zip(feats, self.scales, self.strides)]


torch.manual_seed(0)
head = FCOSHead()
opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
feats = [torch.randn(2, 16, 8, 8), torch.randn(2, 16, 4, 4)]
loss = 0.0
for cls, reg, ctr in head(feats):
    reg_t = torch.rand_like(reg) * 4
    loss = loss + F.binary_cross_entropy_with_logits(cls, torch.zeros_like(cls)) + F.smooth_l1_loss(reg, reg_t)
    loss = loss + F.binary_cross_entropy_with_logits(ctr, torch.full_like(ctr, 0.5))
opt.zero_grad()
loss.backward()
opt.step()
head.eval()
with torch.no_grad():
    boxes = [reg for _, reg, _ in head(feats)]
print(float(loss), boxes[0].shape)

# source: FCOS head (mmdetection fcos_head.py forward_single / tianzhi0549/FCOS) with norm_on_bbox=False: exp() then *= stride during training
# FCOS-style head over an FPN: per-level Scale on the regression conv, exp(), then multiplied by the level stride in place.
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
        bbox_pred = bbox_pred.exp()
        bbox_pred *= stride  # culprit
        return self.conv_cls(cls_feat), bbox_pred, self.conv_centerness(reg_feat)

    def forward(self, feats):
        return [self.forward_single(f, s, st) for f, s, st in zip(feats, self.scales, self.strides)]


def iou_loss(pred, target):
    area_p = (pred[:, 0] + pred[:, 2]) * (pred[:, 1] + pred[:, 3])
    area_t = (target[:, 0] + target[:, 2]) * (target[:, 1] + target[:, 3])
    w = torch.min(pred[:, 0], target[:, 0]) + torch.min(pred[:, 2], target[:, 2])
    h = torch.min(pred[:, 1], target[:, 1]) + torch.min(pred[:, 3], target[:, 3])
    inter = w * h
    return -torch.log((inter + 1) / (area_p + area_t - inter + 1)).mean()


torch.manual_seed(0)
head = FCOSHead()
opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
feats = [torch.randn(2, 16, 8, 8), torch.randn(2, 16, 4, 4)]
loss = 0.0
for (cls, reg, ctr), st in zip(head(feats), head.strides):
    cls_t = torch.zeros_like(cls)
    reg_t = torch.rand(reg.size(0), 4, *reg.shape[2:]) * 4 * st
    loss = loss + F.binary_cross_entropy_with_logits(cls, cls_t) + iou_loss(reg.permute(0, 2, 3, 1).reshape(-1, 4),
                                                                          reg_t.permute(0, 2, 3, 1).reshape(-1, 4))
opt.zero_grad()
loss.backward()
opt.step()
print(float(loss))

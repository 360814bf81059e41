import torch.nn as nn
import torch.nn.functional as F


class FCOSHead(nn.Module):
    def __init__(self, ch, norm_reg_targets=True):
        super().__init__()
        self.bbox_pred = nn.Conv2d(ch, 4, 3, padding=1)
        self.norm_reg_targets = norm_reg_targets

    def forward(self, feat, stride):
        bbox_pred = self.bbox_pred(feat)
        if self.norm_reg_targets:
            bbox_pred = F.relu(bbox_pred)
            return bbox_pred if self.training else bbox_pred * stride
        return bbox_pred.exp()

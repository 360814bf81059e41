import torch
import torch.nn as nn

from polish import polish_border


class AttentionHead(nn.Module):
    def __init__(self, ch, polish=False):
        super().__init__()
        self.att_conv = nn.Conv2d(ch, 1, 3, padding=1)
        self.polish = polish

    def forward(self, feat):
        att = torch.sigmoid(self.att_conv(feat))   # sigmoid saves its result
        if self.polish:
            att = polish_border(att)
        return feat * att

# Source: AggMan96/RK-Net#9 ("add att = att.clone() under if self.polish").
# Clean look-alike of hazard/009: polish_border() writes a clone of the ReLU output.
# Unit kind: method.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class AttentionHead(nn.Module):
    def __init__(self, polish=True):
        super().__init__()
        self.conv = nn.Conv2d(4, 1, 3, padding=1)
        self.polish = polish

    def polish_border(self, att):
        att = att.clone()
        att[:, :, :, 0] = 0
        att[:, :, :, -1] = 0
        att[:, :, 0, :] = 0
        att[:, :, -1, :] = 0
        return att

    def forward(self, x):
        att = F.relu(self.conv(x))
        if self.polish:
            att = self.polish_border(att)
        return x * att


m = AttentionHead()
m(torch.randn(2, 4, 6, 6)).sum().backward()
print("done")

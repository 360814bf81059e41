# Source: argusswift/YOLOv4-pytorch#247 (CSPDarknet53 activations; in-place ops after a tensor
# is used elsewhere) and huggingface/pytorch-image-models PR #156 (in-place Mish: "If you modify
# x in-place in forward, you need to clone x before saving for backward").
# Unit kind: class -- an in-place Mish module sits first in the main branch; the CSP split conv
# (another module) saved the same input.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MishInplace(nn.Module):
    def forward(self, x):
        return x.mul_(F.softplus(x).tanh())  # culprit


class CSPFirstStage(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.downsample = nn.Conv2d(3, c, 3, stride=2, padding=1)
        self.split_conv0 = nn.Conv2d(c, c, 1)
        self.blocks_conv = nn.Sequential(MishInplace(), nn.Conv2d(c, c, 3, padding=1))

    def forward(self, x):
        x = self.downsample(x)
        x0 = self.split_conv0(x)
        x1 = self.blocks_conv(x)
        return torch.cat([x1, x0], dim=1)


CSPFirstStage(4)(torch.randn(1, 3, 8, 8)).sum().backward()
print("done")

"""A diffusion model's residual block (the score_sde / DDPM++ shape): its shortcut is a 1x1 convolution
when the channel count changes and ``nn.Identity()`` when it does not, and with ``skip_rescale`` the
shortcut is scaled in place. On the identity path the shortcut *is* the block's input, which the first
GroupNorm saved for backward: the in-place scale overwrites it."""
import math

import torch
import torch.nn as nn


class ResnetBlock(nn.Module):
    def __init__(self, in_ch, out_ch, groups=2, skip_rescale=True):
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.act = nn.SiLU()
        self.skip = nn.Conv2d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()
        self.skip_rescale = skip_rescale

    def forward(self, x):
        h = self.conv1(self.act(self.norm1(x)))
        skip = self.skip(x)
        if self.skip_rescale:
            skip = skip.mul(1.0 / math.sqrt(2.0))  # expect: AGI001
            return skip + h / math.sqrt(2.0)
        return skip + h


def run():
    torch.manual_seed(0)
    stem = nn.Conv2d(3, 4, 3, padding=1)
    block = ResnetBlock(4, 4)
    out = block(stem(torch.randn(2, 3, 8, 8)))
    out.mean().backward()
    return out


if __name__ == "__main__":
    print(run())

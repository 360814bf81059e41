import torch.nn as nn

from activations import Swish


class ActFirstDWConv(nn.Module):
    """Depthwise conv preceded by the activation (pre-activation style)."""

    def __init__(self, c):
        super().__init__()
        self.act = Swish()
        self.dw = nn.Conv2d(c, c, 3, padding=1, groups=c)

    def forward(self, x):
        return self.dw(self.act(x))

import torch.nn as nn

from layers import make_residual, make_shortcut


class Block(nn.Module):
    def __init__(self, in_chan, out_chan, stride=1):
        super().__init__()
        self.stride, self.in_chan, self.out_chan = stride, in_chan, out_chan
        self.residual = make_residual(in_chan, out_chan, stride)
        self.shortcut = make_shortcut(in_chan, out_chan, stride)

    def forward(self, x):
        resd = self.residual(x)              # activates x in place first
        if not self.stride == 1 or not self.in_chan == self.out_chan:
            sc = self.shortcut(x)            # then the 1x1 conv saves it
        else:
            sc = x
        return resd + sc

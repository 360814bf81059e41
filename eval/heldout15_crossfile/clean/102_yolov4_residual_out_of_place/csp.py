import torch.nn as nn

from conv import Convolutional


class CSPBlock(nn.Module):
    def __init__(self, ch, activate="mish"):
        super().__init__()
        self.block = nn.Sequential(
            Convolutional(ch, ch, 1, activate=activate),
            Convolutional(ch, ch, 3, activate=activate),
        )
        self.post_act = nn.ReLU(inplace=True)

    def forward(self, x):
        residual = x
        out = self.block(x)
        out = out + residual
        return self.post_act(out)

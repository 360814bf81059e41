import torch.nn as nn

from .activation import build_activation_layer


class ConvModule(nn.Module):
    def __init__(self, cin, cout, k, padding=0, act_cfg=None, order=("conv", "norm", "act")):
        super().__init__()
        self.order = order
        self.conv = nn.Conv2d(cin, cout, k, padding=padding, bias=False)
        self.norm = nn.BatchNorm2d(cout)
        self.activate = build_activation_layer(act_cfg) if act_cfg else None

    def forward(self, x):
        for layer in self.order:
            if layer == "conv":
                x = self.conv(x)
            elif layer == "norm":
                x = self.norm(x)
            elif layer == "act" and self.activate is not None:
                x = self.activate(x)
        return x

# Source: https://github.com/pytorch/audio/pull/1993 (pytorch/audio PR #1993: use torch.nn.init.constant_ instead of filling conv.weight directly)
# Unit kind: cross-function
# Look-alike of hazard/013: the init helper fills the weights inside torch.no_grad()
# (as nn.init.constant_ does), so the leaf parameters may be written in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


def build_upsample(scales):
    layers = []
    for s in scales:
        layers.append(nn.Conv2d(1, 1, kernel_size=(1, 2 * s + 1), padding=(0, s), bias=False))
        layers.append(nn.Upsample(scale_factor=(1, s)))
    return nn.Sequential(*layers)


def init_smoothing(module):
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, nn.Conv2d):
                m.weight.fill_(1.0 / m.kernel_size[1])


net = build_upsample([2, 2])
init_smoothing(net)
net(torch.randn(1, 1, 3, 4)).sum().backward()
print("done")

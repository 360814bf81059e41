# Source: https://github.com/pytorch/audio/pull/1993 (pytorch/audio PR #1993: replacing the legacy .data init in WaveRNN, `conv.weight.fill_(1)` raises "a leaf Variable that requires grad is being used in an in-place operation"; use torch.nn.init.constant_)
# Unit kind: cross-function
# The upsample network is built in one function; a separate init helper fills the
# 1-wide smoothing convolutions' weights in place, outside no_grad.
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
    for m in module.modules():
        if isinstance(m, nn.Conv2d):
            m.weight.fill_(1.0 / m.kernel_size[1])  # culprit


net = build_upsample([2, 2])
init_smoothing(net)
out = net(torch.randn(1, 1, 3, 4))
out.sum().backward()
print("done")

import torch.nn as nn


def make_residual(in_chan, out_chan, stride):
    """pre-activation residual branch: ReLU -> conv -> BN -> ReLU -> conv"""
    return nn.Sequential(
        nn.ReLU(inplace=True),
        nn.Conv2d(in_chan, out_chan, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(out_chan),
        nn.ReLU(inplace=True),
        nn.Conv2d(out_chan, out_chan, 3, padding=1, bias=False),
    )


def make_shortcut(in_chan, out_chan, stride):
    return nn.Sequential(nn.Conv2d(in_chan, out_chan, 1, stride=stride, bias=False), nn.BatchNorm2d(out_chan))

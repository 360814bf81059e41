import torch.nn as nn


class ConvBlock(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__()
        self.add_module("conv", nn.Conv2d(cin, cout, 3, padding=1))
        self.add_module("norm", nn.BatchNorm2d(cout))
        self.add_module("LeakyRelu", nn.LeakyReLU(0.2, inplace=True))


def generator():
    return nn.Sequential(ConvBlock(3, 8), ConvBlock(8, 8), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())


def discriminator():
    return nn.Sequential(ConvBlock(3, 8), nn.Conv2d(8, 1, 3, padding=1))

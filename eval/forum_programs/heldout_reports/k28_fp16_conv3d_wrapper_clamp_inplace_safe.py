# source: https://github.com/pytorch/pytorch/issues/33373 (Conv3dWrapper returns torch.clamp_(conv output, -65504, 65504) to avoid fp16 overflow)
import torch
import torch.nn as nn

_conv3d = nn.Conv3d


class Conv3dWrapper(_conv3d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode='zeros'):
        super(Conv3dWrapper, self).__init__(in_channels, out_channels, kernel_size, stride,
                                            padding, dilation, groups, bias, padding_mode)

    def forward(self, input):
        return torch.clamp_(super(Conv3dWrapper, self).forward(input), -65504, 65504)


torch.manual_seed(0)
net = nn.Sequential(Conv3dWrapper(1, 2, 3, padding=1), nn.ReLU(), Conv3dWrapper(2, 2, 3, padding=1),
                    nn.BatchNorm3d(2), Conv3dWrapper(2, 1, 1))
x = torch.randn(1, 1, 4, 4, 4)
loss = net(x).pow(2).mean()
loss.backward()
print(loss.item())

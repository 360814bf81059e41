# Source: https://github.com/pytorch/pytorch/issues/33373 (Conv3dWrapper.forward returns torch.clamp_(super().forward(input), -65504, 65504) to avoid fp16 overflow; the conv output it clamps is not saved by the conv)
# Unit kind: cross-class
# Look-alike of hazard/021
import torch
import torch.nn as nn

torch.manual_seed(0)


class Conv2dWrapper(nn.Conv2d):
    def forward(self, input):
        return torch.clamp_(super().forward(input), -1.0, 1.0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = Conv2dWrapper(3, 4, 3, padding=1)
        self.conv2 = Conv2dWrapper(4, 2, 3, padding=1)

    def forward(self, x):
        return self.conv2(torch.tanh(self.conv1(x)))


out = Net()(torch.randn(2, 3, 6, 6, requires_grad=True))
out.pow(2).mean().backward()
print("ok", tuple(out.shape))

# source: EfficientNet-PyTorch MemoryEfficientSwish (custom autograd.Function) in an MBConv-style block
# description: the custom Function saves its input; the block then accumulates the residual into that same input in-place
import torch
import torch.nn as nn


class SwishImplementation(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i * torch.sigmoid(i)
        ctx.save_for_backward(i)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        i = ctx.saved_tensors[0]
        sigmoid_i = torch.sigmoid(i)
        return grad_output * (sigmoid_i * (1 + i * (1 - sigmoid_i)))


class MemoryEfficientSwish(nn.Module):
    def forward(self, x):
        return SwishImplementation.apply(x)


class MBConvLite(nn.Module):
    def __init__(self, ch, expand=2):
        super().__init__()
        mid = ch * expand
        self._expand_conv = nn.Conv2d(ch, mid, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(mid)
        self._depthwise_conv = nn.Conv2d(mid, mid, 3, padding=1, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid)
        self._project_conv = nn.Conv2d(mid, ch, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(ch)
        self._swish = MemoryEfficientSwish()

    def forward(self, inputs):
        x = self._bn0(self._expand_conv(inputs))
        x = self._swish(x)
        x = self._bn1(self._depthwise_conv(x))
        x = self._swish(x)
        return self._bn2(self._project_conv(x))


class Stage(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1, bias=False), nn.BatchNorm2d(ch))
        self.act = MemoryEfficientSwish()
        self.block = MBConvLite(ch)

    def forward(self, x):
        x = self.stem(x)
        y = self.act(x)
        x += self.block(y)  # culprit
        return x


if __name__ == "__main__":
    torch.manual_seed(0)
    net = Stage(4)
    x = torch.randn(2, 3, 8, 8)
    loss = net(x).pow(2).mean()
    loss.backward()

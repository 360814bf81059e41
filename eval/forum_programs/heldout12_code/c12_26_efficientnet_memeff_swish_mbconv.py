# source: lukemelas/EfficientNet-PyTorch MBConvBlock with MemoryEfficientSwish (custom autograd.Function) and drop_connect
# MBConv blocks using a custom Swish Function that saves its input, SE gating, drop-connect and a gradient-clipping hook.
import torch
import torch.nn as nn
import torch.nn.functional as F


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


def drop_connect(inputs, p, training):
    if not training:
        return inputs
    keep_prob = 1 - p
    random_tensor = keep_prob + torch.rand([inputs.shape[0], 1, 1, 1], dtype=inputs.dtype)
    binary_tensor = torch.floor(random_tensor)
    return inputs / keep_prob * binary_tensor


class MBConvBlock(nn.Module):
    def __init__(self, in_ch, out_ch, expand_ratio=4, stride=1, se_ratio=0.25, drop_connect_rate=0.2):
        super().__init__()
        mid = in_ch * expand_ratio
        self.id_skip = stride == 1 and in_ch == out_ch
        self.drop_connect_rate = drop_connect_rate
        self._expand_conv = nn.Conv2d(in_ch, mid, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(mid, momentum=0.01, eps=1e-3)
        self._depthwise_conv = nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, momentum=0.01, eps=1e-3)
        squeezed = max(1, int(in_ch * se_ratio))
        self._se_reduce = nn.Conv2d(mid, squeezed, 1)
        self._se_expand = nn.Conv2d(squeezed, mid, 1)
        self._project_conv = nn.Conv2d(mid, out_ch, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(out_ch, momentum=0.01, eps=1e-3)
        self._swish = MemoryEfficientSwish()

    def forward(self, inputs):
        x = self._swish(self._bn0(self._expand_conv(inputs)))
        x = self._swish(self._bn1(self._depthwise_conv(x)))
        x_squeezed = F.adaptive_avg_pool2d(x, 1)
        x_squeezed = self._se_expand(self._swish(self._se_reduce(x_squeezed)))
        x = torch.sigmoid(x_squeezed) * x
        x = self._bn2(self._project_conv(x))
        if self.id_skip:
            x = drop_connect(x, self.drop_connect_rate, self.training)
            x += inputs
        return x


class TinyEfficientNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 8, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(8)
        self._blocks = nn.ModuleList([MBConvBlock(8, 8), MBConvBlock(8, 12, stride=2), MBConvBlock(12, 12)])
        self._fc = nn.Linear(12, num_classes)
        self._swish = MemoryEfficientSwish()

    def forward(self, x):
        x = self._swish(self._bn0(self._conv_stem(x)))
        for block in self._blocks:
            x = block(x)
        if x.requires_grad:
            x.register_hook(lambda g: g.clamp(-1.0, 1.0))
        return self._fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


def main():
    torch.manual_seed(0)
    model = TinyEfficientNet()
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3, alpha=0.9, eps=1e-3, momentum=0.9)
    x, y = torch.randn(4, 3, 16, 16), torch.randint(0, 4, (4,))
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
